// Admin GraphQL for invites, relays, OAuth apps, announcements and media-proxy bans: the operations of
// the admin REST routes, guarded like them (scope + privilege or admin role; the admin token passes).
import DataLoader from "dataloader";
import type { Ctx } from "../domain/context.ts";
import { createInvite, emailInvite, listInvites, revokeInvite } from "../domain/admin/invites.ops.ts";
import { listMediaProxyBans, purgeMediaProxyUrls, unbanMediaProxyUrls } from "../domain/admin/media-proxy.ops.ts";
import { createOAuthApp, deleteOAuthApp, listOAuthApps, updateOAuthApp } from "../domain/admin/oauth-apps.ops.ts";
import { followRelay, listRelays, unfollowRelay } from "../domain/admin/relays.ops.ts";
import {
  countAllAnnouncements,
  createAnnouncement,
  deleteAnnouncement,
  getAnnouncement,
  listAllAnnouncements,
  updateAnnouncement,
} from "../domain/announcements/announcements.ops.ts";
import { announcementDetails, type AnnouncementDetails } from "../domain/announcements/announcements.read.ts";
import type { Announcement, Invite, OAuthApp, Relay } from "../generated/prisma/client.ts";
import { adminOnly, privileged } from "./admin-auth.ts";
import { offsetConnection, totalCountField } from "./offset-paging.ts";
import { builder } from "./builder.ts";
import { AccountType, opt } from "./paging.ts";
import "./accounts.ts";


// ---- invites

const InviteTypeEnum = builder.enumType("InviteType", { values: ["one_time", "reusable", "date_limited", "reusable_date_limited"] as const });

const InviteRef = builder.objectRef<Invite>("Invite").implement({
  description: "A registration invite; its type follows from maxUse and expiresAt",
  fields: (t) => ({
    id: t.exposeInt("id"),
    token: t.exposeString("token"),
    used: t.exposeBoolean("used"),
    uses: t.exposeInt("uses"),
    maxUse: t.exposeInt("maxUse", { nullable: true }),
    expiresAt: t.string({ nullable: true, description: "a date (YYYY-MM-DD): the invite works through that UTC day", resolve: (i) => i.expiresAt?.toISOString().slice(0, 10) ?? null }),
    inviteType: t.field({ type: InviteTypeEnum, resolve: (i) => i.inviteType as (typeof InviteTypeEnum.$inferType) }),
  }),
});

const invites = "users_manage_invites" as const;

// ---- relays

const RelayRef = builder.objectRef<Relay>("Relay").implement({
  description: "A relay the instance follows (or asked to follow: `pending` until the relay accepts)",
  fields: (t) => ({
    actor: t.exposeString("actor"),
    state: t.exposeString("state"),
    followedBack: t.exposeBoolean("followedBack"),
  }),
});

// ---- OAuth apps

const AdminOAuthAppRef = builder.objectRef<OAuthApp>("AdminOAuthApp").implement({
  description: "An OAuth client application as admins see it, secret included",
  fields: (t) => ({
    id: t.exposeInt("id"),
    name: t.exposeString("name"),
    clientId: t.exposeString("clientId"),
    clientSecret: t.exposeString("clientSecret"),
    redirectUris: t.stringList({ resolve: (a) => a.redirectUris.split("\n") }),
    scopes: t.exposeStringList("scopes"),
    website: t.exposeString("website", { nullable: true }),
    trusted: t.exposeBoolean("trusted"),
  }),
});

// ---- announcements

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

const announcements = "announcements_manage_announcements" as const;
const dateArg = (d: Date | null | undefined) => (d === undefined ? undefined : d === null ? null : d.toISOString());

// ---- fields

builder.queryFields((t) => ({
  adminInvites: t.field({
    ...privileged(invites, "admin:read:invites"),
    type: [InviteRef],
    description: "Every invite, oldest first",
    resolve: (_root, _args, ctx) => listInvites(ctx, {}),
  }),
  adminRelays: t.field({
    ...adminOnly("admin:read"),
    type: [RelayRef],
    resolve: (_root, _args, ctx) => listRelays(ctx, {}),
  }),
  adminOAuthApps: t.connection(
    {
      ...adminOnly("admin:write"),
      type: AdminOAuthAppRef,
      description: "OAuth apps, oldest first, filtered by exact name, client id or trust",
      args: { name: t.arg.string(), clientId: t.arg.string(), trusted: t.arg.boolean() },
      resolve: (_root, args, ctx) =>
        offsetConnection(args, async (offset, limit) => {
          const { apps, count } = await listOAuthApps(ctx, { name: opt(args.name), client_id: opt(args.clientId), trusted: opt(args.trusted), offset, limit });
          return { total: count, items: apps };
        }),
    },
    { name: "AdminOAuthAppConnection", ...totalCountField },
  ),
  adminAnnouncements: t.connection(
    {
      ...privileged(announcements, "admin:read"),
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
    ...privileged(announcements, "admin:read"),
    type: AnnouncementRef,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => getAnnouncement(ctx, { id: String(args.id) }),
  }),
  mediaProxyBans: t.connection(
    {
      ...adminOnly("admin:read:media_proxy_caches"),
      type: "String",
      description: "URLs banned from the media proxy, newest ban first; `query` keeps those containing it",
      args: { query: t.arg.string() },
      resolve: (_root, args, ctx) =>
        offsetConnection(args, async (offset, limit) => {
          const { count, urls } = await listMediaProxyBans(ctx, { query: opt(args.query), offset, limit });
          return { total: count, items: urls };
        }),
    },
    { name: "MediaProxyBanConnection", ...totalCountField },
  ),
}));

builder.mutationFields((t) => ({
  createInvite: t.field({
    ...privileged(invites, "admin:write:invites"),
    type: InviteRef,
    args: { maxUse: t.arg.int(), expiresAt: t.arg.string({ description: "a date, YYYY-MM-DD" }) },
    resolve: (_root, args, ctx) => createInvite(ctx, { max_use: opt(args.maxUse), expires_at: opt(args.expiresAt) }),
  }),
  revokeInvite: t.field({
    ...privileged(invites, "admin:write:invites"),
    type: InviteRef,
    args: { token: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => revokeInvite(ctx, { token: args.token }),
  }),
  emailInvite: t.field({
    ...privileged(invites, "admin:write:invites"),
    type: InviteRef,
    description: "Mails a new one-time invite (only while registrations are closed and invites enabled)",
    args: { email: t.arg.string({ required: true }), name: t.arg.string() },
    resolve: (_root, args, ctx) => emailInvite(ctx, { email: args.email, name: args.name }),
  }),
  followRelay: t.field({
    ...adminOnly("admin:write:follows"),
    type: RelayRef,
    args: { relayUrl: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => followRelay(ctx, { relay_url: args.relayUrl }),
  }),
  unfollowRelay: t.field({
    ...adminOnly("admin:write:follows"),
    type: "String",
    description: "Answers the relay's URL; an unknown relay is an error unless `force`",
    args: { relayUrl: t.arg.string({ required: true }), force: t.arg.boolean() },
    resolve: (_root, args, ctx) => unfollowRelay(ctx, { relay_url: args.relayUrl, force: opt(args.force) }),
  }),
  createOAuthApp: t.field({
    ...adminOnly("admin:write"),
    type: AdminOAuthAppRef,
    args: {
      name: t.arg.string({ required: true }),
      redirectUris: t.arg.stringList({ required: true }),
      scopes: t.arg.stringList(),
      website: t.arg.string(),
      trusted: t.arg.boolean(),
    },
    resolve: (_root, a, ctx) => createOAuthApp(ctx, { name: a.name, redirect_uris: a.redirectUris, scopes: opt(a.scopes), website: a.website, trusted: opt(a.trusted) }),
  }),
  updateOAuthApp: t.field({
    ...adminOnly("admin:write"),
    type: AdminOAuthAppRef,
    args: {
      id: t.arg.int({ required: true }),
      name: t.arg.string(),
      redirectUris: t.arg.stringList(),
      scopes: t.arg.stringList(),
      website: t.arg.string(),
      trusted: t.arg.boolean(),
    },
    resolve: (_root, a, ctx) =>
      updateOAuthApp(ctx, { id: a.id, name: opt(a.name), redirect_uris: opt(a.redirectUris), scopes: opt(a.scopes), website: a.website, trusted: opt(a.trusted) }),
  }),
  deleteOAuthApp: t.field({
    ...adminOnly("admin:write"),
    type: "Boolean",
    args: { id: t.arg.int({ required: true }) },
    resolve: async (_root, a, ctx) => {
      await deleteOAuthApp(ctx, { id: a.id });
      return true;
    },
  }),
  createAnnouncement: t.field({
    ...privileged(announcements, "admin:write"),
    type: AnnouncementRef,
    args: { content: t.arg.string({ required: true }), startsAt: t.arg({ type: "DateTime" }), endsAt: t.arg({ type: "DateTime" }), allDay: t.arg.boolean() },
    resolve: (_root, a, ctx) => createAnnouncement(ctx, { content: a.content, starts_at: dateArg(a.startsAt), ends_at: dateArg(a.endsAt), all_day: opt(a.allDay) }),
  }),
  updateAnnouncement: t.field({
    ...privileged(announcements, "admin:write"),
    type: AnnouncementRef,
    description: "Changes what is given; an explicit null clears a date",
    args: { id: t.arg.id({ required: true }), content: t.arg.string(), startsAt: t.arg({ type: "DateTime" }), endsAt: t.arg({ type: "DateTime" }), allDay: t.arg.boolean() },
    resolve: (_root, a, ctx) =>
      updateAnnouncement(ctx, { id: String(a.id), content: opt(a.content), starts_at: dateArg(a.startsAt), ends_at: dateArg(a.endsAt), all_day: opt(a.allDay) }),
  }),
  deleteAnnouncement: t.field({
    ...privileged(announcements, "admin:write"),
    type: "ID",
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, a, ctx) => {
      await deleteAnnouncement(ctx, { id: String(a.id) });
      return a.id;
    },
  }),
  purgeMediaProxyUrls: t.field({
    ...adminOnly("admin:write:media_proxy_caches"),
    type: "Boolean",
    description: "Purges the URLs from the media proxy's cache and, with `ban` (default true), bans them",
    args: { urls: t.arg.stringList({ required: true }), ban: t.arg.boolean() },
    resolve: async (_root, a, ctx) => {
      await purgeMediaProxyUrls(ctx, { urls: a.urls, ban: opt(a.ban) });
      return true;
    },
  }),
  unbanMediaProxyUrls: t.field({
    ...adminOnly("admin:write:media_proxy_caches"),
    type: "Boolean",
    args: { urls: t.arg.stringList({ required: true }) },
    resolve: async (_root, a, ctx) => {
      await unbanMediaProxyUrls(ctx, { urls: a.urls });
      return true;
    },
  }),
}));
