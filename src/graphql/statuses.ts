// Statuses, media and polls over GraphQL; resolvers call the operations REST calls, and every
// per-status field reads the request's batched status data (one load per list, whatever its length).
import { completeValue } from "@pothos/core";
import type { Account, Status } from "../generated/prisma/client.ts";
import type { Ctx } from "../domain/context.ts";
import type { AnyOperation } from "../domain/operation.ts";
import { votePoll } from "../domain/polls/polls.ops.ts";
import { addReaction, removeReaction } from "../domain/reactions/reactions.ops.ts";
import {
  bookmarkStatus,
  favouriteStatus,
  muteThread,
  pinStatus,
  reblogStatus,
  unbookmarkStatus,
  unfavouriteStatus,
  unmuteThread,
  unpinStatus,
  unreblogStatus,
} from "../domain/statuses/actions.ops.ts";
import { editStatus } from "../domain/statuses/edit.ops.ts";
import { postStatus, deleteStatus } from "../domain/statuses/statuses.ops.ts";
import { showStatus, showStatuses } from "../domain/statuses/statuses.read.ts";
import type { PollData, StatusData } from "../domain/statuses/status-data.ts";
import { builder } from "./builder.ts";
import { proxiedUrl } from "../domain/media/proxy-url.ts";
import { accessOf } from "./access.ts";
import { AccountType, StatusType } from "./paging.ts";

const StatusVisibility = builder.enumType("StatusVisibility", { values: ["public", "unlisted", "private", "direct", "local", "list"] as const });

export const MediaAttachment = builder.prismaObject("MediaAttachment", {
  fields: (t) => ({
    id: t.exposeID("id"),
    type: t.exposeString("type"),
    // a remote file through the media proxy when it is on, as REST renders it
    url: t.string({ resolve: (m, _args, ctx) => proxiedUrl(ctx, m.url) }),
    remoteUrl: t.exposeString("remoteUrl", { nullable: true }),
    mimeType: t.exposeString("mimeType"),
    description: t.exposeString("description", { nullable: true }),
  }),
});

const PollOption = builder.objectRef<{ title: string; votesCount: number | null }>("PollOption").implement({
  fields: (t) => ({ title: t.exposeString("title"), votesCount: t.exposeInt("votesCount", { nullable: true }) }),
});

export const Poll = builder.objectRef<PollData>("Poll").implement({
  fields: (t) => ({
    id: t.id({ resolve: (p) => p.poll.id }),
    expiresAt: t.field({ type: "DateTime", nullable: true, resolve: (p) => p.poll.expiresAt }),
    expired: t.boolean({ resolve: (p, _a, ctx) => !!p.poll.closedAt || (!!p.poll.expiresAt && p.poll.expiresAt <= ctx.clock()) }),
    multiple: t.boolean({ resolve: (p) => p.poll.multiple }),
    votersCount: t.int({ nullable: true, resolve: (p) => (p.poll.hideTotals && !p.poll.closedAt ? null : p.votersCount) }),
    options: t.field({
      type: [PollOption],
      resolve: (p) => p.poll.options.map((title, i) => ({ title, votesCount: p.poll.hideTotals && !p.poll.closedAt ? null : p.votes[i] })),
    }),
    ownVotes: t.intList({ resolve: (p) => p.ownVotes ?? [] }),
  }),
});

export const ReactionGroup = builder.objectRef<{ name: string; count: number; me: boolean; accountIds: string[] }>("ReactionGroup").implement({
  fields: (t) => ({ name: t.exposeString("name"), count: t.exposeInt("count"), me: t.exposeBoolean("me"), accountIds: t.exposeIDList("accountIds") }),
});

/** `pick` of the status's batched data: at once when the request's batch has it (most fields), else when it comes. */
const fromData = <T>(s: Status, ctx: Ctx, pick: (d: StatusData) => T) => completeValue(ctx.loaders.statusDataOf(s), pick);

const StatusRef = builder.prismaObject("Status", {
  fields: (t) => ({
    id: t.exposeID("id"),
    uri: t.exposeString("uri"),
    url: t.exposeString("url", { nullable: true }),
    content: t.exposeString("content"),
    spoilerText: t.exposeString("spoilerText"),
    sensitive: t.exposeBoolean("sensitive"),
    visibility: t.field({ type: StatusVisibility, resolve: (s) => s.visibility }),
    language: t.exposeString("language", { nullable: true }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    editedAt: t.expose("editedAt", { type: "DateTime", nullable: true }),
    inReplyToId: t.exposeID("inReplyToId", { nullable: true }),
    // the author comes with the status's data (and its counts prime the accountCounts loader): asked for
    // separately, it cost a statement of its own and its counts one more. Plain fields, not `prismaField`s:
    // nothing here is a Prisma query to plan, and planning one per status was a tenth of a page's CPU
    account: t.field({
      type: AccountType,
      resolve: (s, _a, ctx) => fromData(s, ctx, (d): Account | Promise<Account> => d.accounts.get(s.accountId) ?? ctx.loaders.account.load(s.accountId).then((a) => a!)),
    }),
    reblog: t.field({ type: StatusType, nullable: true, resolve: (s, _a, ctx) => (s.reblogOfId ? fromData(s, ctx, (d) => d.statuses.get(s.reblogOfId!) ?? null) : null) }),
    quoteId: t.exposeID("quoteId", { nullable: true, description: "the status this one quotes (whether or not the viewer may see it)" }),
    quote: t.field({
      type: StatusType,
      nullable: true,
      description: "the quoted status, when the viewer may see it (loaded with the page's statuses; a quote's own quote is null)",
      resolve: (s, _a, ctx) => (s.quoteId ? fromData(s, ctx, (d) => (d.parentVisible.get(s.quoteId!) ? (d.statuses.get(s.quoteId!) ?? null) : null)) : null),
    }),
    repliesCount: t.int({ resolve: (s, _a, ctx) => fromData(s, ctx, (d) => d.counts.get(s.id)!.replies) }),
    reblogsCount: t.int({ resolve: (s, _a, ctx) => fromData(s, ctx, (d) => d.counts.get(s.id)!.reblogs) }),
    favouritesCount: t.int({ resolve: (s, _a, ctx) => fromData(s, ctx, (d) => d.counts.get(s.id)!.favourites) }),
    favourited: t.boolean({ resolve: (s, _a, ctx) => fromData(s, ctx, (d) => d.favourited.has(s.id)) }),
    reblogged: t.boolean({ resolve: (s, _a, ctx) => fromData(s, ctx, (d) => d.reblogged.has(s.id)) }),
    bookmarked: t.boolean({ resolve: (s, _a, ctx) => fromData(s, ctx, (d) => d.bookmarked.has(s.id)) }),
    pinned: t.boolean({ resolve: (s) => !!s.pinnedAt }),
    threadMuted: t.boolean({ resolve: (s, _a, ctx) => fromData(s, ctx, (d) => d.mutedContexts.has(s.context)) }),
    tags: t.stringList({ resolve: (s, _a, ctx) => fromData(s, ctx, (d) => d.tags.get(s.id) ?? []) }),
    mediaAttachments: t.field({ type: [MediaAttachment], resolve: (s, _a, ctx) => fromData(s, ctx, (d) => d.media.get(s.id) ?? []) }),
    poll: t.field({ type: Poll, nullable: true, resolve: (s, _a, ctx) => fromData(s, ctx, (d) => d.polls.get(s.id) ?? null) }),
    emojiReactions: t.field({ type: [ReactionGroup], resolve: (s, _a, ctx) => fromData(s, ctx, (d) => d.reactions.get(s.id) ?? []) }),
  }),
});

builder.queryFields((t) => ({
  status: t.field({ ...accessOf(showStatus), type: StatusRef, args: { id: t.arg.id({ required: true }) }, resolve: (_r, args, ctx) => showStatus(ctx, { id: String(args.id) }) }),
  statuses: t.field({ ...accessOf(showStatuses), type: [StatusRef], args: { ids: t.arg.idList({ required: true }) }, resolve: (_r, args, ctx) => showStatuses(ctx, { ids: args.ids.map(String) }) }),
}));

const PostStatusInput = builder.inputType("PostStatusInput", {
  fields: (t) => ({
    status: t.string(),
    contentType: t.string(),
    visibility: t.string({ description: "public, unlisted, private, direct, local or list:<id>" }),
    spoilerText: t.string(),
    sensitive: t.boolean(),
    inReplyToId: t.id(),
    quoteId: t.id({ description: "the status to quote: public or unlisted, visible to the poster" }),
    mediaIds: t.idList(),
    language: t.string(),
    expiresIn: t.int({ description: "seconds; more than an hour" }),
    poll: t.field({
      type: builder.inputType("PollInput", {
        fields: (f) => ({ options: f.stringList({ required: true }), expiresIn: f.int({ required: true }), multiple: f.boolean(), hideTotals: f.boolean() }),
      }),
    }),
  }),
});

builder.mutationFields((t) => ({
  postStatus: t.field({
    ...accessOf(postStatus),
    type: StatusRef,
    args: { input: t.arg({ type: PostStatusInput, required: true }), idempotencyKey: t.arg.string() },
    resolve: async (_r, { input, idempotencyKey }, ctx) => {
      const result = await postStatus(ctx, {
        status: input.status ?? undefined,
        content_type: input.contentType ?? undefined,
        visibility: input.visibility ?? undefined,
        spoiler_text: input.spoilerText ?? undefined,
        sensitive: input.sensitive ?? undefined,
        in_reply_to_id: input.inReplyToId ? String(input.inReplyToId) : undefined,
        quote_id: input.quoteId ? String(input.quoteId) : undefined,
        media_ids: input.mediaIds?.map(String),
        language: input.language ?? undefined,
        expires_in: input.expiresIn ?? undefined,
        poll: input.poll ? { options: input.poll.options, expires_in: input.poll.expiresIn, multiple: input.poll.multiple ?? undefined, hide_totals: input.poll.hideTotals ?? undefined } : undefined,
        idempotency_key: idempotencyKey ?? undefined,
      });
      if (result.kind !== "status") throw new Error("unreachable: scheduling is not offered here");
      return result.status;
    },
  }),
  deleteStatus: t.field({ ...accessOf(deleteStatus), type: StatusRef, args: { id: t.arg.id({ required: true }) }, resolve: (_r, args, ctx) => deleteStatus(ctx, { id: String(args.id) }) }),
}));

/** Actions that take a status id and answer the status, each guarded as its operation declares. */
const ACTIONS = {
  favourite: [{ favouriteStatus }],
  unfavourite: [{ unfavouriteStatus }],
  unreblog: [{ unreblogStatus }],
  bookmark: [{ bookmarkStatus }],
  unbookmark: [{ unbookmarkStatus }],
  pin: [{ pinStatus }],
  unpin: [{ unpinStatus }],
  unmuteThread: [{ unmuteThread }],
} as const;

builder.mutationFields((t) => ({
  ...Object.fromEntries(
    Object.entries(ACTIONS).map(([name, [named]]) => {
      // `{ operation }`: the operation and its name, which the GraphQL parity test reads (the call here is generic)
      const [opName, op] = Object.entries(named)[0] as [string, AnyOperation & ((ctx: Ctx, input: { id: string }) => Promise<Status>)];
      const guard = accessOf(op);
      return [
        name,
        t.field({
          ...guard,
          type: StatusRef,
          args: { id: t.arg.id({ required: true }) },
          extensions: { ...guard.extensions, domainOperation: opName },
          resolve: (_r, args, ctx) => op(ctx, { id: String(args.id) }),
        }),
      ];
    }),
  ),
  reblog: t.field({
    ...accessOf(reblogStatus),
    type: StatusRef,
    description: "Reblogs a status; answers the reblog (its `reblog` is the original)",
    args: { id: t.arg.id({ required: true }), visibility: t.arg({ type: StatusVisibility }) },
    resolve: (_r, args, ctx) => reblogStatus(ctx, { id: String(args.id), visibility: (args.visibility ?? undefined) as "public" | "unlisted" | "private" | undefined }),
  }),
  muteThread: t.field({
    ...accessOf(muteThread),
    type: StatusRef,
    args: { id: t.arg.id({ required: true }), expiresIn: t.arg.int() },
    resolve: (_r, args, ctx) => muteThread(ctx, { id: String(args.id), expires_in: args.expiresIn ?? undefined }),
  }),
  editStatus: t.field({
    ...accessOf(editStatus),
    type: StatusRef,
    args: { id: t.arg.id({ required: true }), status: t.arg.string(), spoilerText: t.arg.string(), sensitive: t.arg.boolean(), contentType: t.arg.string() },
    resolve: (_r, args, ctx) =>
      editStatus(ctx, {
        id: String(args.id),
        status: args.status ?? undefined,
        spoiler_text: args.spoilerText ?? undefined,
        sensitive: args.sensitive ?? undefined,
        content_type: args.contentType ?? undefined,
      }),
  }),
  react: t.field({ ...accessOf(addReaction), type: StatusRef, args: { id: t.arg.id({ required: true }), emoji: t.arg.string({ required: true }) }, resolve: (_r, args, ctx) => addReaction(ctx, { id: String(args.id), emoji: args.emoji }) }),
  unreact: t.field({ ...accessOf(removeReaction), type: StatusRef, args: { id: t.arg.id({ required: true }), emoji: t.arg.string({ required: true }) }, resolve: (_r, args, ctx) => removeReaction(ctx, { id: String(args.id), emoji: args.emoji }) }),
  vote: t.field({ ...accessOf(votePoll), type: Poll, args: { pollId: t.arg.id({ required: true }), choices: t.arg.intList({ required: true }) }, resolve: (_r, args, ctx) => votePoll(ctx, { id: String(args.pollId), choices: args.choices }) }),
}));
