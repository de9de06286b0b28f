// What staff do to users through the admin API: create, delete, force follows, activation, approval,
// suggestions, tags, permission groups and e-mail confirmation. Every action writes its
// moderation-log entry (src/domain/moderation-log/log.ts) in the same transaction as its change.
import { z } from "zod";
import { newId } from "../../db/ids.ts";
import type { Account, Prisma } from "../../generated/prisma/client.ts";
import { DELETE_ACCOUNT_JOB } from "./account-actions.ops.ts";
import { localApId, NICKNAME_RE } from "./accounts.ops.ts";
import { resolveRemoteAccount } from "./accounts.read.ts";
import { findAccountByIdOrNickname } from "./lookup.ts";
import { sendConfirmation } from "./registration.ops.ts";
import { hashPassword } from "../auth/passwords.ts";
import type { Ctx } from "../context.ts";
import { DomainError, Forbidden } from "../../kernel/errors.ts";
import { array, isEmailAddress } from "../inputs.ts";
import { logAction, type LogAction } from "../moderation-log/log.ts";
import { operation } from "../operation.ts";
import type { AccessRule } from "../auth/access.ts";
import { followAs, unfollowAs } from "../relationships/follows.ops.ts";
import { findUsers, getUser, getUsers, permissionGroup } from "./admin-users.read.ts";
import { accountsByName } from "../../db/account-names.ts";

type Tx = Prisma.TransactionClient;

const nicknames = z.object({ nicknames: array(z.string()) });

/** Runs `change` on the users and logs `entry` in one transaction; answers the users as they are now. */
async function changeUsers(ctx: Ctx, users: Account[], change: (tx: Tx, ids: string[]) => Promise<unknown>, entry: LogAction): Promise<Account[]> {
  if (users.length === 0) return []; // an empty list changes nothing and leaves no entry
  const ids = users.map((u) => u.id);
  return ctx.db.$transaction(async (tx) => {
    await change(tx, ids);
    await logAction(ctx, entry, tx);
    const rows = await tx.account.findMany({ where: { id: { in: ids } } });
    return ids.map((id) => rows.find((r) => r.id === id)!);
  });
}

const writeAccounts = ["admin:write:accounts"];

type FlagLog = "activate" | "deactivate" | "approve" | "add_suggestion" | "remove_suggestion" | "confirm_email" | "force_password_reset";

/** A batch action setting the same columns on every user named, with its log entry. */
function flagAction(name: string, access: AccessRule, data: Prisma.AccountUpdateManyMutationInput, action: FlagLog) {
  return operation({
    name,
    access,
    input: nicknames,
    async run(ctx, input) {
      const users = await getUsers(ctx, input.nicknames);
      return changeUsers(ctx, users, (tx, ids) => tx.account.updateMany({ where: { id: { in: ids } }, data }), { action, subjects: users });
    },
  });
}

export const activateUsers = flagAction("admin.activateUsers", { scopes: writeAccounts, privilege: "users_manage_activation_state" }, { deactivated: false }, "activate");
export const deactivateUsers = flagAction("admin.deactivateUsers", { scopes: writeAccounts, privilege: "users_manage_activation_state" }, { deactivated: true }, "deactivate");
export const approveUsers = flagAction("admin.approveUsers", { scopes: writeAccounts, privilege: "users_manage_invites" }, { approvalPending: false }, "approve");
export const suggestUsers = flagAction("admin.suggestUsers", { scopes: writeAccounts, role: "admin" }, { isSuggested: true }, "add_suggestion");
export const unsuggestUsers = flagAction("admin.unsuggestUsers", { scopes: writeAccounts, role: "admin" }, { isSuggested: false }, "remove_suggestion");
export const confirmUsersEmail = flagAction("admin.confirmEmail", { scopes: ["admin:write"], privilege: "users_manage_credentials" }, { confirmationPending: false }, "confirm_email");
/** The user must choose a new password before signing in again (src/domain/auth/sign-in.ts refuses until then). */
export const forcePasswordReset = flagAction("admin.forcePasswordReset", { scopes: writeAccounts, privilege: "users_manage_credentials" }, { passwordResetPending: true }, "force_password_reset");

export const toggleActivation = operation({
  name: "admin.toggleActivation",
  access: { scopes: ["admin:write:accounts"], privilege: "users_manage_activation_state" },
  input: z.object({ nickname: z.string() }),
  async run(ctx, input) {
    const user = await getUser(ctx, input.nickname);
    const deactivated = !user.deactivated;
    const [updated] = await changeUsers(ctx, [user], (tx, ids) => tx.account.updateMany({ where: { id: { in: ids } }, data: { deactivated } }), {
      action: deactivated ? "deactivate" : "activate",
      subjects: [user],
    });
    return updated!;
  },
});

/** Sends a new confirmation link to those still waiting for one (with an address to send it to). */
export const resendConfirmationEmail = operation({
  name: "admin.resendConfirmationEmail",
  access: { scopes: ["admin:write"], privilege: "users_manage_credentials" },
  input: nicknames,
  async run(ctx, input) {
    const users = await getUsers(ctx, input.nicknames);
    for (const user of users) {
      if (user.local && user.email && user.confirmationPending) await sendConfirmation(ctx, { ...user, email: user.email });
    }
    if (users.length) await logAction(ctx, { action: "resend_confirmation_email", subjects: users });
    return users;
  },
});

// ---- tags

const tagInput = nicknames.extend({ tags: array(z.string()) });
/** The family stores tags in lower case. */
const normalizeTags = (tags: string[]) => [...new Set(tags.map((t) => t.trim().toLowerCase()).filter(Boolean))];

function tagAction(name: string, action: "tag" | "untag") {
  return operation({
    name,
    access: { scopes: ["admin:write:accounts"], privilege: "users_manage_tags" },
    input: tagInput,
    async run(ctx, input) {
      // unknown nicknames are skipped, as the family's bulk tagging does
      const users = await findUsers(ctx, input.nicknames);
      const tags = normalizeTags(input.tags);
      const next = (current: string[]) => (action === "tag" ? [...new Set([...current, ...tags])] : current.filter((t) => !tags.includes(t)));
      return changeUsers(
        ctx,
        users,
        async (tx, ids) => {
          const rows = await tx.account.findMany({ where: { id: { in: ids } }, select: { id: true, tags: true } });
          for (const row of rows) await tx.account.update({ where: { id: row.id }, data: { tags: next(row.tags) } });
        },
        { action, subjects: users, tags: input.tags },
      );
    },
  });
}

export const tagUsers = tagAction("admin.tagUsers", "tag");
export const untagUsers = tagAction("admin.untagUsers", "untag");

// ---- permission groups

const groupInput = nicknames.extend({ permission_group: z.string() });

/** Grants `admin` or `moderator` to the users named; answers them as they are now. */
export const grantPermission = operation({
  name: "admin.grantPermission",
  access: { scopes: ["admin:write:accounts"], role: "admin" },
  input: groupInput,
  async run(ctx, input) {
    const group = permissionGroup(input.permission_group);
    const users = await getUsers(ctx, input.nicknames);
    const data = group === "admin" ? { isAdmin: true } : { isModerator: true };
    return changeUsers(ctx, users, (tx, ids) => tx.account.updateMany({ where: { id: { in: ids } }, data }), { action: "grant", subjects: users, permission: group });
  },
});

export const CANT_REVOKE_SELF = "You can't revoke your own admin/moderator status.";

/** Revokes `admin` or `moderator`; nobody revokes their own, whichever form they use. */
export const revokePermission = operation({
  name: "admin.revokePermission",
  access: { scopes: ["admin:write:accounts"], role: "admin" },
  input: groupInput,
  async run(ctx, input) {
    const group = permissionGroup(input.permission_group);
    const users = await getUsers(ctx, input.nicknames);
    if (ctx.viewer.account && users.some((u) => u.id === ctx.viewer.account!.id)) throw Forbidden(CANT_REVOKE_SELF);
    const data = group === "admin" ? { isAdmin: false } : { isModerator: false };
    return changeUsers(ctx, users, (tx, ids) => tx.account.updateMany({ where: { id: { in: ids } }, data }), { action: "revoke", subjects: users, permission: group });
  },
});

// ---- follows

const followInput = z.object({ follower: z.string(), followed: z.string() });

/** The follower follows through the ordinary follow rules (blocks, locked accounts), acting as themselves. */
export const forceFollow = operation({
  name: "admin.follow",
  access: { scopes: ["admin:write:follows"], role: "admin" },
  input: followInput,
  async run(ctx, input) {
    const follower = await getUser(ctx, input.follower);
    // a remote account to follow is fetched when not stored yet, as the family does
    const followed = (await findAccountByIdOrNickname(ctx, input.followed)) ?? (await resolveRemoteAccount(ctx, input.followed)) ?? (await getUser(ctx, input.followed));
    await followAs(ctx, follower, followed);
    await logAction(ctx, { action: "follow", follower, followed });
  },
});

export const forceUnfollow = operation({
  name: "admin.unfollow",
  access: { scopes: ["admin:write:follows"], role: "admin" },
  input: followInput,
  async run(ctx, input) {
    const [follower, followed] = [await getUser(ctx, input.follower), await getUser(ctx, input.followed)];
    await unfollowAs(ctx, follower, followed);
    await logAction(ctx, { action: "unfollow", follower, followed });
  },
});

// ---- delete

/**
 * Deactivates the users at once (their tokens and sessions stop working) and queues, per user, the
 * durable job that removes their data — the job of self-service account deletion.
 */
export const deleteUsers = operation({
  name: "admin.deleteUsers",
  access: { scopes: ["admin:write:accounts"], privilege: "users_delete" },
  input: nicknames,
  async run(ctx, input) {
    const users = await getUsers(ctx, input.nicknames);
    const deleted = await changeUsers(ctx, users, (tx, ids) => tx.account.updateMany({ where: { id: { in: ids } }, data: { deactivated: true } }), { action: "delete", subjects: users });
    for (const user of deleted) await ctx.jobs.enqueue(DELETE_ACCOUNT_JOB, { accountId: user.id });
    return deleted;
  },
});

/**
 * Rejects sign-ups waiting for approval: the accounts go, as deletion takes them (the reference admin
 * API's reject). Accounts not waiting are refused, so an approved account is never deleted by it.
 */
export const rejectUsers = operation({
  name: "admin.rejectUsers",
  access: { scopes: ["admin:write:accounts"], privilege: "users_manage_invites" },
  input: nicknames,
  async run(ctx, input) {
    const users = await getUsers(ctx, input.nicknames);
    if (users.some((u) => !u.approvalPending)) throw Forbidden("This account is not pending approval");
    const rejected = await changeUsers(ctx, users, (tx, ids) => tx.account.updateMany({ where: { id: { in: ids } }, data: { deactivated: true } }), { action: "reject", subjects: users });
    for (const user of rejected) await ctx.jobs.enqueue(DELETE_ACCOUNT_JOB, { accountId: user.id });
    return rejected;
  },
});

// ---- create

export interface CreateItemResult {
  code: number;
  type: "success" | "error";
  data: { nickname: string; email: string };
  error?: string;
}

/** 409 of a batch creation: one item per user asked for, the failing ones with their reasons. */
export class CreateUsersConflict extends DomainError {
  constructor(readonly items: CreateItemResult[]) {
    super("conflict", items.map((i) => i.error).filter(Boolean).join(", "));
  }
}

const newUser = z.object({ nickname: z.string(), email: z.string(), password: z.string() });

/** The family's changeset messages for one new user ("" when it is fine). */
function userProblems(user: z.output<typeof newUser>, taken: { nicknames: Set<string>; emails: Set<string> }): string {
  const problems: string[] = [];
  if (!NICKNAME_RE.test(user.nickname)) problems.push("nickname has invalid format");
  else if (taken.nicknames.has(user.nickname.toLowerCase())) problems.push("nickname has already been taken");
  if (!isEmailAddress(user.email)) problems.push("email has invalid format");
  else if (taken.emails.has(user.email.toLowerCase())) problems.push("email has already been taken");
  if (!user.password) problems.push("password can't be blank");
  else if (user.password.length > 1024) problems.push("password should be at most 1024 character(s)");
  return problems.join(", ");
}

/**
 * Creates confirmed, approved local users, all or none: any problem (a taken nickname or e-mail,
 * also within the batch) answers 409 with every item, the others carrying an empty error.
 */
export const createUsers = operation({
  name: "admin.createUsers",
  access: { scopes: ["admin:write:accounts"], role: "admin" },
  input: z.object({ users: z.array(newUser).min(1) }),
  async run(ctx, input) {
    const conflict = async () => {
      const clashes = await accountsByName(ctx.db, { nicknames: input.users.map((u) => u.nickname), emails: input.users.map((u) => u.email) });
      const taken = { nicknames: new Set(clashes.map((c) => c.nickname.toLowerCase())), emails: new Set(clashes.flatMap((c) => (c.email ? [c.email.toLowerCase()] : []))) };
      const items = input.users.map((u): CreateItemResult => {
        const error = userProblems(u, taken);
        // later items of the batch clash with earlier ones
        taken.nicknames.add(u.nickname.toLowerCase());
        taken.emails.add(u.email.toLowerCase());
        return { code: 409, type: "error", data: { nickname: u.nickname, email: u.email }, error };
      });
      return items.some((i) => i.error) ? new CreateUsersConflict(items) : null;
    };
    const problem = await conflict();
    if (problem) throw problem;

    const rows = await Promise.all(
      input.users.map(async (u) => ({
        id: newId(ctx.clock().getTime()),
        nickname: u.nickname,
        email: u.email,
        passwordHash: await hashPassword(u.password),
        apId: localApId(ctx, u.nickname),
        displayName: u.nickname,
        createdAt: ctx.clock(),
      })),
    );
    try {
      return await ctx.db.$transaction(async (tx) => {
        const created: Account[] = [];
        for (const data of rows) created.push(await tx.account.create({ data }));
        await logAction(ctx, { action: "create", subjects: created }, tx);
        return created;
      });
    } catch (error) {
      // a concurrent request took a nickname or e-mail between the check and the inserts
      if ((error as { code?: string }).code === "P2002") throw (await conflict()) ?? error;
      throw error;
    }
  },
});
