// Accounts and relationships over GraphQL; every resolver calls the operation REST calls.
import { lookupAccount, searchAccounts, showAccount, verifyCredentials } from "../domain/accounts/accounts.read.ts";
import { completeValue } from "@pothos/core";
import { visibleCounts, type AccountCounts } from "../domain/accounts/account-counts.ts";
import type { Ctx } from "../domain/context.ts";
import { updateProfile } from "../domain/accounts/profile.ops.ts";
import { blockAccount, muteAccount, unblockAccount, unmuteAccount } from "../domain/relationships/blocks-mutes.ops.ts";
import { followAccount, unfollowAccount } from "../domain/relationships/follows.ops.ts";
import type { RelationshipState } from "../domain/relationships/relationships.read.ts";
import { Invalid } from "../kernel/errors.ts";
import { avatarUrl, headerUrl } from "../domain/media/defaults.ts";
import { builder } from "./builder.ts";
import { accessOf } from "./access.ts";

export const Relationship = builder.objectRef<RelationshipState>("Relationship").implement({
  description: "The viewer's relationship to an account",
  fields: (t) => ({
    id: t.exposeID("id"),
    following: t.exposeBoolean("following"),
    requested: t.exposeBoolean("requested"),
    followedBy: t.exposeBoolean("followedBy"),
    requestedBy: t.exposeBoolean("requestedBy"),
    showingReblogs: t.exposeBoolean("showingReblogs"),
    notifying: t.exposeBoolean("notifying"),
    blocking: t.exposeBoolean("blocking"),
    blockedBy: t.exposeBoolean("blockedBy"),
    muting: t.exposeBoolean("muting"),
    mutingNotifications: t.exposeBoolean("mutingNotifications"),
    subscribing: t.exposeBoolean("subscribing"),
    domainBlocking: t.exposeBoolean("domainBlocking"),
    endorsed: t.exposeBoolean("endorsed"),
    note: t.exposeString("note"),
  }),
});

const fromCounts = <T>(id: string, ctx: Ctx, pick: (c: AccountCounts) => T) => completeValue(ctx.loaders.accountCountsOf(id), pick);

const Account = builder.prismaObject("Account", {
  fields: (t) => ({
    id: t.exposeID("id"),
    nickname: t.exposeString("nickname"),
    displayName: t.exposeString("displayName"),
    note: t.exposeString("note", { description: "the bio as the owner typed it" }),
    local: t.exposeBoolean("local"),
    apId: t.exposeString("apId"),
    avatar: t.string({ resolve: (a, _args, ctx) => avatarUrl(ctx, a) }),
    header: t.string({ resolve: (a, _args, ctx) => headerUrl(ctx, a) }),
    locked: t.exposeBoolean("locked"),
    bot: t.boolean({ resolve: (a) => a.actorType === "Service" || a.actorType === "Application" }),
    actorType: t.exposeString("actorType"),
    isAdmin: t.exposeBoolean("isAdmin"),
    isModerator: t.exposeBoolean("isModerator"),
    deactivated: t.exposeBoolean("deactivated"),
    tags: t.exposeStringList("tags"),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    // the e-mail is the admin API's `users_read` privilege (as on REST's admin user routes), not any staff
    // role: without it the field is null rather than an error, so a moderator's report or status queries
    // that select accounts keep working
    email: t.exposeString("email", { nullable: true, authScopes: { privilege: "users_read" }, unauthorizedResolver: () => null }),
    // at once when the page's status data brought the counts (no promise per account and field)
    followersCount: t.int({ resolve: (a, _args, ctx) => fromCounts(a.id, ctx, (c) => visibleCounts(a, c, ctx.viewer.account?.id).followers) }),
    followingCount: t.int({ resolve: (a, _args, ctx) => fromCounts(a.id, ctx, (c) => visibleCounts(a, c, ctx.viewer.account?.id).following) }),
    statusesCount: t.int({
      description: "its public and unlisted statuses, reblogs not counted (REST's statuses_count)",
      resolve: (a, _args, ctx) => fromCounts(a.id, ctx, (c) => c.statuses),
    }),
    relationship: t.field({ type: Relationship, nullable: true, resolve: (a, _args, ctx) => ctx.loaders.relationship.load(a.id) }),
  }),
});

builder.queryFields((t) => ({
  viewer: t.field({
    type: Account,
    nullable: true,
    description: "The signed-in account, or null",
    // not accessOf(verifyCredentials): an anonymous caller gets null here, where REST refuses
    resolve: (_root, _args, ctx) => (ctx.viewer.account ? verifyCredentials(ctx, {}) : null),
  }),
  account: t.field({
    // by id it runs showAccount, by nickname lookupAccount (public): guarded as the stricter, showAccount
    ...accessOf(showAccount),
    type: Account,
    description: "An account by id, nickname or acct (nick@host)",
    args: { id: t.arg.id(), nickname: t.arg.string() },
    resolve: (_root, args, ctx) => {
      if (args.id) return showAccount(ctx, { id: String(args.id) });
      if (args.nickname) return lookupAccount(ctx, { acct: args.nickname });
      throw Invalid("Give id or nickname", { id: "is required" });
    },
  }),
  searchAccounts: t.field({
    ...accessOf(searchAccounts),
    type: [Account],
    args: { query: t.arg.string({ required: true }), limit: t.arg.int({ defaultValue: 40 }), offset: t.arg.int({ defaultValue: 0 }) },
    resolve: (_root, args, ctx) => searchAccounts(ctx, { q: args.query, limit: args.limit ?? 40, offset: args.offset ?? 0 }),
  }),
}));

const ProfileInput = builder.inputType("ProfileInput", {
  fields: (t) => ({
    displayName: t.string(),
    note: t.string(),
    locked: t.boolean(),
    bot: t.boolean(),
    discoverable: t.boolean(),
    hideFollowers: t.boolean(),
    hideFollows: t.boolean(),
    hideFollowersCount: t.boolean(),
    hideFollowsCount: t.boolean(),
    defaultScope: t.field({ type: Visibility }),
    fields: t.field({ type: [builder.inputType("ProfileFieldInput", { fields: (f) => ({ name: f.string({ required: true }), value: f.string({ required: true }) }) })] }),
  }),
});
const Visibility = builder.enumType("Visibility", { values: ["public", "unlisted", "private", "direct"] as const });

builder.mutationFields((t) => ({
  updateProfile: t.field({
    ...accessOf(updateProfile),
    type: Account,
    args: { input: t.arg({ type: ProfileInput, required: true }) },
    resolve: (_root, { input }, ctx) =>
      updateProfile(ctx, {
        display_name: input.displayName ?? undefined,
        note: input.note ?? undefined,
        locked: input.locked ?? undefined,
        bot: input.bot ?? undefined,
        discoverable: input.discoverable ?? undefined,
        hide_followers: input.hideFollowers ?? undefined,
        hide_follows: input.hideFollows ?? undefined,
        hide_followers_count: input.hideFollowersCount ?? undefined,
        hide_follows_count: input.hideFollowsCount ?? undefined,
        default_scope: input.defaultScope ?? undefined,
        fields_attributes: input.fields ?? undefined,
      }),
  }),
  follow: t.field({
    ...accessOf(followAccount),
    type: Relationship,
    args: { accountId: t.arg.id({ required: true }), reblogs: t.arg.boolean(), notify: t.arg.boolean() },
    resolve: (_root, args, ctx) => followAccount(ctx, { id: String(args.accountId), reblogs: args.reblogs ?? undefined, notify: args.notify ?? undefined }),
  }),
  unfollow: t.field({ ...accessOf(unfollowAccount), type: Relationship, args: { accountId: t.arg.id({ required: true }) }, resolve: (_root, args, ctx) => unfollowAccount(ctx, { id: String(args.accountId) }) }),
  block: t.field({ ...accessOf(blockAccount), type: Relationship, args: { accountId: t.arg.id({ required: true }) }, resolve: (_root, args, ctx) => blockAccount(ctx, { id: String(args.accountId) }) }),
  unblock: t.field({ ...accessOf(unblockAccount), type: Relationship, args: { accountId: t.arg.id({ required: true }) }, resolve: (_root, args, ctx) => unblockAccount(ctx, { id: String(args.accountId) }) }),
  mute: t.field({
    ...accessOf(muteAccount),
    type: Relationship,
    args: { accountId: t.arg.id({ required: true }), notifications: t.arg.boolean(), expiresIn: t.arg.int({ description: "seconds; absent = forever" }) },
    resolve: (_root, args, ctx) => muteAccount(ctx, { id: String(args.accountId), notifications: args.notifications ?? undefined, expires_in: args.expiresIn ?? undefined }),
  }),
  unmute: t.field({ ...accessOf(unmuteAccount), type: Relationship, args: { accountId: t.arg.id({ required: true }) }, resolve: (_root, args, ctx) => unmuteAccount(ctx, { id: String(args.accountId) }) }),
}));
