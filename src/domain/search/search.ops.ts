// Search over accounts, statuses and hashtags (the reference API's /api/v1/search and /api/v2/search).
// Statuses are found by PostgreSQL full-text search (`websearch_to_tsquery` over the generated
// `search_vector`: whole words, "quoted phrases", -exclusions), and always pass through `visibleWhere`: anonymous viewers find public and
// unlisted statuses only, signed-in ones what they may see anyway.
import { z } from "zod";
import { likeLiteral } from "../../db/like.ts";
import { Prisma } from "../../generated/prisma/client.ts";
import type { Account, Status, Tag } from "../../generated/prisma/client.ts";
import { searchAccounts } from "../accounts/accounts.read.ts";
import type { Ctx } from "../context.ts";
import { isHttpUrl, parseHandle, type Resolved } from "../federation/port.ts";
import { bool, int } from "../inputs.ts";
import { operation } from "../operation.ts";
import { filterVisible } from "../statuses/statuses.read.ts";
import { visibleWhere } from "../statuses/visibility.ts";

export const searchInput = z.object({
  q: z.string().default(""),
  type: z.enum(["accounts", "statuses", "hashtags"]).optional(),
  limit: int().optional(),
  offset: int().optional(),
  /** only accounts the viewer follows (accounts), only statuses of followed authors (statuses) */
  following: bool().optional(),
  /** only statuses of this account */
  account_id: z.string().optional(),
  /** statuses older than / newer than this id */
  max_id: z.string().optional(),
  min_id: z.string().optional(),
  /** look a handle or URL up remotely when not stored here (signed-in viewers only) */
  resolve: bool().optional(),
  exclude_unreviewed: bool().optional(),
});

export interface SearchResult {
  accounts: Account[];
  statuses: Status[];
  hashtags: Tag[];
}

/** Prisma's contains/startsWith pass LIKE wildcards through; PostgreSQL's default LIKE escape is the backslash. */

export const search = operation({
  name: "search",
  access: { scopes: ["read:search"], optional: true },
  input: searchInput,
  async run(ctx, input): Promise<SearchResult> {
    const q = input.q.trim();
    const limit = Math.min(Math.max(input.limit ?? 20, 1), 40);
    const offset = Math.max(input.offset ?? 0, 0);
    const wants = (t: NonNullable<typeof input.type>) => !input.type || input.type === t;
    if (!q) return { accounts: [], statuses: [], hashtags: [] };
    // a URL names one account or status: stored here, or (resolve) fetched and stored now
    const byUrl = isHttpUrl(q) && !offset ? await findByUrl(ctx, q, input.resolve ?? false) : null;
    const [found, statusesFound, hashtags] = await Promise.all([
      wants("accounts") && !input.account_id ? searchAccounts(ctx, { q, limit, offset, following: input.following ?? false, resolve: (input.resolve ?? false) && !!parseHandle(q) }) : Promise.resolve([]),
      wants("statuses") ? searchStatuses(ctx, q, { limit, offset, following: input.following ?? false, accountId: input.account_id, maxId: input.max_id, minId: input.min_id }) : Promise.resolve([]),
      wants("hashtags") && !input.account_id ? searchHashtags(ctx, q, limit, offset) : Promise.resolve([]),
    ]);
    let accounts = found;
    let statuses = statusesFound;
    if (byUrl && "account" in byUrl && wants("accounts") && !input.account_id && !byUrl.account.deactivated) {
      accounts = [byUrl.account, ...found.filter((a) => a.id !== byUrl.account.id)].slice(0, limit);
    }
    if (byUrl && "status" in byUrl && wants("statuses") && !input.account_id && !statusesFound.some((s) => s.id === byUrl.status.id)) {
      statuses = [...(await filterVisible(ctx, [byUrl.status])), ...statusesFound].slice(0, limit);
    }
    return { accounts, statuses, hashtags };
  },
});

/**
 * The account (by actor id or profile URL) or status a URL names. With `resolve`, something not stored
 * yet is fetched and stored, for signed-in viewers of a federating instance only (the family's
 * `limit_to_local_content: :unauthenticated`: anonymous searches never make the server fetch).
 */
async function findByUrl(ctx: Ctx, url: string, resolve: boolean): Promise<Resolved | null> {
  const account = await ctx.db.account.findFirst({ where: { OR: [{ apId: url }, { url }] } });
  if (account) return { account };
  if (!resolve || !ctx.viewer.account || !ctx.federation || !ctx.config.get("instance", "federating")) return null;
  return ctx.federation.resolveObject(ctx, url);
}

/** Candidate ids fetched per round: the GIN index finds matches newest first, `visibleWhere` then filters them. */
const CANDIDATES = 200;
const ROUNDS_MAX = 10;

async function searchStatuses(ctx: Ctx, q: string, opts: { limit: number; offset: number; following: boolean; accountId?: string; maxId?: string; minId?: string }): Promise<Status[]> {
  const and: Prisma.StatusWhereInput[] = [visibleWhere(ctx)];
  if (opts.accountId) and.push({ accountId: opts.accountId });
  const viewerId = ctx.viewer.account?.id;
  if (opts.following && viewerId) and.push({ account: { followers: { some: { followerId: viewerId, state: "accept" } } } });
  // a status's own URL or ActivityPub id finds it too
  if (/^https?:\/\//.test(q)) {
    const byUrl = await ctx.db.status.findMany({ where: { AND: [...and, { OR: [{ uri: q }, { url: q }] }] }, take: 1 });
    if (byUrl.length) return opts.offset ? [] : byUrl;
  }
  const wanted = opts.offset + opts.limit;
  const found: Status[] = [];
  let below = opts.maxId;
  for (let round = 0; round < ROUNDS_MAX && found.length < wanted; round++) {
    const candidates = await ctx.db.$queryRaw<{ id: string }[]>`
      SELECT id FROM statuses
      WHERE search_vector @@ websearch_to_tsquery('simple', ${q}) AND reblog_of_id IS NULL
        ${below ? Prisma.sql`AND id < ${below}` : Prisma.empty}
        ${opts.minId ? Prisma.sql`AND id > ${opts.minId}` : Prisma.empty}
      ORDER BY id DESC LIMIT ${CANDIDATES}`;
    if (!candidates.length) break;
    const ids = candidates.map((c) => c.id);
    // only the rows still wanted: the candidates are newest first, and each visible one is a whole status row
    found.push(...(await ctx.db.status.findMany({ where: { AND: [...and, { id: { in: ids } }] }, orderBy: { id: "desc" }, take: wanted - found.length })));
    if (ids.length < CANDIDATES) break;
    below = ids.at(-1);
  }
  return found.slice(opts.offset, wanted);
}

async function searchHashtags(ctx: Ctx, q: string, limit: number, offset: number): Promise<Tag[]> {
  const name = q.replace(/^#/, "").trim().toLowerCase();
  if (!name || /\s/.test(name)) return [];
  const rows = await ctx.db.tag.findMany({ where: { name: { startsWith: likeLiteral(name) } }, orderBy: { name: "asc" }, take: limit, skip: offset });
  return rows;
}
