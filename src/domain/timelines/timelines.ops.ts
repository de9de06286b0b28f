// Timelines: home, public, hashtag, bubble and an account's statuses (lists.ops.ts runs the list
// timeline through `runTimeline` too). Each page is ONE Prisma query: visibleWhere(ctx) AND the
// timeline's own conditions AND the viewer's filters (mutes, muted threads, domain blocks,
// visibilities, replies), ordered by id — plus, for a signed-in viewer, one query each for their
// domain blocks, muted threads and keyword filters, whatever the page's length.
// inclusion.ts states the same rules for one status in memory (the streams): change both together.
import { z } from "zod";
import type { Prisma, Status } from "../../generated/prisma/client.ts";
import { getAccount } from "../accounts/lookup.ts";
import { requireAccount } from "../auth/policy.ts";
import { activeFilters, rejectFiltered, type FilterContext } from "../filters/filters.ops.ts";
import type { Ctx } from "../context.ts";
import { array, bool } from "../inputs.ts";
import { operation } from "../operation.ts";
import { keyset, pageInput, type Page } from "../pagination.ts";
import { activeRelation } from "../relationships/relationships.read.ts";
import { visibleWhere } from "../statuses/visibility.ts";
import { openVisibilities } from "./inclusion.ts";

const VISIBILITIES = ["public", "unlisted", "private", "direct", "local", "list"] as const;

/** Parameters every timeline accepts. */
export const commonInput = pageInput.extend({
  with_muted: bool().optional(),
  exclude_visibilities: array(z.enum(VISIBILITIES)).optional(),
  only_media: bool().optional(),
  remote: bool().optional(),
});

/** Home, public, hashtag (and list) timelines also filter by origin and reply targets. */
export const feedInput = commonInput.extend({
  local: bool().optional(),
  reply_visibility: z.enum(["following", "self"]).optional(),
});

type CommonInput = z.output<typeof commonInput>;
type FeedInput = z.output<typeof feedInput>;

const tagName = (t: string) => t.trim().replace(/^#/, "").toLowerCase();

/** Conditions on one status that hold for the status itself and for the original of a reblog. */
function authorFilters(ctx: Ctx, opts: { withMuted: boolean; blockedDomains: string[]; mutedThreads?: string[] }): Prisma.StatusWhereInput[] {
  const viewerId = ctx.viewer.account?.id;
  const and: Prisma.StatusWhereInput[] = [];
  if (viewerId && !opts.withMuted)
    and.push({ account: { relationsIn: { none: { sourceId: viewerId, type: "mute", ...activeRelation(ctx.clock()) } } } });
  if (opts.blockedDomains.length) and.push({ account: { OR: [{ domain: null }, { domain: { notIn: opts.blockedDomains } }] } });
  // as in the family, a muted thread hides every status in it, the viewer's own included
  if (opts.mutedThreads?.length) and.push({ context: { notIn: opts.mutedThreads } });
  return and;
}

async function blockedDomains(ctx: Ctx): Promise<string[]> {
  const viewerId = ctx.viewer.account?.id;
  if (!viewerId) return [];
  const rows = await ctx.db.domainBlock.findMany({ where: { accountId: viewerId }, select: { domain: true } });
  return rows.map((r) => r.domain);
}

/** The contexts of the viewer's unexpired thread mutes; none when muted content is asked for. */
async function mutedThreads(ctx: Ctx, wanted: boolean): Promise<string[]> {
  const viewerId = ctx.viewer.account?.id;
  if (!viewerId || !wanted) return [];
  const rows = await ctx.db.threadMute.findMany({ where: { accountId: viewerId, ...activeRelation(ctx.clock()) }, select: { context: true } });
  return rows.map((r) => r.context);
}

export interface Build {
  /** the keyword-filter context whose irreversible filters drop matches */
  filterContext: FilterContext;
  /** the timeline's own conditions */
  where: Prisma.StatusWhereInput[];
  /** muting does not hide the author's own statuses (account timelines), only the originals of reblogs */
  muteAuthor?: boolean;
  /** statuses in threads the viewer muted are hidden (unless `with_muted`); account timelines keep them */
  threadMutes?: boolean;
  reblogs?: boolean;
}

/** Runs one timeline page: the composed `where`, keyset ordering by id. */
export async function runTimeline(ctx: Ctx, input: CommonInput & Partial<FeedInput>, build: Build): Promise<Page<Status>> {
  const viewerId = ctx.viewer.account?.id;
  const [domains, threads, filters] = await Promise.all([
    blockedDomains(ctx),
    mutedThreads(ctx, build.threadMutes !== false && !input.with_muted),
    activeFilters(ctx, build.filterContext),
  ]);
  const own = authorFilters(ctx, { withMuted: !!input.with_muted, blockedDomains: domains, mutedThreads: threads });
  const visible = visibleWhere(ctx);
  const and: Prisma.StatusWhereInput[] = [visible, ...build.where];
  if (build.muteAuthor !== false) and.push(...own);
  else if (domains.length) and.push(...authorFilters(ctx, { withMuted: true, blockedDomains: domains }));
  // a reblog is shown only when its original is visible and passes the same filters
  if (build.reblogs === false) and.push({ reblogOfId: null });
  else and.push({ OR: [{ reblogOfId: null }, { reblogOf: { AND: [visible, ...own] } }] });
  if (input.exclude_visibilities?.length) and.push({ visibility: { notIn: input.exclude_visibilities } });
  if (input.only_media) and.push({ OR: [{ media: { some: {} } }, { reblogOf: { media: { some: {} } } }] });
  if (input.local) and.push({ local: true });
  if (input.remote) and.push({ local: false });
  if (viewerId && input.reply_visibility) {
    const directed: Prisma.StatusWhereInput[] = [{ inReplyToId: null }, { accountId: viewerId }, { inReplyToAccountId: viewerId }];
    if (input.reply_visibility === "following")
      directed.push({ inReplyTo: { account: { followers: { some: { followerId: viewerId, state: "accept" } } } } });
    and.push({ OR: directed });
  }
  const k = keyset(input);
  const rows = await ctx.db.status.findMany({
    where: { AND: [...and, ...(k.cursor ? [{ id: k.cursor }] : [])] },
    orderBy: { id: k.order },
    take: k.take,
  });
  const page = k.finish(rows, (s) => s.id);
  const irreversible = filters.filter((f) => f.irreversible);
  if (irreversible.length === 0) return page;
  // the cursors stay those of the unfiltered page, so paging never stalls on a filtered page
  return { ...page, items: await rejectFiltered(ctx, irreversible, page.items) };
}

/** Public-ish timelines show public statuses, and local-only ones to signed-in (local) users (inclusion.ts: the same rule for streams). */
function openVisibility(ctx: Ctx): Prisma.StatusWhereInput {
  return { visibility: { in: openVisibilities(!!ctx.viewer.account) } };
}

export const homeTimeline = operation({
  name: "timelines.home",
  input: feedInput,
  authorize: requireAccount,
  async run(ctx, input) {
    const viewerId = ctx.viewer.account!.id;
    const followed = (extra: Prisma.FollowWhereInput = {}): Prisma.StatusWhereInput => ({
      account: { followers: { some: { followerId: viewerId, state: "accept", ...extra } } },
    });
    return runTimeline(ctx, input, {
      filterContext: "home",
      where: [
        {
          OR: [
            { accountId: viewerId },
            { recipientIds: { has: viewerId } },
            { reblogOfId: null, ...followed() },
            { reblogOfId: { not: null }, ...followed({ showReblogs: true }) },
          ],
        },
        // members of the viewer's exclusive lists are read in those lists only (reference API);
        // the viewer is never a member of their own lists, so their own statuses stay
        { account: { listMemberships: { none: { list: { accountId: viewerId, exclusive: true } } } } },
      ],
    });
  },
});

export const publicTimeline = operation({
  name: "timelines.public",
  input: feedInput.extend({ instance: z.string().optional() }),
  async run(ctx, input) {
    const where: Prisma.StatusWhereInput[] = [openVisibility(ctx)];
    if (input.instance) where.push({ account: { domain: input.instance.trim().toLowerCase() } });
    return runTimeline(ctx, input, { filterContext: "public", where, reblogs: false });
  },
});

export const tagTimeline = operation({
  name: "timelines.tag",
  input: feedInput.extend({
    hashtag: z.string().min(1),
    any: array(z.string()).optional(),
    all: array(z.string()).optional(),
    none: array(z.string()).optional(),
  }),
  async run(ctx, input) {
    const any = [...new Set([input.hashtag, ...(input.any ?? [])].map(tagName).filter(Boolean))];
    const where: Prisma.StatusWhereInput[] = [openVisibility(ctx), { tags: { some: { tag: { name: { in: any } } } } }];
    for (const t of (input.all ?? []).map(tagName).filter(Boolean)) where.push({ tags: { some: { tag: { name: t } } } });
    const none = (input.none ?? []).map(tagName).filter(Boolean);
    if (none.length) where.push({ tags: { none: { tag: { name: { in: none } } } } });
    return runTimeline(ctx, input, { filterContext: "public", where, reblogs: false });
  },
});

export const bubbleTimeline = operation({
  name: "timelines.bubble",
  input: commonInput.extend({ reply_visibility: z.enum(["following", "self"]).optional() }),
  async run(ctx, input) {
    const hosts = ctx.config.get("instance", "local_bubble").map((h) => h.toLowerCase());
    const origin: Prisma.StatusWhereInput = hosts.length ? { OR: [{ local: true }, { account: { domain: { in: hosts } } }] } : { local: true };
    return runTimeline(ctx, input, { filterContext: "public", where: [openVisibility(ctx), origin], reblogs: false });
  },
});

export const accountStatuses = operation({
  name: "timelines.account",
  input: commonInput.extend({
    id: z.string(),
    pinned: bool().optional(),
    tagged: z.string().optional(),
    exclude_reblogs: bool().optional(),
    exclude_replies: bool().optional(),
  }),
  async run(ctx, input) {
    const account = await getAccount(ctx, input.id);
    const where: Prisma.StatusWhereInput[] = [{ accountId: account.id }];
    if (input.tagged) where.push({ tags: { some: { tag: { name: tagName(input.tagged) } } } });
    if (input.exclude_replies) where.push({ inReplyToId: null });
    if (input.pinned) {
      // pinned statuses come by pin date, newest first, in one page
      where.push({ pinnedAt: { not: null } }, visibleWhere(ctx));
      const items = await ctx.db.status.findMany({
        where: { AND: where },
        orderBy: [{ pinnedAt: "desc" }, { id: "desc" }],
        take: keyset(input).take,
      });
      return { items } as Page<Status>;
    }
    return runTimeline(ctx, input, { filterContext: "account", where, muteAuthor: false, threadMutes: false, reblogs: !input.exclude_reblogs });
  },
});
