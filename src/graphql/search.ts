// Search over GraphQL: accounts, statuses and hashtags through the operation REST's v1 and v2 call.
import type { Tag } from "../generated/prisma/client.ts";
import { search } from "../domain/search/search.ops.ts";
import { builder } from "./builder.ts";
import { AccountType, opt, StatusType } from "./paging.ts";
import { accessOf } from "./access.ts";

const SearchType = builder.enumType("SearchType", { values: ["accounts", "statuses", "hashtags"] as const });

export const Hashtag = builder.objectRef<Tag>("Hashtag").implement({
  fields: (t) => ({
    name: t.exposeString("name"),
    url: t.string({ resolve: (tag, _a, ctx) => `${ctx.settings.baseUrl}/tag/${encodeURIComponent(tag.name)}` }),
  }),
});

const SearchResultRef = builder.objectRef<{ accounts: unknown[]; statuses: unknown[]; hashtags: Tag[] }>("SearchResult").implement({
  fields: (t) => ({
    accounts: t.field({ type: [AccountType], resolve: (r) => r.accounts as never }),
    statuses: t.field({ type: [StatusType], resolve: (r) => r.statuses as never }),
    hashtags: t.field({ type: [Hashtag], resolve: (r) => r.hashtags }),
  }),
});

builder.queryFields((t) => ({
  search: t.field({
    ...accessOf(search),
    type: SearchResultRef,
    description: "Accounts, statuses and hashtags matching `q` (offset paging, as REST)",
    args: {
      q: t.arg.string({ required: true }),
      type: t.arg({ type: SearchType }),
      limit: t.arg.int(),
      offset: t.arg.int(),
      following: t.arg.boolean({ description: "only followed accounts, or statuses of followed authors" }),
      accountId: t.arg.id({ description: "only statuses of this account" }),
      maxId: t.arg.id(),
      minId: t.arg.id(),
      resolve: t.arg.boolean({ description: "look a handle or URL up remotely (signed-in viewers)" }),
      excludeUnreviewed: t.arg.boolean(),
    },
    resolve: (_r, a, ctx) =>
      search(ctx, {
        q: a.q,
        type: opt(a.type),
        limit: opt(a.limit),
        offset: opt(a.offset),
        following: opt(a.following),
        account_id: a.accountId ? String(a.accountId) : undefined,
        max_id: a.maxId ? String(a.maxId) : undefined,
        min_id: a.minId ? String(a.minId) : undefined,
        resolve: opt(a.resolve),
        exclude_unreviewed: opt(a.excludeUnreviewed),
      }),
  }),
}));
