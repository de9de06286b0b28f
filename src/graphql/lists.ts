// Lists over GraphQL: the viewer's lists, their members and the lists an account is on. The list's
// timeline is `listTimeline` (timelines.ts). Each field calls the operation its REST route calls.
import { accountLists, addListAccounts, createList, deleteList, getList, listAccounts, listLists, removeListAccounts, REPLIES_POLICIES, updateList } from "../domain/lists/lists.ops.ts";
import { builder } from "./builder.ts";
import { AccountType, opt } from "./paging.ts";
import { AccountConnection, accountPage } from "./relationships.ts";
import { accessOf } from "./access.ts";


const RepliesPolicy = builder.enumType("ListRepliesPolicy", { values: REPLIES_POLICIES });

const ListRef = builder.prismaObject("List", {
  fields: (t) => ({
    id: t.exposeID("id"),
    title: t.exposeString("title"),
    repliesPolicy: t.field({ type: RepliesPolicy, resolve: (l) => l.repliesPolicy as (typeof REPLIES_POLICIES)[number] }),
    exclusive: t.exposeBoolean("exclusive"),
  }),
});

builder.queryFields((t) => ({
  lists: t.field({ ...accessOf(listLists), type: [ListRef], resolve: (_r, _a, ctx) => listLists(ctx, {}) }),
  list: t.field({ ...accessOf(getList), type: ListRef, args: { id: t.arg.id({ required: true }) }, resolve: (_r, a, ctx) => getList(ctx, { id: String(a.id) }) }),
  listAccounts: t.connection(
    { ...accessOf(listAccounts), type: AccountType, args: { id: t.arg.id({ required: true }) }, resolve: (_r, a, ctx) => accountPage(a, (p) => listAccounts(ctx, { ...p, id: String(a.id) })) },
    AccountConnection,
  ),
  accountLists: t.field({
    ...accessOf(accountLists),
    type: [ListRef],
    description: "The viewer's lists that hold the account",
    args: { accountId: t.arg.id({ required: true }) },
    resolve: (_r, a, ctx) => accountLists(ctx, { id: String(a.accountId) }),
  }),
}));

builder.mutationFields((t) => ({
  createList: t.field({
    ...accessOf(createList),
    type: ListRef,
    args: { title: t.arg.string({ required: true }), repliesPolicy: t.arg({ type: RepliesPolicy }), exclusive: t.arg.boolean() },
    resolve: (_r, a, ctx) => createList(ctx, { title: a.title, replies_policy: opt(a.repliesPolicy), exclusive: opt(a.exclusive) }),
  }),
  updateList: t.field({
    ...accessOf(updateList),
    type: ListRef,
    args: { id: t.arg.id({ required: true }), title: t.arg.string(), repliesPolicy: t.arg({ type: RepliesPolicy }), exclusive: t.arg.boolean() },
    resolve: (_r, a, ctx) => updateList(ctx, { id: String(a.id), title: opt(a.title), replies_policy: opt(a.repliesPolicy), exclusive: opt(a.exclusive) }),
  }),
  deleteList: t.boolean({ ...accessOf(deleteList), args: { id: t.arg.id({ required: true }) }, resolve: async (_r, a, ctx) => (await deleteList(ctx, { id: String(a.id) }), true) }),
  addListAccounts: t.boolean({
    ...accessOf(addListAccounts),
    args: { id: t.arg.id({ required: true }), accountIds: t.arg.idList({ required: true }) },
    resolve: async (_r, a, ctx) => (await addListAccounts(ctx, { id: String(a.id), account_ids: a.accountIds.map(String) }), true),
  }),
  removeListAccounts: t.boolean({
    ...accessOf(removeListAccounts),
    args: { id: t.arg.id({ required: true }), accountIds: t.arg.idList({ required: true }) },
    resolve: async (_r, a, ctx) => (await removeListAccounts(ctx, { id: String(a.id), account_ids: a.accountIds.map(String) }), true),
  }),
}));
