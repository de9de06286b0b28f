// Relay connections over the domain's keyset pages (newest first, as REST pages them): `first`/`after`
// become `limit`/`max_id` (and `before` a `since_id` bound), `last`/`before` become `limit`/`min_id`.
// The operation keeps its own limits (20 by default, at most 40) and its filters; this only translates.
import type { ObjectRef } from "@pothos/core";
import { getRefFromModel } from "@pothos/plugin-prisma";
import type { Account, Status } from "../generated/prisma/client.ts";
import { Invalid } from "../kernel/errors.ts";
import type { Page, PageInput } from "../domain/pagination.ts";
import { builder } from "./builder.ts";

type Types = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;

/** The `Status` and `Account` types src/graphql/statuses.ts and accounts.ts declare, by their model name. */
export const StatusType = getRefFromModel("Status", builder) as unknown as ObjectRef<Types, Status>;
export const AccountType = getRefFromModel("Account", builder) as unknown as ObjectRef<Types, Account>;

export interface RelayArgs {
  first?: number | null;
  last?: number | null;
  after?: string | null;
  before?: string | null;
}

export interface Connection<T> {
  edges: { cursor: string; node: T }[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
}

export interface PagingOptions<T> {
  cursorOf: (item: T) => string;
  /** a cursor older than every real one, so `last` without `before` starts from the oldest item */
  floor: string;
  /** false for lists the operation answers in one unpaged piece (pinned statuses) */
  pageable?: boolean;
  /**
   * false when the operation pages by a cursor the items do not carry (account lists paged by the
   * follow or block row): edges then carry the item's id, and only pageInfo's cursors page.
   */
  itemCursors?: boolean;
}

/** GraphQL hands explicit nulls; operations want absent keys. */
export const opt = <T>(v: T | null | undefined): T | undefined => v ?? undefined;

/**
 * One page of `fetch` as a Relay connection. The start and end cursors are the operation's own
 * (those of the unfiltered page, as REST's Link header), so paging never stalls on statuses an
 * irreversible filter hid. hasNextPage / hasPreviousPage ask the operation for one more item past
 * each end, unless the page is known to start at the newest or end at the oldest item, or (forward
 * with `first`) the page itself brought one item more than asked.
 */
export async function relayConnection<T>(args: RelayArgs, fetch: (page: PageInput) => Promise<Page<T>>, opts: PagingOptions<T>): Promise<Connection<T>> {
  if (args.first != null && args.last != null) throw Invalid("Give first or last, not both", { last: "is not allowed with first" });
  if ((args.first ?? 0) < 0 || (args.last ?? 0) < 0) throw Invalid("first and last must not be negative", { first: "must not be negative" });
  const after = opt(args.after);
  const before = opt(args.before);
  const backward = args.last != null;
  // forward with `first`: one item more than asked, so that a page followed by more items needs no second
  // query for hasNextPage (a second timeline query doubled GraphQL's cost of a home page)
  const first = !backward && opts.pageable !== false && opts.itemCursors !== false && args.first != null && args.first > 0 ? args.first : null;
  const fetched = backward
    ? await fetch({ limit: args.last!, min_id: before ?? opts.floor, max_id: after })
    : await fetch({ limit: first !== null ? first + 1 : opt(args.first), max_id: after, since_id: before });
  // more items than asked prove a next page; the page then ends at the last item kept
  const more = first !== null && fetched.items.length > first;
  const page = more ? { items: fetched.items.slice(0, first), first: fetched.first, last: opts.cursorOf(fetched.items[first - 1]) } : fetched;
  const edges = page.items.map((node) => ({ cursor: opts.cursorOf(node), node }));
  const startCursor = page.first ?? edges[0]?.cursor ?? null;
  const endCursor = page.last ?? edges.at(-1)?.cursor ?? null;
  if (opts.pageable === false) return { edges, pageInfo: { hasNextPage: false, hasPreviousPage: false, startCursor, endCursor } };

  const exists = async (probe: PageInput) => {
    const p = await fetch({ ...probe, limit: 1 });
    return p.items.length > 0 || p.last !== undefined; // a filtered-out item still means there is more
  };
  const newerFrom = !backward && !after ? undefined : (startCursor ?? after); // no `after`: the page starts at the newest
  const olderFrom = backward && !before ? undefined : (endCursor ?? (backward ? before : undefined)); // `last` alone ends at the oldest
  const [hasPreviousPage, hasNextPage] = await Promise.all([
    newerFrom ? exists({ since_id: newerFrom }) : false,
    more || (olderFrom ? exists({ max_id: olderFrom }) : false),
  ]);
  return { edges, pageInfo: { hasNextPage, hasPreviousPage, startCursor, endCursor } };
}
