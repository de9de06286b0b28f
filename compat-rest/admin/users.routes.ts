// Admin API: users (the spec's Users table). Scopes and privileges per route are the family's
// (notes/pleroma-endpoints.tsv); the operations check the privilege again, for GraphQL.
// `adminUserLookupRoutes` holds GET /users/:nickname_or_id, which must be mounted after every fixed
// GET /users/<word> path of any array (invites, …).
import { z } from "zod";
import {
  activateUsers,
  approveUsers,
  confirmUsersEmail,
  createUsers,
  CreateUsersConflict,
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
} from "../../src/domain/accounts/admin-users.ops.ts";
import { disableMfa, passwordResetToken, showCredentials, updateCredentials, credentialsInput } from "../../src/domain/accounts/admin-credentials.ops.ts";
import { getPermissionGroups, listUsers, listUsersInput, showUser, userStatuses, userStatusesInput } from "../../src/domain/accounts/admin-users.read.ts";
import { Invalid } from "../../src/kernel/errors.ts";
import { array } from "../../src/domain/inputs.ts";
import { route } from "../../src/http/routes/route.ts";
import { renderAdminUser, renderAdminUsers, renderCreated, renderCredentials } from "../../src/views/admin-user.ts";
import { renderStatuses } from "../../src/views/status.ts";
import { admin } from "./paths.ts";
import { AdminActivitiesSchema, AdminCredentialsSchema, AdminUserSchema, AdminUsersPageSchema, AdminUsersSchema, DeletedUsersSchema, NicknamesSchema } from "../../src/views/schemas/admin.ts";
import { SuccessSchema } from "../../src/views/schemas/own.ts";
import { OkSchema } from "../../src/views/schemas/misc.ts";
import { CreatedUsersSchema, NicknameSchema, PasswordResetLinkSchema, PermissionFlagSchema, PermissionGroupsSchema } from "../../src/views/schemas/tools.ts";

const tags = ["Admin: users"];
const nickname = z.object({ nickname: z.string() });
const nicknameOrId = z.object({ nickname_or_id: z.string() });
const nicknames = z.object({ nicknames: array(z.string()) });
const group = z.object({ permission_group: z.string() });
const nicknameAndGroup = nickname.extend({ permission_group: z.string() });

/** The family answers a permission change with the one flag it set: `{is_admin: true}`. */
const groupFlag = (group: string, value: boolean) => ({ [`is_${group}`]: value });

/** PATCH /users/<action> {nicknames} → {users: [...]} */
function batch(path: string, summary: string, op: typeof activateUsers) {
  return route({
    method: "PATCH",
    path: admin(path),
    view: AdminUsersSchema,
    summary,
    tags,
    operation: op,
    body: nicknames,
    async handler(ctx, { body }) {
      return { users: renderAdminUsers(ctx, await op(ctx, body)) };
    },
  });
}

export const adminUserRoutes = [
  route({
    method: "GET",
    path: admin("/users"),
    view: AdminUsersPageSchema,
    summary: "Users, ordered by nickname: query, filters (local, external, active, need_approval, unconfirmed, deactivated, is_admin, is_moderator; comma-separated, combined), tags, actor_types, name, email, page, page_size (50)",
    tags,
    operation: listUsers,
    query: listUsersInput.omit({ offset: true }),
    async handler(ctx, { query }) {
      const page = await listUsers(ctx, query);
      return { page_size: page.pageSize, count: page.count, users: renderAdminUsers(ctx, page.users) };
    },
  }),
  route({
    method: "POST",
    path: admin("/users"),
    view: CreatedUsersSchema,
    summary: "Create users {users: [{nickname, email, password}]}, all or none; 409 lists every item with the failing ones' errors",
    tags,
    operation: createUsers,
    body: createUsers.input,
    errors: (error) => (error instanceof CreateUsersConflict ? { status: 409, body: error.items } : undefined),
    async handler(ctx, { body }) {
      return (await createUsers(ctx, body)).map(renderCreated);
    },
  }),
  route({
    method: "DELETE",
    path: admin("/users"),
    view: DeletedUsersSchema,
    summary: "Delete users (nicknames: array → the nicknames; deprecated nickname → that nickname): deactivated at once, their data removed by a background job",
    tags,
    operation: deleteUsers,
    body: z.object({ nickname: z.string().optional(), nicknames: array(z.string()).optional() }),
    async handler(ctx, { body }) {
      if (body.nicknames?.length) return (await deleteUsers(ctx, { nicknames: body.nicknames })).map((u) => u.nickname);
      if (body.nickname) return (await deleteUsers(ctx, { nicknames: [body.nickname] }))[0]!.nickname;
      throw Invalid("Missing field: nicknames.", { nicknames: "Missing field: nicknames." });
    },
  }),
  route({
    method: "POST",
    path: admin("/users/follow"),
    view: OkSchema,
    summary: "Make `follower` follow `followed` (nicknames), under the ordinary follow rules",
    tags,
    operation: forceFollow,
    body: forceFollow.input,
    async handler(ctx, { body }) {
      await forceFollow(ctx, body);
      return "ok";
    },
  }),
  route({
    method: "POST",
    path: admin("/users/unfollow"),
    view: OkSchema,
    summary: "Make `follower` unfollow `followed` (nicknames)",
    tags,
    operation: forceUnfollow,
    body: forceUnfollow.input,
    async handler(ctx, { body }) {
      await forceUnfollow(ctx, body);
      return "ok";
    },
  }),
  route({
    method: "PUT",
    path: admin("/users/tag"),
    summary: "Add tags to users (nicknames, tags); 204",
    tags,
    operation: tagUsers,
    body: tagUsers.input,
    status: 204,
    async handler(ctx, { body }) {
      await tagUsers(ctx, body);
      return undefined;
    },
  }),
  route({
    method: "DELETE",
    path: admin("/users/tag"),
    summary: "Remove tags from users (nicknames, tags); 204",
    tags,
    operation: untagUsers,
    body: untagUsers.input,
    status: 204,
    async handler(ctx, { body }) {
      await untagUsers(ctx, body);
      return undefined;
    },
  }),
  batch("/users/activate", "Activate users {nicknames} → {users}", activateUsers),
  batch("/users/deactivate", "Deactivate users {nicknames} → {users}", deactivateUsers),
  batch("/users/approve", "Approve users awaiting approval {nicknames} → {users}", approveUsers),
  batch("/users/suggest", "Add users to the follow suggestions {nicknames} → {users}", suggestUsers),
  batch("/users/unsuggest", "Remove users from the follow suggestions {nicknames} → {users}", unsuggestUsers),
  route({
    method: "PATCH",
    path: admin("/users/confirm_email"),
    view: NicknamesSchema,
    summary: "Confirm users' e-mail addresses {nicknames} → the nicknames",
    tags,
    operation: confirmUsersEmail,
    body: nicknames,
    async handler(ctx, { body }) {
      return (await confirmUsersEmail(ctx, body)).map((u) => u.nickname);
    },
  }),
  route({
    method: "PATCH",
    path: admin("/users/resend_confirmation_email"),
    view: NicknamesSchema,
    summary: "Send the confirmation e-mail again to users still unconfirmed {nicknames} → the nicknames",
    tags,
    operation: resendConfirmationEmail,
    body: nicknames,
    async handler(ctx, { body }) {
      return (await resendConfirmationEmail(ctx, body)).map((u) => u.nickname);
    },
  }),
  route({
    method: "PATCH",
    path: admin("/users/force_password_reset"),
    summary: "Make users choose a new password before they sign in again {nicknames}; 204",
    tags,
    operation: forcePasswordReset,
    body: nicknames,
    status: 204,
    async handler(ctx, { body }) {
      await forcePasswordReset(ctx, body);
      return undefined;
    },
  }),
  route({
    method: "PUT",
    path: admin("/users/disable_mfa"),
    view: NicknameSchema,
    summary: "Turn a user's multi-factor sign-in off {nickname} → the nickname",
    tags,
    operation: disableMfa,
    body: nickname,
    handler: (ctx, { body }) => disableMfa(ctx, body),
  }),
  // permission groups: the multiple forms (fixed paths) first
  route({
    method: "POST",
    path: admin("/users/permission_group/:permission_group"),
    view: PermissionFlagSchema,
    summary: "Grant admin or moderator to users {nicknames} → {is_<group>: true}; another group is 404",
    tags,
    operation: grantPermission,
    params: group,
    body: nicknames,
    async handler(ctx, { params, body }) {
      await grantPermission(ctx, { ...body, ...params });
      return groupFlag(params.permission_group, true);
    },
  }),
  route({
    method: "DELETE",
    path: admin("/users/permission_group/:permission_group"),
    view: PermissionFlagSchema,
    summary: "Revoke admin or moderator from users {nicknames} → {is_<group>: false}; 403 when the list names yourself",
    tags,
    operation: revokePermission,
    params: group,
    body: nicknames,
    async handler(ctx, { params, body }) {
      await revokePermission(ctx, { ...body, ...params });
      return groupFlag(params.permission_group, false);
    },
  }),
  route({
    method: "GET",
    path: admin("/users/:nickname/permission_group", "/users/:nickname/permission_group/:permission_group"),
    view: PermissionGroupsSchema,
    summary: "A user's permission groups {is_moderator, is_admin}; a group other than admin or moderator is 404",
    tags,
    operation: getPermissionGroups,
    params: nickname.extend({ permission_group: z.string().optional() }),
    handler: (ctx, { params }) => getPermissionGroups(ctx, params),
  }),
  route({
    method: "POST",
    path: admin("/users/:nickname/permission_group/:permission_group"),
    view: PermissionFlagSchema,
    summary: "Grant admin or moderator to one user (deprecated form) → {is_<group>: true}",
    tags,
    operation: grantPermission,
    params: nicknameAndGroup,
    async handler(ctx, { params }) {
      await grantPermission(ctx, { nicknames: [params.nickname], permission_group: params.permission_group });
      return groupFlag(params.permission_group, true);
    },
  }),
  route({
    method: "DELETE",
    path: admin("/users/:nickname/permission_group/:permission_group"),
    view: PermissionFlagSchema,
    summary: "Revoke admin or moderator from one user → {is_<group>: false}; 403 for yourself",
    tags,
    operation: revokePermission,
    params: nicknameAndGroup,
    async handler(ctx, { params }) {
      await revokePermission(ctx, { nicknames: [params.nickname], permission_group: params.permission_group });
      return groupFlag(params.permission_group, false);
    },
  }),
  route({
    method: "PATCH",
    path: admin("/users/:nickname/toggle_activation"),
    view: AdminUserSchema,
    summary: "Activate a deactivated user or deactivate an active one → the user",
    tags,
    operation: toggleActivation,
    params: nickname,
    async handler(ctx, { params }) {
      return renderAdminUser(ctx, await toggleActivation(ctx, params));
    },
  }),
  route({
    method: "GET",
    path: admin("/users/:nickname_or_id/statuses"),
    view: AdminActivitiesSchema,
    summary: "A user's statuses {total, activities}: page, page_size (20), godmode (private and direct too), with_reblogs (false)",
    tags,
    operation: userStatuses,
    params: nicknameOrId,
    query: userStatusesInput.omit({ nickname_or_id: true, offset: true }),
    async handler(ctx, { params, query }) {
      const { total, statuses } = await userStatuses(ctx, { ...query, ...params });
      return { total, activities: await renderStatuses(ctx, statuses) };
    },
  }),
  route({
    method: "GET",
    path: admin("/users/:nickname/password_reset"),
    view: PasswordResetLinkSchema,
    summary: "A password reset token and link for a local user {token, link}",
    tags,
    operation: passwordResetToken,
    params: nickname,
    handler: (ctx, { params }) => passwordResetToken(ctx, params),
  }),
  route({
    method: "GET",
    path: admin("/users/:nickname/credentials"),
    view: AdminCredentialsSchema,
    summary: "A user's credentials (profile and sign-in details)",
    tags,
    operation: showCredentials,
    params: nickname,
    async handler(ctx, { params }) {
      return renderCredentials(ctx, await showCredentials(ctx, params));
    },
  }),
  route({
    method: "PATCH",
    path: admin("/users/:nickname/credentials"),
    view: SuccessSchema,
    summary: "Edit a user's credentials → {status: success}; 400 {errors: {field: message}}; a new password must be changed at next sign-in",
    tags,
    operation: updateCredentials,
    params: nickname,
    body: credentialsInput.omit({ nickname: true }),
    errors: (error) => (error.kind === "invalid" && error.fields ? { status: 400, body: { errors: error.fields } } : undefined),
    async handler(ctx, { params, body }) {
      await updateCredentials(ctx, { ...body, ...params });
      return { status: "success" };
    },
  }),
];

/** GET /users/:nickname_or_id: mounted after every fixed GET /users/<word> route. */
export const adminUserLookupRoutes = [
  route({
    method: "GET",
    path: admin("/users/:nickname_or_id"),
    view: AdminUserSchema,
    summary: "One user by nickname or id; 404 {error: Not found}",
    tags,
    operation: showUser,
    params: nicknameOrId,
    async handler(ctx, { params }) {
      return renderAdminUser(ctx, await showUser(ctx, params));
    },
  }),
];
