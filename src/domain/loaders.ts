// Per-request batch loaders: rendering a list costs a constant number of queries.
import DataLoader from "dataloader";
import type { Account, AccountRelationshipSeveranceEvent, AccountWarning, RelationshipSeveranceEvent, Status } from "../generated/prisma/client.ts";
import { loadAccountCounts, type AccountCounts } from "./accounts/account-counts.ts";
import type { Ctx } from "./context.ts";
import { loadRelationships, type RelationshipState } from "./relationships/relationships.read.ts";
import { loadStatusData, type StatusData } from "./statuses/status-data.ts";

export type Loaders = ReturnType<typeof createLoaders>;

function byId<T extends { id: K }, K>(keys: readonly K[], rows: T[]): (T | null)[] {
  const map = new Map(rows.map((r) => [r.id, r]));
  return keys.map((k) => map.get(k) ?? null);
}

/**
 * The rows found for `keys` (unknown ones left out), in the keys' order. Unlike DataLoader's
 * `loadMany`, a failed batch throws instead of answering Error values.
 */
export async function loadFound<K, V>(loader: DataLoader<K, V | null, unknown>, keys: readonly K[]): Promise<V[]> {
  if (keys.length === 0) return [];
  const rows = await loader.loadMany(keys);
  for (const r of rows) if (r instanceof Error) throw r;
  return rows.filter((r): r is V => r !== null);
}

export function createLoaders(ctx: Ctx) {
  const account = new DataLoader<string, Account | null>(async (ids) => byId(ids, await ctx.db.account.findMany({ where: { id: { in: [...ids] } } })));
  /** everything a status renders with (counts, viewer flags, media, poll, …), batched per request */
  // what a batch loaded, by status id, readable without a promise: a GraphQL page resolves some fifteen
  // fields of each of its statuses from it, and after the first batch each of them can answer at once
  // (a promise per field and status was a fifth of GraphQL's CPU on a home page, docs/performance.md)
  const loadedStatusData = new Map<string, StatusData>();
  const statusData: DataLoader<Status, StatusData, string> = new DataLoader<Status, StatusData, string>(
    async (statuses) => {
      const data = await loadStatusData(ctx, [...statuses]);
      for (const s of data.statuses.values()) loadedStatusData.set(s.id, data); // the batch's statuses are among them
      // the same statement brought the reblogged originals' data and every author: a GraphQL page asks
      // for them next (a reblog's fields, `account`), and would otherwise pay one more batch for each
      for (const s of data.statuses.values()) statusData.prime(s, data);
      for (const a of data.accounts.values()) account.prime(a.id, a);
      for (const [id, counts] of data.accountCounts) {
        accountCounts.prime(id, counts);
        loadedAccountCounts.set(id, counts);
      }
      return statuses.map(() => data);
    },
    { cacheKeyFn: (s) => s.id },
  );
  const loadedAccountCounts = new Map<string, AccountCounts>();
  const accountCounts = new DataLoader<string, AccountCounts>(async (ids) => {
    const counts = await loadAccountCounts(ctx, ids);
    for (const [id, c] of counts) loadedAccountCounts.set(id, c);
    return ids.map((id) => counts.get(id)!);
  });
  return {
    account,
    /** moderation_warning notifications' warnings */
    accountWarning: new DataLoader<string, AccountWarning | null>(async (ids) => byId(ids, await ctx.db.accountWarning.findMany({ where: { id: { in: [...ids] } } }))),
    /** severed_relationships notifications' events (the account's share, with the event) */
    severanceEvent: new DataLoader<string, (AccountRelationshipSeveranceEvent & { event: RelationshipSeveranceEvent }) | null>(async (ids) =>
      byId(ids, await ctx.db.accountRelationshipSeveranceEvent.findMany({ where: { id: { in: [...ids] } }, include: { event: true } })),
    ),
    accountCounts,
    /** the viewer's relationship to each account (null when anonymous) */
    relationship: new DataLoader<string, RelationshipState | null>(async (ids) => {
      const viewer = ctx.viewer.account;
      if (!viewer) return ids.map(() => null);
      const targets = (await account.loadMany(ids)).filter((a): a is Account => !!a && !(a instanceof Error));
      const relationships = await loadRelationships(ctx, viewer.id, targets);
      return ids.map((id) => relationships.get(id) ?? null);
    }),
    /** an account's counts, at once when this request loaded them (with a page's status data, mostly), else through `accountCounts` */
    accountCountsOf: (id: string): AccountCounts | Promise<AccountCounts> => loadedAccountCounts.get(id) ?? accountCounts.load(id),
    statusData,
    /** the status's data, at once when a batch of this request loaded it, else through `statusData` */
    statusDataOf: (s: Status): StatusData | Promise<StatusData> => loadedStatusData.get(s.id) ?? statusData.load(s),
    /** statuses by id, as stored (no visibility check: callers that show them to a reader check it, or are staff) */
    status: new DataLoader<string, Status | null>(async (ids) => byId(ids, await ctx.db.status.findMany({ where: { id: { in: [...ids] } } }))),
  };
}
