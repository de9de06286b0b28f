// Search over accounts, statuses and hashtags (the reference API's /api/v1/search and /api/v2/search).
// Statuses match when every word of the query occurs (case-insensitively) in their source, content
// or content warning, and always pass through `visibleWhere`: anonymous viewers find public and
// unlisted statuses only, signed-in ones what they may see anyway.
import { z } from "zod";
import { likeLiteral } from "../../db/like.ts";
import type { Account, Prisma, Status, Tag } from "../../generated/prisma/client.ts";
import { searchAccounts } from "../accounts/accounts.read.ts";
import type { Ctx } from "../context.ts";
import { bool, int } from "../inputs.ts";
import { operation } from "../operation.ts";
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
  /** remote lookups arrive with federation; accepted and ignored */
  resolve: bool().optional(),
  exclude_unreviewed: bool().optional(),
});

export interface SearchResult {
  accounts: Account[];
  statuses: Status[];
  hashtags: Tag[];
}

const WORDS_MAX = 10;

/** Prisma's contains/startsWith pass LIKE wildcards through; PostgreSQL's default LIKE escape is the backslash. */

export const search = operation({
  name: "search",
  input: searchInput,
  async run(ctx, input): Promise<SearchResult> {
    const q = input.q.trim();
    const limit = Math.min(Math.max(input.limit ?? 20, 1), 40);
    const offset = Math.max(input.offset ?? 0, 0);
    const wants = (t: NonNullable<typeof input.type>) => !input.type || input.type === t;
    if (!q) return { accounts: [], statuses: [], hashtags: [] };
    const [accounts, statuses, hashtags] = await Promise.all([
      wants("accounts") && !input.account_id ? searchAccounts(ctx, { q, limit, offset, following: input.following ?? false }) : Promise.resolve([]),
      wants("statuses") ? searchStatuses(ctx, q, { limit, offset, following: input.following ?? false, accountId: input.account_id, maxId: input.max_id, minId: input.min_id }) : Promise.resolve([]),
      wants("hashtags") && !input.account_id ? searchHashtags(ctx, q, limit, offset) : Promise.resolve([]),
    ]);
    return { accounts, statuses, hashtags };
  },
});

async function searchStatuses(ctx: Ctx, q: string, opts: { limit: number; offset: number; following: boolean; accountId?: string; maxId?: string; minId?: string }): Promise<Status[]> {
  const words = q.split(/\s+/).filter(Boolean).slice(0, WORDS_MAX);
  const text: Prisma.StatusWhereInput[] = words.map(likeLiteral).map((w) => ({
    OR: [{ source: { contains: w, mode: "insensitive" } }, { content: { contains: w, mode: "insensitive" } }, { spoilerText: { contains: w, mode: "insensitive" } }],
  }));
  // a status's own URL or ActivityPub id finds it too
  const match: Prisma.StatusWhereInput = /^https?:\/\//.test(q) ? { OR: [{ AND: text }, { uri: q }, { url: q }] } : { AND: text };
  const and: Prisma.StatusWhereInput[] = [visibleWhere(ctx), { reblogOfId: null }, match];
  if (opts.accountId) and.push({ accountId: opts.accountId });
  if (opts.maxId) and.push({ id: { lt: opts.maxId } });
  if (opts.minId) and.push({ id: { gt: opts.minId } });
  const viewerId = ctx.viewer.account?.id;
  if (opts.following && viewerId) and.push({ account: { followers: { some: { followerId: viewerId, state: "accept" } } } });
  return ctx.db.status.findMany({ where: { AND: and }, orderBy: { id: "desc" }, take: opts.limit, skip: opts.offset });
}

async function searchHashtags(ctx: Ctx, q: string, limit: number, offset: number): Promise<Tag[]> {
  const name = q.replace(/^#/, "").trim().toLowerCase();
  if (!name || /\s/.test(name)) return [];
  const rows = await ctx.db.tag.findMany({ where: { name: { startsWith: likeLiteral(name) } }, orderBy: { name: "asc" }, take: limit, skip: offset });
  return rows;
}
