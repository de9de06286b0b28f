// Admin users over GraphQL: the same operations as the admin REST routes, guarded like them — the
// route's OAuth scope together with its privilege (or the admin role), both required.
import { resolveOffsetConnection } from "@pothos/plugin-relay";
import { disableMfa, passwordResetToken, showCredentials, updateCredentials } from "../domain/accounts/admin-credentials.ops.ts";
import {
  activateUsers,
  approveUsers,
  confirmUsersEmail,
  createUsers,
  deactivateUsers,
  deleteUsers,
  forceFollow,
  forcePasswordReset,
  forceUnfollow,
  grantPermission,
  resendConfirmationEmail,
  revokePermission,
  suggestUsers,
  tagUsers,
  toggleActivation,
  unsuggestUsers,
  untagUsers,
} from "../domain/accounts/admin-users.ops.ts";
import { getPermissionGroups, listUsers, showUser, userStatuses } from "../domain/accounts/admin-users.read.ts";
import type { Account } from "../generated/prisma/client.ts";
import { avatarUrl } from "../domain/media/defaults.ts";
import { guardSubscription } from "./admin-auth.ts";
import { accessOf } from "./access.ts";
import { builder } from "./builder.ts";
import { opt, StatusType } from "./paging.ts";
import "./statuses.ts";

// The admin token acts as an admin and skips scope checks, as on REST.

export const AdminUser = builder.objectRef<Account>("AdminUser").implement({
  description: "A user as the admin API shows it",
  fields: (t) => ({
    id: t.exposeID("id"),
    nickname: t.exposeString("nickname"),
    email: t.exposeString("email", { nullable: true }),
    displayName: t.string({ resolve: (a) => a.displayName || a.nickname }),
    avatar: t.string({ resolve: (a, _args, ctx) => avatarUrl(ctx, a) }),
    url: t.exposeString("apId"),
    local: t.exposeBoolean("local"),
    domain: t.exposeString("domain", { nullable: true, description: "the instance of a remote user (null for local users)" }),
    deactivated: t.exposeBoolean("deactivated"),
    isAdmin: t.exposeBoolean("isAdmin"),
    isModerator: t.exposeBoolean("isModerator"),
    tags: t.exposeStringList("tags"),
    confirmationPending: t.exposeBoolean("confirmationPending"),
    approvalPending: t.exposeBoolean("approvalPending"),
    passwordResetPending: t.exposeBoolean("passwordResetPending"),
    mfaEnabled: t.exposeBoolean("mfaEnabled"),
    isSuggested: t.exposeBoolean("isSuggested"),
    registrationReason: t.exposeString("registrationReason", { nullable: true }),
    actorType: t.exposeString("actorType"),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
  }),
});

const ProfileField = builder.objectRef<{ name: string; value: string }>("AdminProfileField").implement({
  fields: (t) => ({ name: t.exposeString("name"), value: t.exposeString("value") }),
});

const AdminCredentials = builder.objectRef<Account>("AdminCredentials").implement({
  description: "A user's profile and sign-in details, as GET /users/:nickname/credentials shows them",
  fields: (t) => ({
    id: t.exposeID("id"),
    nickname: t.exposeString("nickname"),
    email: t.exposeString("email", { nullable: true }),
    name: t.string({ resolve: (a) => a.displayName || a.nickname }),
    bio: t.exposeString("note"),
    actorType: t.exposeString("actorType"),
    defaultScope: t.exposeString("defaultScope"),
    locked: t.exposeBoolean("locked"),
    isDiscoverable: t.exposeBoolean("discoverable"),
    noRichText: t.exposeBoolean("noRichText"),
    allowFollowingMove: t.exposeBoolean("allowFollowingMove"),
    hideFollows: t.exposeBoolean("hideFollows"),
    hideFollowers: t.exposeBoolean("hideFollowers"),
    hideFollowsCount: t.exposeBoolean("hideFollowsCount"),
    hideFollowersCount: t.exposeBoolean("hideFollowersCount"),
    hideFavorites: t.exposeBoolean("hideFavorites"),
    showRole: t.exposeBoolean("showRole"),
    skipThreadContainment: t.exposeBoolean("skipThreadContainment"),
    fields: t.field({ type: [ProfileField], resolve: (a) => (a.fields as { name: string; value: string }[]) ?? [] }),
    // the stored images (what `AdminCredentialsInput` sets); null when none, where REST shows the default image
    avatar: t.exposeString("avatar", { nullable: true, description: "the stored avatar URL or path; null: none (REST shows the default image)" }),
    banner: t.exposeString("header", { nullable: true, description: "the stored banner URL or path; null: none" }),
    background: t.exposeString("background", { nullable: true, description: "the stored background URL or path; null: none" }),
  }),
});

const PermissionGroups = builder.objectRef<{ is_admin: boolean; is_moderator: boolean }>("AdminPermissionGroups").implement({
  fields: (t) => ({ isAdmin: t.exposeBoolean("is_admin"), isModerator: t.exposeBoolean("is_moderator") }),
});

const PasswordReset = builder.objectRef<{ token: string; link: string }>("AdminPasswordReset").implement({
  fields: (t) => ({ token: t.exposeString("token"), link: t.exposeString("link") }),
});

builder.queryFields((t) => ({
  adminUsers: t.connection(
    {
      ...accessOf(listUsers),
      type: AdminUser,
      description: "Users ordered by nickname, filtered as GET /users filters them",
      args: {
        query: t.arg.string({ description: "nickname, domain, display name or e-mail" }),
        filters: t.arg.stringList({ description: "local, external, active, need_approval, unconfirmed, deactivated, is_admin, is_moderator (combined)" }),
        tags: t.arg.stringList(),
        actorTypes: t.arg.stringList(),
        name: t.arg.string({ description: "display name" }),
        email: t.arg.string(),
      },
      resolve: async (_root, args, ctx) => {
        let totalCount = 0;
        const connection = await resolveOffsetConnection({ args }, async ({ offset, limit }) => {
          const page = await listUsers(ctx, {
            query: opt(args.query),
            filters: opt(args.filters),
            tags: opt(args.tags),
            actor_types: opt(args.actorTypes),
            name: opt(args.name),
            email: opt(args.email),
            offset,
            page_size: limit,
          });
          totalCount = page.count;
          return page.users;
        });
        return { ...connection, totalCount };
      },
    },
    { name: "AdminUserConnection", fields: (c) => ({ totalCount: c.int({ resolve: (conn) => (conn as unknown as { totalCount: number }).totalCount }) }) },
  ),
  adminUser: t.field({
    ...accessOf(showUser),
    type: AdminUser,
    args: { nicknameOrId: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => showUser(ctx, { nickname_or_id: args.nicknameOrId }),
  }),
  adminPermissionGroups: t.field({
    ...accessOf(getPermissionGroups),
    type: PermissionGroups,
    args: { nickname: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => getPermissionGroups(ctx, args),
  }),
  adminUserCredentials: t.field({
    ...accessOf(showCredentials),
    type: AdminCredentials,
    args: { nickname: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => showCredentials(ctx, args),
  }),
  adminUserStatuses: t.connection(
    {
      ...accessOf(userStatuses),
      type: StatusType,
      description: "A user's statuses, newest first; godmode adds private and direct ones",
      args: { nicknameOrId: t.arg.string({ required: true }), godmode: t.arg.boolean(), withReblogs: t.arg.boolean() },
      resolve: (_root, args, ctx) =>
        resolveOffsetConnection({ args }, async ({ offset, limit }) => {
          const input = { nickname_or_id: args.nicknameOrId, godmode: opt(args.godmode), with_reblogs: opt(args.withReblogs), offset, page_size: limit };
          return (await userStatuses(ctx, input)).statuses;
        }),
    },
    { name: "AdminUserStatusConnection" },
  ),
}));

const NewUser = builder.inputType("AdminNewUserInput", {
  fields: (t) => ({ nickname: t.string({ required: true }), email: t.string({ required: true }), password: t.string({ required: true }) }),
});

const CredentialsInput = builder.inputType("AdminCredentialsInput", {
  fields: (t) => ({
    email: t.string(),
    password: t.string(),
    name: t.string(),
    bio: t.string(),
    avatar: t.string(),
    banner: t.string(),
    background: t.string(),
    locked: t.boolean(),
    noRichText: t.boolean(),
    defaultScope: t.string(),
    hideFollows: t.boolean(),
    hideFollowers: t.boolean(),
    hideFollowersCount: t.boolean(),
    hideFollowsCount: t.boolean(),
    hideFavorites: t.boolean(),
    allowFollowingMove: t.boolean(),
    showRole: t.boolean(),
    skipThreadContainment: t.boolean(),
    isDiscoverable: t.boolean(),
    actorType: t.string(),
    fields: t.field({ type: [builder.inputType("AdminProfileFieldInput", { fields: (f) => ({ name: f.string({ required: true }), value: f.string({ required: true }) }) })] }),
  }),
});

const PermissionGroup = builder.enumType("AdminPermissionGroup", { values: ["admin", "moderator"] as const });

builder.mutationFields((t) => {
  const nicknames = { nicknames: t.arg.stringList({ required: true }) };
  /** a batch action on users named, answering them as they are now */
  // `{ activateUsers }`: the operation with its name, recorded on the field for the parity test
  const batch = (named: Record<string, typeof activateUsers>) => {
    const [[name, op]] = Object.entries(named);
    const guard = accessOf(op);
    return t.field({ ...guard, type: [AdminUser], args: nicknames, extensions: { ...guard.extensions, domainOperation: name }, resolve: (_root, args, ctx) => op(ctx, { nicknames: args.nicknames }) });
  };

  return {
    adminActivateUsers: batch({ activateUsers }),
    adminDeactivateUsers: batch({ deactivateUsers }),
    adminApproveUsers: batch({ approveUsers }),
    adminSuggestUsers: batch({ suggestUsers }),
    adminUnsuggestUsers: batch({ unsuggestUsers }),
    adminConfirmEmail: batch({ confirmUsersEmail }),
    adminResendConfirmationEmail: batch({ resendConfirmationEmail }),
    adminForcePasswordReset: batch({ forcePasswordReset }),
    adminDeleteUsers: batch({ deleteUsers }),
    adminToggleActivation: t.field({
      ...accessOf(toggleActivation),
      type: AdminUser,
      args: { nickname: t.arg.string({ required: true }) },
      resolve: (_root, args, ctx) => toggleActivation(ctx, args),
    }),
    adminTagUsers: t.field({
      ...accessOf(tagUsers),
      type: [AdminUser],
      args: { ...nicknames, tags: t.arg.stringList({ required: true }) },
      resolve: (_root, args, ctx) => tagUsers(ctx, args),
    }),
    adminUntagUsers: t.field({
      ...accessOf(untagUsers),
      type: [AdminUser],
      args: { ...nicknames, tags: t.arg.stringList({ required: true }) },
      resolve: (_root, args, ctx) => untagUsers(ctx, args),
    }),
    adminGrantPermission: t.field({
      ...accessOf(grantPermission),
      type: [AdminUser],
      args: { ...nicknames, group: t.arg({ type: PermissionGroup, required: true }) },
      resolve: (_root, args, ctx) => grantPermission(ctx, { nicknames: args.nicknames, permission_group: args.group }),
    }),
    adminRevokePermission: t.field({
      ...accessOf(revokePermission),
      type: [AdminUser],
      args: { ...nicknames, group: t.arg({ type: PermissionGroup, required: true }) },
      resolve: (_root, args, ctx) => revokePermission(ctx, { nicknames: args.nicknames, permission_group: args.group }),
    }),
    adminFollow: t.boolean({
      ...accessOf(forceFollow),
      args: { follower: t.arg.string({ required: true }), followed: t.arg.string({ required: true }) },
      resolve: async (_root, args, ctx) => (await forceFollow(ctx, args), true),
    }),
    adminUnfollow: t.boolean({
      ...accessOf(forceUnfollow),
      args: { follower: t.arg.string({ required: true }), followed: t.arg.string({ required: true }) },
      resolve: async (_root, args, ctx) => (await forceUnfollow(ctx, args), true),
    }),
    adminCreateUsers: t.field({
      ...accessOf(createUsers),
      type: [AdminUser],
      description: "All or none: a taken nickname or e-mail fails the whole batch (CONFLICT)",
      args: { users: t.arg({ type: [NewUser], required: true }) },
      resolve: (_root, args, ctx) => createUsers(ctx, { users: args.users }),
    }),
    adminDisableMfa: t.string({
      ...accessOf(disableMfa),
      args: { nickname: t.arg.string({ required: true }) },
      resolve: (_root, args, ctx) => disableMfa(ctx, args),
    }),
    adminPasswordReset: t.field({
      ...accessOf(passwordResetToken),
      type: PasswordReset,
      description: "A password reset token and link for a local user",
      args: { nickname: t.arg.string({ required: true }) },
      resolve: (_root, args, ctx) => passwordResetToken(ctx, args),
    }),
    adminUpdateCredentials: t.field({
      ...accessOf(updateCredentials),
      type: AdminUser,
      args: { nickname: t.arg.string({ required: true }), input: t.arg({ type: CredentialsInput, required: true }) },
      resolve: (_root, { nickname, input }, ctx) =>
        updateCredentials(ctx, {
          nickname,
          email: opt(input.email),
          password: opt(input.password),
          name: opt(input.name),
          bio: opt(input.bio),
          avatar: opt(input.avatar),
          banner: opt(input.banner),
          background: opt(input.background),
          locked: opt(input.locked),
          no_rich_text: opt(input.noRichText),
          default_scope: opt(input.defaultScope),
          hide_follows: opt(input.hideFollows),
          hide_followers: opt(input.hideFollowers),
          hide_followers_count: opt(input.hideFollowersCount),
          hide_follows_count: opt(input.hideFollowsCount),
          hide_favorites: opt(input.hideFavorites),
          allow_following_move: opt(input.allowFollowingMove),
          show_role: opt(input.showRole),
          skip_thread_containment: opt(input.skipThreadContainment),
          is_discoverable: opt(input.isDiscoverable),
          actor_type: opt(input.actorType),
          fields: opt(input.fields),
        }),
    }),
  };
});

builder.subscriptionField("userRegistered", (t) =>
  t.field({
    ...accessOf(showUser),
    type: AdminUser,
    description: "Each local account as it signs up (staff holding users_read)",
    subscribe: (_root, _args, ctx) => {
      guardSubscription(ctx, showUser);
      return ctx.bus.subscribe("account_registered");
    },
    resolve: (event: { accountId: string }, _args, ctx) => showUser(ctx, { nickname_or_id: event.accountId }),
  }),
);
