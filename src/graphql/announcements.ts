// GraphQL announcements: the Announcement type (also served to clients, client-extras.ts, and streamed,
// subscriptions.ts) and its admin queries and mutations, each guarded as its operation declares, as the
// admin REST routes are (scope + the announcements_manage_announcements privilege; the admin token passes).
import DataLoader from "dataloader";
import type { Ctx } from "../domain/context.ts";
import {
  countAllAnnouncements,
  createAnnouncement,
  deleteAnnouncement,
  getAnnouncement,
  listAllAnnouncements,
  updateAnnouncement,
} from "../domain/announcements/announcements.ops.ts";
import { announcementDetails, type AnnouncementDetails } from "../domain/announcements/announcements.read.ts";
import type { Announcement } from "../generated/prisma/client.ts";
import { accessOf } from "./access.ts";
import { offsetConnection, totalCountField } from "./offset-paging.ts";
import { builder } from "./builder.ts";
import { AccountType, opt } from "./paging.ts";
import "./accounts.ts";

/** Content HTML, reactions and the viewer's read mark, batched over the announcements of a request. */
const detailLoaders = new WeakMap<Ctx, DataLoader<Announcement, AnnouncementDetails, string>>();
function details(ctx: Ctx, a: Announcement) {
  let loader = detailLoaders.get(ctx);
  if (!loader) {
    loader = new DataLoader(async (list) => {
      const map = await announcementDetails(ctx, [...list]);
      return list.map((x) => map.get(x.id)!);
    }, { cacheKeyFn: (x) => x.id });
    detailLoaders.set(ctx, loader);
  }
  return loader.load(a);
}

const ReactionRef = builder.objectRef<{ name: string; count: number; me: boolean }>("AnnouncementReaction").implement({
  fields: (t) => ({ name: t.exposeString("name"), count: t.exposeInt("count"), me: t.exposeBoolean("me") }),
});

export const AnnouncementRef = builder.objectRef<Announcement>("Announcement").implement({
  fields: (t) => ({
    id: t.exposeID("id"),
    rawContent: t.exposeString("content", { description: "the text as written" }),
    content: t.string({ description: "the text as HTML (links, mentions, hashtags)", resolve: async (a, _args, ctx) => (await details(ctx, a)).html }),
    startsAt: t.expose("startsAt", { type: "DateTime", nullable: true }),
    endsAt: t.expose("endsAt", { type: "DateTime", nullable: true }),
    allDay: t.exposeBoolean("allDay"),
    publishedAt: t.expose("publishedAt", { type: "DateTime" }),
    updatedAt: t.expose("updatedAt", { type: "DateTime" }),
    mentions: t.field({ type: [AccountType], resolve: async (a, _args, ctx) => (await details(ctx, a)).mentions }),
    tags: t.stringList({ resolve: async (a, _args, ctx) => (await details(ctx, a)).tags }),
    reactions: t.field({ type: [ReactionRef], resolve: async (a, _args, ctx) => (await details(ctx, a)).reactions }),
  }),
});

const dateArg = (d: Date | null | undefined) => (d === undefined ? undefined : d === null ? null : d.toISOString());

builder.queryFields((t) => ({
  adminAnnouncements: t.connection(
    {
      ...accessOf(listAllAnnouncements),
      type: AnnouncementRef,
      description: "Every announcement, active or not, oldest first",
      resolve: (_root, args, ctx) =>
        offsetConnection(args, async (offset, limit) => {
          const [items, total] = await Promise.all([listAllAnnouncements(ctx, { offset, limit }), countAllAnnouncements(ctx)]);
          return { total, items };
        }),
    },
    { name: "AnnouncementConnection", ...totalCountField },
  ),
  adminAnnouncement: t.field({
    ...accessOf(getAnnouncement),
    type: AnnouncementRef,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => getAnnouncement(ctx, { id: String(args.id) }),
  }),
}));

builder.mutationFields((t) => ({
  createAnnouncement: t.field({
    ...accessOf(createAnnouncement),
    type: AnnouncementRef,
    args: { content: t.arg.string({ required: true }), startsAt: t.arg({ type: "DateTime" }), endsAt: t.arg({ type: "DateTime" }), allDay: t.arg.boolean() },
    resolve: (_root, a, ctx) => createAnnouncement(ctx, { content: a.content, starts_at: dateArg(a.startsAt), ends_at: dateArg(a.endsAt), all_day: opt(a.allDay) }),
  }),
  updateAnnouncement: t.field({
    ...accessOf(updateAnnouncement),
    type: AnnouncementRef,
    description: "Changes what is given; an explicit null clears a date",
    args: { id: t.arg.id({ required: true }), content: t.arg.string(), startsAt: t.arg({ type: "DateTime" }), endsAt: t.arg({ type: "DateTime" }), allDay: t.arg.boolean() },
    resolve: (_root, a, ctx) =>
      updateAnnouncement(ctx, { id: String(a.id), content: opt(a.content), starts_at: dateArg(a.startsAt), ends_at: dateArg(a.endsAt), all_day: opt(a.allDay) }),
  }),
  deleteAnnouncement: t.field({
    ...accessOf(deleteAnnouncement),
    type: "ID",
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, a, ctx) => {
      await deleteAnnouncement(ctx, { id: String(a.id) });
      return a.id;
    },
  }),
}));
