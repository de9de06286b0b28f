// Timelines as Relay connections of `Status`. Each field calls the operation its REST route calls, so
// visibility, mutes, blocks and filters are the domain's; statuses render through the request's
// batched status data, so a page costs the same number of queries whatever its length.
import { listTimeline } from "../domain/lists/lists.ops.ts";
import type { Page, PageInput } from "../domain/pagination.ts";
import { accountStatuses, bubbleTimeline, directTimeline, homeTimeline, publicTimeline, tagTimeline } from "../domain/timelines/timelines.ops.ts";
import type { Status } from "../generated/prisma/client.ts";
import { builder } from "./builder.ts";
import { keepField } from "./kept-queries.ts";
import { pageSpecs } from "../http/routes/page-cache.ts";
import { accessOf } from "./access.ts";
import { opt, relayConnection, StatusType, type RelayArgs } from "./paging.ts";
import "./statuses.ts";

export const StatusConnection = builder.connectionObject({ type: StatusType, name: "StatusConnection" });

const ReplyVisibility = builder.enumType("ReplyVisibility", { values: ["following", "self"] as const });

const page = (args: RelayArgs, fetch: (p: PageInput) => Promise<Page<Status>>, pageable = true) =>
  relayConnection(args, fetch, { cursorOf: (s) => s.id, floor: "0", pageable });

builder.queryFields((t) => {
  const common = {
    onlyMedia: t.arg.boolean(),
    withMuted: t.arg.boolean({ description: "include statuses of muted accounts" }),
    excludeVisibilities: t.arg.stringList(),
    remote: t.arg.boolean(),
  };
  const feed = { ...common, local: t.arg.boolean(), replyVisibility: t.arg({ type: ReplyVisibility }) };
  type Common = { onlyMedia?: boolean | null; withMuted?: boolean | null; excludeVisibilities?: string[] | null; remote?: boolean | null };
  type Feed = Common & { local?: boolean | null; replyVisibility?: "following" | "self" | null };
  const commonInput = (a: Common) => ({ only_media: opt(a.onlyMedia), with_muted: opt(a.withMuted), exclude_visibilities: opt(a.excludeVisibilities), remote: opt(a.remote) });
  const feedInput = (a: Feed) => ({ ...commonInput(a), local: opt(a.local), reply_visibility: opt(a.replyVisibility) });

  return {
    homeTimeline: t.connection(
      {
        ...accessOf(homeTimeline),
        type: StatusType,
        description: "The viewer's statuses, those of followed accounts and those addressed to the viewer",
        args: feed,
        resolve: (_r, a, ctx) => {
          const input = feedInput(a);
          keepField(ctx, pageSpecs.home(input));
          return page(a, (p) => homeTimeline(ctx, { ...p, ...input }));
        },
      },
      StatusConnection,
    ),
    directTimeline: t.connection(
      {
        ...accessOf(directTimeline),
        type: StatusType,
        description: "Direct statuses the viewer wrote or is addressed by",
        args: common,
        resolve: (_r, a, ctx) => {
          const input = commonInput(a);
          keepField(ctx, pageSpecs.direct(input));
          return page(a, (p) => directTimeline(ctx, { ...p, ...input }));
        },
      },
      StatusConnection,
    ),
    publicTimeline: t.connection(
      {
        ...accessOf(publicTimeline),
        type: StatusType,
        args: { ...feed, instance: t.arg.string({ description: "only statuses from this host" }) },
        resolve: (_r, a, ctx) => {
          const input = { ...feedInput(a), instance: opt(a.instance) };
          keepField(ctx, pageSpecs.public(input));
          return page(a, (p) => publicTimeline(ctx, { ...p, ...input }));
        },
      },
      StatusConnection,
    ),
    tagTimeline: t.connection(
      {
        ...accessOf(tagTimeline),
        type: StatusType,
        args: { ...feed, tag: t.arg.string({ required: true }), any: t.arg.stringList(), all: t.arg.stringList(), none: t.arg.stringList() },
        resolve: (_r, a, ctx) => {
          const input = { ...feedInput(a), hashtag: a.tag, any: opt(a.any), all: opt(a.all), none: opt(a.none) };
          keepField(ctx, pageSpecs.tag(input));
          return page(a, (p) => tagTimeline(ctx, { ...p, ...input }));
        },
      },
      StatusConnection,
    ),
    bubbleTimeline: t.connection(
      {
        ...accessOf(bubbleTimeline),
        type: StatusType,
        description: "Local statuses and those of the instances in the administrator's bubble",
        args: { ...common, replyVisibility: t.arg({ type: ReplyVisibility }) },
        resolve: (_r, a, ctx) => page(a, (p) => bubbleTimeline(ctx, { ...p, ...commonInput(a), reply_visibility: opt(a.replyVisibility) })),
      },
      StatusConnection,
    ),
    listTimeline: t.connection(
      {
        ...accessOf(listTimeline),
        type: StatusType,
        args: { id: t.arg.id({ required: true }) },
        resolve: (_r, a, ctx) => {
          keepField(ctx, pageSpecs.list({ id: String(a.id) }));
          return page(a, (p) => listTimeline(ctx, { ...p, id: String(a.id) }));
        },
      },
      StatusConnection,
    ),
    accountStatuses: t.connection(
      {
        ...accessOf(accountStatuses),
        type: StatusType,
        description: "An account's statuses (by id or nickname); pinned ones come in one page, by pin date",
        args: {
          ...common,
          id: t.arg.id({ required: true }),
          pinned: t.arg.boolean(),
          tagged: t.arg.string(),
          excludeReplies: t.arg.boolean(),
          excludeReblogs: t.arg.boolean(),
        },
        resolve: (_r, a, ctx) =>
          page(
            a,
            (p) =>
              accountStatuses(ctx, {
                ...p,
                ...commonInput(a),
                id: String(a.id),
                pinned: opt(a.pinned),
                tagged: opt(a.tagged),
                exclude_replies: opt(a.excludeReplies),
                exclude_reblogs: opt(a.excludeReblogs),
              }),
            !a.pinned,
          ),
      },
      StatusConnection,
    ),
  };
});
