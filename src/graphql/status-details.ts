// What REST serves about one status besides the status itself: its thread, its edit history and source,
// who favourited or reblogged it, its reactions with the accounts, its poll; and the viewer's bookmarks
// and favourites. Each field calls the operation its REST route calls; statuses and accounts render
// through the request's loaders.
import type { Status } from "../generated/prisma/client.ts";
import type { Page, PageInput } from "../domain/pagination.ts";
import { showPoll } from "../domain/polls/polls.ops.ts";
import { listReactions, type ReactionGroupWithAccounts } from "../domain/reactions/reactions.ops.ts";
import { favouritedBy, rebloggedBy } from "../domain/statuses/actions.ops.ts";
import { accountFavourites, listBookmarks, listFavourites } from "../domain/statuses/collections.ops.ts";
import { statusContext } from "../domain/statuses/context.ops.ts";
import { statusHistory, statusSource, type StatusVersion } from "../domain/statuses/edit.ops.ts";
import { listQuotes } from "../domain/statuses/quotes.ops.ts";
import { builder } from "./builder.ts";
import { AccountType, opt, relayConnection, StatusType, type RelayArgs } from "./paging.ts";
import { AccountConnection, accountPage } from "./relationships.ts";
import { MediaAttachment, Poll } from "./statuses.ts";
import { StatusConnection } from "./timelines.ts";
import { accessOf } from "./access.ts";

/** Statuses of the viewer's collections page by the bookmark's or favourite's row, which statuses do not carry. */
const statusPage = (args: RelayArgs, fetch: (p: PageInput) => Promise<Page<Status>>) => relayConnection(args, fetch, { cursorOf: (s) => s.id, floor: "0", itemCursors: false });

const StatusContext = builder.objectRef<{ ancestors: Status[]; descendants: Status[] }>("StatusContext").implement({
  fields: (t) => ({
    ancestors: t.field({ type: [StatusType], description: "oldest first, the root first", resolve: (c) => c.ancestors }),
    descendants: t.field({ type: [StatusType], description: "depth-first, each level oldest first", resolve: (c) => c.descendants }),
  }),
});

const StatusVersionRef = builder.objectRef<StatusVersion>("StatusVersion").implement({
  fields: (t) => ({
    content: t.exposeString("content"),
    spoilerText: t.exposeString("spoilerText"),
    sensitive: t.exposeBoolean("sensitive"),
    mediaAttachments: t.field({ type: [MediaAttachment], resolve: (v) => v.media }),
    createdAt: t.field({ type: "DateTime", resolve: (v) => v.createdAt }),
  }),
});

const StatusSourceRef = builder.objectRef<{ id: string; text: string; spoilerText: string; contentType: string }>("StatusSource").implement({
  fields: (t) => ({ id: t.exposeID("id"), text: t.exposeString("text"), spoilerText: t.exposeString("spoilerText"), contentType: t.exposeString("contentType") }),
});

const ReactionWithAccounts = builder.objectRef<ReactionGroupWithAccounts>("ReactionWithAccounts").implement({
  fields: (t) => ({
    name: t.exposeString("name"),
    count: t.exposeInt("count"),
    me: t.exposeBoolean("me"),
    url: t.string({ nullable: true, description: "the image of a custom emoji", resolve: (r) => r.url ?? null }),
    accounts: t.field({ type: [AccountType], resolve: (r) => r.accounts }),
  }),
});

builder.queryFields((t) => ({
  statusContext: t.field({ ...accessOf(statusContext), type: StatusContext, args: { id: t.arg.id({ required: true }) }, resolve: (_r, a, ctx) => statusContext(ctx, { id: String(a.id) }) }),
  statusHistory: t.field({
    ...accessOf(statusHistory),
    type: [StatusVersionRef],
    description: "Every version of the status, oldest first, the current one last",
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, a, ctx) => (await statusHistory(ctx, { id: String(a.id) })).versions,
  }),
  statusSource: t.field({ ...accessOf(statusSource), type: StatusSourceRef, args: { id: t.arg.id({ required: true }) }, resolve: (_r, a, ctx) => statusSource(ctx, { id: String(a.id) }) }),
  quotes: t.connection(
    { ...accessOf(listQuotes), type: StatusType, description: "The quotes of a status the viewer may see, newest first", args: { id: t.arg.id({ required: true }) }, resolve: (_r, a, ctx) => statusPage(a, (p) => listQuotes(ctx, { ...p, id: String(a.id) })) },
    StatusConnection,
  ),
  favouritedBy: t.connection(
    { ...accessOf(favouritedBy), type: AccountType, args: { id: t.arg.id({ required: true }) }, resolve: (_r, a, ctx) => accountPage(a, (p) => favouritedBy(ctx, { ...p, id: String(a.id) })) },
    AccountConnection,
  ),
  rebloggedBy: t.connection(
    { ...accessOf(rebloggedBy), type: AccountType, args: { id: t.arg.id({ required: true }) }, resolve: (_r, a, ctx) => accountPage(a, (p) => rebloggedBy(ctx, { ...p, id: String(a.id) })) },
    AccountConnection,
  ),
  statusReactions: t.field({
    ...accessOf(listReactions),
    type: [ReactionWithAccounts],
    description: "The status's reactions grouped by emoji (one emoji with `emoji`), with the accounts",
    args: { id: t.arg.id({ required: true }), emoji: t.arg.string(), withMuted: t.arg.boolean() },
    resolve: (_r, a, ctx) => listReactions(ctx, { id: String(a.id), emoji: opt(a.emoji), with_muted: opt(a.withMuted) }),
  }),
  poll: t.field({ ...accessOf(showPoll), type: Poll, args: { id: t.arg.id({ required: true }) }, resolve: (_r, a, ctx) => showPoll(ctx, { id: String(a.id) }) }),
  bookmarks: t.connection(
    {
      ...accessOf(listBookmarks),
      type: StatusType,
      args: { folderId: t.arg.id({ description: "only the bookmarks of this folder" }) },
      resolve: (_r, a, ctx) => statusPage(a, (p) => listBookmarks(ctx, { ...p, folder_id: a.folderId ? String(a.folderId) : undefined })),
    },
    StatusConnection,
  ),
  favourites: t.connection({ ...accessOf(listFavourites), type: StatusType, resolve: (_r, a, ctx) => statusPage(a, (p) => listFavourites(ctx, p)) }, StatusConnection),
  accountFavourites: t.connection(
    {
      ...accessOf(accountFavourites),
      type: StatusType,
      description: "An account's favourites, unless the account hides them",
      args: { id: t.arg.id({ required: true }) },
      resolve: (_r, a, ctx) => statusPage(a, (p) => accountFavourites(ctx, { ...p, id: String(a.id) })),
    },
    StatusConnection,
  ),
}));
