// The collections of local actors: outbox, followers, following, featured (pinned statuses) and featured
// tags. Lists are paged (a cursor is the last id of the previous page); every page costs a constant
// number of statements. Followers and following honour the family's hiding (Pleroma's UserView): a
// hidden list shows its `totalItems` only, and a hidden list whose count is hidden too shows neither.
// The service actors (instance, relay) have empty collections.
import type { Federation, RequestContext } from "@fedify/fedify";
import { Hashtag, type Recipient } from "@fedify/vocab";
import type { Prisma } from "../generated/prisma/client.ts";
import type { Services } from "../domain/context.ts";
import { localActorAccount } from "./actors.ts";
import { mayFetch, signedFetcher } from "./fetch-policy.ts";
import { registerObjects } from "./objects.ts";
import { renderAnnounce, renderCreate } from "./render/activities.ts";
import { loadStatusParts, renderStatusObject } from "./render/status.ts";
import { isServiceActor } from "./service-actors.ts";

export const OUTBOX_PATH = "/users/{identifier}/outbox";
export const FOLLOWERS_PATH = "/users/{identifier}/followers";
export const FOLLOWING_PATH = "/users/{identifier}/following";
export const FEATURED_PATH = "/users/{identifier}/collections/featured";
export const FEATURED_TAGS_PATH = "/users/{identifier}/collections/tags";

const PAGE_SIZE = 20;
/** The first page's cursor: pages run from the newest item down. */
const FIRST = "";

type Ctx = RequestContext<Services>;

const owner = (ctx: Ctx, identifier: string) => (isServiceActor(identifier) ? null : localActorAccount(ctx.data, identifier));

/** The next cursor after a page of `size + 1` rows (the extra one only tells there is more). */
function page<T extends { id: string }, I>(rows: T[], render: (row: T) => I) {
  const items = rows.slice(0, PAGE_SIZE);
  return { items: items.map(render), nextCursor: rows.length > PAGE_SIZE ? items.at(-1)!.id : null };
}
const before = (cursor: string) => (cursor === FIRST ? {} : { id: { lt: cursor } });

/** What the outbox lists: the account's public and unlisted posts, and its reblogs of public and unlisted posts. */
const outboxWhere = (accountId: string): Prisma.StatusWhereInput => ({
  accountId,
  local: true,
  visibility: { in: ["public", "unlisted"] },
  OR: [{ reblogOfId: null }, { reblogOf: { visibility: { in: ["public", "unlisted"] } } }],
});

// ---- followers / following ----------------------------------------------------------------------

type Side = "followers" | "following";
const HIDING = {
  followers: { list: "hideFollowers", count: "hideFollowersCount" },
  following: { list: "hideFollows", count: "hideFollowsCount" },
} as const;

const followWhere = (side: Side, accountId: string): Prisma.FollowWhereInput =>
  side === "followers" ? { followingId: accountId, state: "accept" } : { followerId: accountId, state: "accept" };

/**
 * Whether a page of a hidden list may still show its items: only Fedify's followers synchronization
 * (`?base-url=` of the asking server, FEP-8fcf), to a fetch signed by an actor of that server: it
 * learns nothing it does not know, and an empty list would make it drop its users' follows.
 */
async function mayListHidden(ctx: Ctx, filter: URL | undefined): Promise<boolean> {
  if (!filter) return false;
  const signer = await signedFetcher(ctx);
  return !!signer?.id && signer.id.origin === filter.origin;
}

export function registerCollections(federation: Federation<Services>) {
  // the statuses and activities the outbox and featured collections name are served from here too
  registerObjects(federation);

  federation
    .setOutboxDispatcher(OUTBOX_PATH, async (ctx, identifier, cursor) => {
      if (isServiceActor(identifier)) return { items: [] };
      const account = await localActorAccount(ctx.data, identifier);
      if (!account) return null;
      if (cursor === null) return null; // always paged (setFirstCursor)
      const rows = await ctx.data.db.status.findMany({
        where: { ...outboxWhere(account.id), ...before(cursor) },
        select: { id: true, uri: true, visibility: true, createdAt: true, reblogOf: { select: { uri: true, account: { select: { apId: true } } } } },
        orderBy: { id: "desc" },
        take: PAGE_SIZE + 1,
      });
      const parts = await loadStatusParts(ctx.data.db, rows.slice(0, PAGE_SIZE).flatMap((r) => (r.reblogOf ? [] : [r.id])));
      const base = ctx.data.settings.baseUrl;
      return page(rows, (r) => (r.reblogOf ? renderAnnounce(r, account, r.reblogOf.uri, r.reblogOf.account.apId) : renderCreate(parts.get(r.id)!, base)));
    })
    .setFirstCursor(async (ctx, identifier) => (isServiceActor(identifier) ? null : FIRST))
    .setCounter(async (ctx, identifier) => {
      const account = await owner(ctx, identifier);
      if (!account) return 0;
      return ctx.data.db.status.count({ where: outboxWhere(account.id) });
    })
    .authorize((ctx) => mayFetch(ctx));

  // followers: pages of actor ids over HTTP; one-shot (cursor null) for Fedify's delivery to "followers",
  // which needs the remote followers' inboxes (local followers get nothing delivered)
  federation
    .setFollowersDispatcher(FOLLOWERS_PATH, async (ctx, identifier, cursor, filter) => {
      if (isServiceActor(identifier)) return { items: [] };
      const account = await localActorAccount(ctx.data, identifier);
      if (!account) return null;
      const server = filter ? { apId: { startsWith: filter.href } } : {};
      if (cursor === null) {
        const rows = await ctx.data.db.follow.findMany({
          where: { ...followWhere("followers", account.id), follower: { local: false, inbox: { not: null }, ...server } },
          select: { follower: { select: { apId: true, inbox: true, sharedInbox: true } } },
        });
        return { items: rows.map(({ follower: f }): Recipient => ({ id: new URL(f.apId), inboxId: new URL(f.inbox!), endpoints: { sharedInbox: f.sharedInbox ? new URL(f.sharedInbox) : null } })) };
      }
      if (account.hideFollowers && !(await mayListHidden(ctx as Ctx, filter))) return { items: [] };
      return followersPage(ctx as Ctx, account.id, cursor, server);
    })
    .setFirstCursor(async () => FIRST)
    .setCounter((ctx, identifier) => visibleCount(ctx, identifier, "followers"))
    .authorize((ctx) => mayFetch(ctx));

  federation
    .setFollowingDispatcher(FOLLOWING_PATH, async (ctx, identifier, cursor) => {
      if (isServiceActor(identifier)) return { items: [] };
      const account = await localActorAccount(ctx.data, identifier);
      if (!account) return null;
      if (cursor === null) return null; // always paged (setFirstCursor)
      if (account.hideFollows) return { items: [] };
      return followPage(ctx, "following", account.id, cursor, {});
    })
    .setFirstCursor(async () => FIRST)
    .setCounter((ctx, identifier) => visibleCount(ctx, identifier, "following"))
    .authorize((ctx) => mayFetch(ctx));

  // featured: the pinned statuses as objects, newest pin first (few: max_pinned_statuses)
  federation
    .setFeaturedDispatcher(FEATURED_PATH, async (ctx, identifier) => {
      if (isServiceActor(identifier)) return { items: [] };
      const account = await localActorAccount(ctx.data, identifier);
      if (!account) return null;
      const rows = await ctx.data.db.status.findMany({
        where: { ...outboxWhere(account.id), reblogOfId: null, pinnedAt: { not: null } },
        select: { id: true },
        orderBy: { pinnedAt: "desc" },
        take: 100,
      });
      const parts = await loadStatusParts(ctx.data.db, rows.map((r) => r.id));
      return { items: rows.flatMap((r) => (parts.has(r.id) ? [renderStatusObject(parts.get(r.id)!, ctx.data.settings.baseUrl)] : [])) };
    })
    .setCounter(async (ctx, identifier) => {
      const account = await owner(ctx, identifier);
      return account ? ctx.data.db.status.count({ where: { ...outboxWhere(account.id), reblogOfId: null, pinnedAt: { not: null } } }) : 0;
    })
    .authorize((ctx) => mayFetch(ctx));

  // featured tags: the hashtags the account features on its profile (the service actors feature none)
  federation
    .setFeaturedTagsDispatcher(FEATURED_TAGS_PATH, async (ctx, identifier) => {
      if (isServiceActor(identifier)) return { items: [] };
      const account = await localActorAccount(ctx.data, identifier);
      if (!account) return null;
      const featured = await ctx.data.db.featuredTag.findMany({ where: { accountId: account.id }, include: { tag: true }, orderBy: { id: "asc" } });
      const base = ctx.data.settings.baseUrl;
      return { items: featured.map((f) => new Hashtag({ name: `#${f.tag.name}`, href: new URL(`${base}/tag/${encodeURIComponent(f.tag.name)}`) })) };
    })
    .setCounter(async (ctx, identifier) => {
      const account = isServiceActor(identifier) ? null : await localActorAccount(ctx.data, identifier);
      return account ? ctx.data.db.featuredTag.count({ where: { accountId: account.id } }) : 0;
    })
    .authorize((ctx) => mayFetch(ctx));
}

async function followPage(ctx: Ctx, side: Side, accountId: string, cursor: string, other: Prisma.AccountWhereInput) {
  const rows = await ctx.data.db.follow.findMany({
    where: { ...followWhere(side, accountId), ...before(cursor), ...(side === "followers" ? { follower: other } : { following: other }) },
    select: { id: true, follower: { select: { apId: true } }, following: { select: { apId: true } } },
    orderBy: { id: "desc" },
    take: PAGE_SIZE + 1,
  });
  return page(rows, (f) => new URL(side === "followers" ? f.follower.apId : f.following.apId));
}

/** Fedify lists followers as recipients; over HTTP only their ids are written. */
async function followersPage(ctx: Ctx, accountId: string, cursor: string, other: Prisma.AccountWhereInput) {
  const { items, nextCursor } = await followPage(ctx, "followers", accountId, cursor, other);
  return { items: items.map((id): Recipient => ({ id, inboxId: null })), nextCursor };
}

/** totalItems: shown unless both the list and its count are hidden (then null: no totalItems). */
async function visibleCount(ctx: Ctx, identifier: string, side: Side): Promise<number | null> {
  const account = await owner(ctx, identifier);
  if (!account) return 0;
  if (account[HIDING[side].list] && account[HIDING[side].count]) return null;
  return ctx.data.db.follow.count({ where: followWhere(side, account.id) });
}

