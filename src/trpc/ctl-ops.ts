// The operations `ctl` may call, by name: each is the domain operation the admin REST/GraphQL route calls,
// with its result reduced to what an operator's terminal or script needs (never password hashes, keys or
// MFA secrets). The tRPC procedure `ctl.run` (a running server) and ctl's own database backend (no
// server) both go through this table, so the two behave alike.
import { randomBytes } from "node:crypto";
import type { Account, Invite, Relay } from "../generated/prisma/client.ts";
import { createLocalAccount, resetPassword, setRoles } from "../domain/accounts/accounts.ops.ts";
import { listInstances } from "../domain/instances/instances.ops.ts";
import { createInvite, emailInvite, invitationLink, listInvites, revokeInvite } from "../domain/invites/invites.ops.ts";
import { followRelay, listRelays, unfollowRelay } from "../domain/relays/relays.ops.ts";
import { disableMfa, passwordResetToken } from "../domain/accounts/admin-credentials.ops.ts";
import { activateUsers, deactivateUsers, deleteUsers, tagUsers, untagUsers } from "../domain/accounts/admin-users.ops.ts";
import { listUsers, showUser } from "../domain/accounts/admin-users.read.ts";
import { getConfig, updateConfig } from "../domain/config/config.ops.ts";
import type { Ctx } from "../domain/context.ts";
import { importPackFolder } from "../domain/emoji/folder-import.ops.ts";
import { listPacks, showPack } from "../domain/emoji/packs.ops.ts";
import { downloadPack, listRemotePacks } from "../domain/emoji/remote.ops.ts";
import { vacuumDatabase } from "../domain/tasks/maintenance.ops.ts";
import { listTasks, showTask, startTask } from "../domain/tasks/tasks.ops.ts";

/** What ctl shows of a user. */
export const userView = (a: Account) => ({
  id: a.id,
  nickname: a.nickname,
  email: a.email,
  local: a.local,
  isAdmin: a.isAdmin,
  isModerator: a.isModerator,
  deactivated: a.deactivated,
  approvalPending: a.approvalPending,
  confirmationPending: a.confirmationPending,
  mfaEnabled: a.mfaEnabled,
  tags: a.tags,
  createdAt: a.createdAt.toISOString(),
});

const inviteView = (ctx: Ctx, i: Invite) => ({
  token: i.token,
  link: invitationLink(ctx, i.token),
  type: i.inviteType,
  maxUse: i.maxUse,
  uses: i.uses,
  used: i.used,
  expiresAt: i.expiresAt?.toISOString().slice(0, 10) ?? null,
});
const relayView = (r: Relay) => ({ actor: r.actor, state: r.state, followedBack: r.followedBack });

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each operation validates its own input
type CtlOp = (ctx: Ctx, input: any) => Promise<unknown>;

export const ctlOps = {
  "users.list": async (ctx, input) => {
    const page = await listUsers(ctx, input);
    return { count: page.count, users: page.users.map(userView) };
  },
  "users.show": async (ctx, input: { nickname: string }) => userView(await showUser(ctx, { nickname_or_id: input.nickname })),
  /** Without a password: a random one, and a password reset link to hand to the new user (the family's `user new`). */
  "users.new": async (ctx, input: { nickname: string; email: string; password?: string; admin?: boolean; moderator?: boolean }) => {
    const user = await createLocalAccount(ctx, { ...input, password: input.password ?? randomBytes(24).toString("base64url") });
    const reset = input.password ? null : await passwordResetToken(ctx, { nickname: user.nickname });
    return { ...userView(user), passwordResetLink: reset?.link ?? null };
  },
  "users.setRoles": async (ctx, input) => userView(await setRoles(ctx, input)),
  "users.activate": async (ctx, input) => (await activateUsers(ctx, input)).map(userView),
  "users.deactivate": async (ctx, input) => (await deactivateUsers(ctx, input)).map(userView),
  "users.delete": async (ctx, input) => (await deleteUsers(ctx, input)).map(userView),
  "users.resetPassword": (ctx, input) => resetPassword(ctx, input),
  "users.resetPasswordLink": (ctx, input) => passwordResetToken(ctx, input),
  "users.resetMfa": async (ctx, input) => ({ nickname: await disableMfa(ctx, input) }),
  "users.tag": async (ctx, input) => (await tagUsers(ctx, input)).map(userView),
  "users.untag": async (ctx, input) => (await untagUsers(ctx, input)).map(userView),

  "invites.list": async (ctx) => (await listInvites(ctx, {})).map((i) => inviteView(ctx, i)),
  "invites.create": async (ctx, input) => inviteView(ctx, await createInvite(ctx, input)),
  "invites.revoke": async (ctx, input) => inviteView(ctx, await revokeInvite(ctx, input)),
  "invites.email": async (ctx, input) => {
    await emailInvite(ctx, input);
    return { sent: input.email };
  },

  "emoji.list": (ctx, input: { remote?: string; page?: number; page_size?: number }) =>
    input.remote ? listRemotePacks(ctx, { url: input.remote, page: input.page, page_size: input.page_size }) : listPacks(ctx, { page: input.page, page_size: input.page_size }),
  "emoji.show": (ctx, input) => showPack(ctx, input),
  "emoji.get": async (ctx, input) => {
    const pack = await downloadPack(ctx, input);
    return { name: pack.name, files: Object.keys(pack.files).length };
  },
  "emoji.import": (ctx, input) => importPackFolder(ctx, input),

  "instances.list": (ctx, input) => listInstances(ctx, input),
  "relays.list": async (ctx) => (await listRelays(ctx, {})).map(relayView),
  "relays.follow": async (ctx, input) => relayView(await followRelay(ctx, input)),
  "relays.unfollow": async (ctx, input) => ({ unfollowed: await unfollowRelay(ctx, input) }),

  "config.dump": (ctx, input) => getConfig(ctx, input),
  "config.load": (ctx, input) => updateConfig(ctx, input),

  "db.vacuum": (ctx, input) => vacuumDatabase(ctx, input),
  "tasks.start": (ctx, input) => startTask(ctx, input),
  "tasks.show": (ctx, input) => showTask(ctx, input),
  "tasks.list": (ctx) => listTasks(ctx, {}),
} satisfies Record<string, CtlOp>;

export type CtlOpName = keyof typeof ctlOps;
export const ctlOpNames = Object.keys(ctlOps) as [CtlOpName, ...CtlOpName[]];
