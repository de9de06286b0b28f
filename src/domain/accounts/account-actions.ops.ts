// What a signed-in user does to their own account (change password or e-mail, delete or disable it,
// aliases, notification settings) and the e-mailed password reset. Messages are the family's.
import { z } from "zod";
import { bool, isEmailAddress } from "../inputs.ts";
import { Prisma, type Account } from "../../generated/prisma/client.ts";
import { removeStored } from "../../media/storage.ts";
import { passwordResetMail } from "../../mail/templates.ts";
import { hashPassword } from "../auth/passwords.ts";
import { passwordMatches } from "../auth/sign-in.ts";
import { attemptTarget, chargeAttempt } from "../auth/password-throttle.ts";
import { accountByName } from "../../db/account-names.ts";
import { requireAccount } from "../auth/policy.ts";
import type { Ctx } from "../context.ts";
import { deletedStatusesWhere } from "../streams/streams.read.ts";
import { Forbidden, Invalid, NotFound, Unprocessable } from "../../kernel/errors.ts";
import { federate, hasRemoteFollowers, remoteInboxesAround } from "../federation/outbox.ts";
import { operation } from "../operation.ts";
import { consumeAccountToken, findUsableAccountToken, isRecordNotFound, issueAccountToken } from "./account-tokens.ts";
import { mailSettings } from "./registration.ops.ts";
import { allStatusesChanged } from "../statuses/status-cache.ts";
import { statusCountsChanged } from "./account-counts.ts";

export const DELETE_ACCOUNT_JOB = "accounts.delete";

const text = z.string().optional().nullable();

/** The viewer's own local account, re-read, once the current password is confirmed. */
export async function confirmPassword(ctx: Ctx, password: string | null | undefined): Promise<Account> {
  const viewer = requireAccount(ctx);
  const account = await ctx.db.account.findUnique({ where: { id: viewer.id } });
  // verify even without a hash, so the answer takes as long either way
  const ok = await passwordMatches(ctx, account ?? { id: viewer.id, passwordHash: null }, password ?? "");
  if (!account?.local || !ok) throw Forbidden("Invalid password.");
  return account;
}

/** New password + signing out everywhere (tokens, authorizations, browser sessions), as one batch. */
function passwordStatements(ctx: Ctx, accountId: string, passwordHash: string) {
  return [
    ctx.db.account.update({ where: { id: accountId }, data: { passwordHash, passwordResetPending: false } }),
    ctx.db.oAuthToken.deleteMany({ where: { accountId } }),
    ctx.db.oAuthAuthorization.deleteMany({ where: { accountId } }),
    ctx.db.session.deleteMany({ where: { accountId } }),
  ] as const;
}

/** The family's "New password …" messages; null when the pair is acceptable. */
function newPasswordProblem(password: string | null | undefined, confirmation: string | null | undefined): string | null {
  if (!password) return "can't be blank";
  if (password.length > 1024) return "is too long";
  if (password !== confirmation) return "does not match confirmation";
  return null;
}

export const changePassword = operation({
  name: "accounts.changePassword",
  access: { scopes: ["write:accounts"] },
  input: z.object({ password: text, new_password: text, new_password_confirmation: text }),
  async run(ctx, input) {
    const account = await confirmPassword(ctx, input.password);
    const problem = newPasswordProblem(input.new_password, input.new_password_confirmation);
    if (problem) throw Invalid(`New password ${problem}.`);
    await ctx.db.$transaction([...passwordStatements(ctx, account.id, await hashPassword(input.new_password!))]);
  },
});

export const changeEmail = operation({
  name: "accounts.changeEmail",
  access: { scopes: ["write:accounts"] },
  input: z.object({ password: text, email: text }),
  async run(ctx, input) {
    const account = await confirmPassword(ctx, input.password);
    const email = input.email?.trim() ?? "";
    if (!email) throw Invalid("Email can't be blank.");
    if (!isEmailAddress(email) || email.length > 254) throw Invalid("Email has invalid format.");
    const clash = await accountByName(ctx.db, { emails: [email], notId: account.id });
    if (clash) throw Unprocessable("Email has already been taken.");
    try {
      await ctx.db.account.update({ where: { id: account.id }, data: { email } });
    } catch (error) {
      if ((error as { code?: string }).code === "P2002") throw Unprocessable("Email has already been taken.");
      throw error;
    }
  },
});

/**
 * Deactivates the account at once (its tokens and sessions stop working) and queues the durable
 * job that removes its data. The row stays as a tombstone so the nickname is never handed out again.
 */
export const deleteOwnAccount = operation({
  name: "accounts.deleteOwn",
  access: { scopes: ["write:accounts"] },
  input: z.object({ password: text }),
  async run(ctx, input) {
    const account = await confirmPassword(ctx, input.password);
    await ctx.db.account.update({ where: { id: account.id }, data: { deactivated: true } });
    await ctx.jobs.enqueue(DELETE_ACCOUNT_JOB, { accountId: account.id });
  },
});

/** The job's work; safe to run again after a crash half-way. */
export async function purgeAccount(ctx: Pick<Ctx, "db" | "settings" | "bus" | "jobs">, accountId: string) {
  const { db } = ctx;
  const account = await db.account.findUnique({ where: { id: accountId } });
  if (!account) return;
  // federation: the Delete of a local actor goes to the remote accounts around it, known now, before
  // the follows go (a re-run after a crash finds none left, and the first run already queued it)
  if (account.local) {
    const inboxes = await remoteInboxesAround(ctx, account.id);
    if (inboxes.length) await federate(ctx, { type: "actor.deleted", accountId: account.id, inboxes });
  }
  const media = await db.mediaAttachment.findMany({ where: { accountId }, select: { url: true } });
  const gone = await deletedStatusesWhere(ctx, { accountId });
  await db.$transaction([
    // the account's content: statuses (their mentions, tags, reblogs, favourites… cascade), its
    // actions on other statuses, its notifications both ways and its private collections
    db.status.deleteMany({ where: { accountId } }),
    db.favourite.deleteMany({ where: { accountId } }),
    db.bookmark.deleteMany({ where: { accountId } }),
    db.reaction.deleteMany({ where: { accountId } }),
    db.pollVote.deleteMany({ where: { accountId } }),
    db.notification.deleteMany({ where: { OR: [{ accountId }, { fromAccountId: accountId }] } }),
    db.scheduledStatus.deleteMany({ where: { accountId } }),
    db.mediaAttachment.deleteMany({ where: { accountId } }),
    db.list.deleteMany({ where: { accountId } }),
    db.listMember.deleteMany({ where: { accountId } }),
    db.filter.deleteMany({ where: { accountId } }),
    db.marker.deleteMany({ where: { accountId } }),
    db.conversationParticipation.deleteMany({ where: { accountId } }),
    db.oAuthToken.deleteMany({ where: { accountId } }),
    db.oAuthAuthorization.deleteMany({ where: { accountId } }),
    db.session.deleteMany({ where: { accountId } }),
    db.accountToken.deleteMany({ where: { accountId } }),
    db.follow.deleteMany({ where: { OR: [{ followerId: accountId }, { followingId: accountId }] } }),
    db.userRelationship.deleteMany({ where: { OR: [{ sourceId: accountId }, { targetId: accountId }] } }),
    db.accountNote.deleteMany({ where: { OR: [{ authorId: accountId }, { targetId: accountId }] } }),
    db.domainBlock.deleteMany({ where: { accountId } }),
    // the family's "right to be forgotten" purge: id, ap_id and nickname are all that remain
    db.account.update({
      where: { id: accountId },
      data: {
        deactivated: true,
        email: null,
        passwordHash: null,
        displayName: "",
        note: "",
        avatar: null,
        header: null,
        background: null,
        backgroundDescription: null,
        fields: [],
        tags: [],
        alsoKnownAs: [],
        settingsStore: {},
        registrationReason: null,
        isAdmin: false,
        isModerator: false,
        isSuggested: false,
        locked: false,
        discoverable: false,
        passwordResetPending: false,
        language: null,
        emojis: [],
        mascot: Prisma.DbNull,
      },
    }),
  ]);
  // its favourites, reblogs, reactions, votes and replies counted on statuses anywhere
  allStatusesChanged(ctx);
  statusCountsChanged(ctx, gone); // its statuses_count
  for (const d of gone) ctx.bus.publish("status_deleted", d);
  for (const url of [...media.map((m) => m.url), account.avatar, account.header, account.background]) await removeStored(ctx, url);
}

export const disableOwnAccount = operation({
  name: "accounts.disableOwn",
  access: { scopes: ["write:accounts"] },
  input: z.object({ password: text }),
  async run(ctx, input) {
    const account = await confirmPassword(ctx, input.password);
    await ctx.db.account.update({ where: { id: account.id }, data: { deactivated: true } });
  },
});

// ---- aliases

/** `name@host`, `@name@host` or a local `name` → the known account, or 404. */
async function aliasTarget(ctx: Ctx, alias: string): Promise<Account> {
  let handle = alias.trim().replace(/^@/, "");
  if (handle.toLowerCase().endsWith(`@${ctx.settings.domain.toLowerCase()}`)) handle = handle.slice(0, -ctx.settings.domain.length - 1);
  const account = handle ? await accountByName(ctx.db, { nicknames: [handle] }) : null;
  if (!account) throw NotFound("Target account does not exist.");
  return account;
}

/** The family's full nickname: local accounts get this server's domain. */
export function fullNickname(ctx: Pick<Ctx, "settings">, account: Pick<Account, "nickname" | "local">) {
  return account.local ? `${account.nickname}@${ctx.settings.domain}` : account.nickname;
}

export const listAliases = operation({
  name: "accounts.listAliases",
  access: { scopes: ["read:accounts"] },
  input: z.object({}),
  async run(ctx) {
    const viewer = requireAccount(ctx);
    const { alsoKnownAs } = await ctx.db.account.findUniqueOrThrow({ where: { id: viewer.id }, select: { alsoKnownAs: true } });
    if (!alsoKnownAs.length) return [];
    const accounts = await ctx.db.account.findMany({ where: { apId: { in: alsoKnownAs } }, select: { apId: true, nickname: true, local: true } });
    const byApId = new Map(accounts.map((a) => [a.apId, a]));
    // ids of accounts this server does not know are kept but cannot be shown as nicknames
    return alsoKnownAs.flatMap((apId) => (byApId.has(apId) ? [fullNickname(ctx, byApId.get(apId)!)] : []));
  },
});

/** Aliases are part of the actor document (`alsoKnownAs`): remote followers get its Update, as for any profile change. */
async function aliasesChanged(ctx: Ctx, accountId: string) {
  if (await hasRemoteFollowers(ctx, accountId)) await federate(ctx, { type: "actor.updated", accountId });
}

export const addAlias = operation({
  name: "accounts.addAlias",
  access: { scopes: ["write:accounts"] },
  input: z.object({ alias: z.string() }),
  async run(ctx, input) {
    const viewer = requireAccount(ctx);
    const target = await aliasTarget(ctx, input.alias);
    const { alsoKnownAs } = await ctx.db.account.findUniqueOrThrow({ where: { id: viewer.id }, select: { alsoKnownAs: true } });
    if (alsoKnownAs.includes(target.apId)) return;
    await ctx.db.account.update({ where: { id: viewer.id }, data: { alsoKnownAs: [...alsoKnownAs, target.apId] } });
    await aliasesChanged(ctx, viewer.id);
  },
});

export const deleteAlias = operation({
  name: "accounts.deleteAlias",
  access: { scopes: ["write:accounts"] },
  input: z.object({ alias: z.string() }),
  async run(ctx, input) {
    const viewer = requireAccount(ctx);
    const target = await aliasTarget(ctx, input.alias);
    const { alsoKnownAs } = await ctx.db.account.findUniqueOrThrow({ where: { id: viewer.id }, select: { alsoKnownAs: true } });
    if (!alsoKnownAs.includes(target.apId)) throw NotFound("Account has no such alias.");
    await ctx.db.account.update({ where: { id: viewer.id }, data: { alsoKnownAs: alsoKnownAs.filter((id) => id !== target.apId) } });
    await aliasesChanged(ctx, viewer.id);
  },
});

// ---- notification settings

export const NOTIFICATION_SETTING_KEYS = ["block_from_strangers", "hide_notification_contents"] as const;

export const updateNotificationSettings = operation({
  name: "accounts.updateNotificationSettings",
  access: { scopes: ["write:accounts"] },
  input: z.object({ block_from_strangers: bool().optional(), hide_notification_contents: bool().optional() }),
  async run(ctx, input) {
    const viewer = requireAccount(ctx);
    const { notificationSettings } = await ctx.db.account.findUniqueOrThrow({ where: { id: viewer.id }, select: { notificationSettings: true } });
    const current = (notificationSettings ?? {}) as Record<string, unknown>;
    const next: Record<string, boolean> = {};
    for (const key of NOTIFICATION_SETTING_KEYS) next[key] = input[key] ?? current[key] === true;
    await ctx.db.account.update({ where: { id: viewer.id }, data: { notificationSettings: next } });
    return next;
  },
});

// ---- password reset by e-mail

/**
 * Mails a reset link to the local, active account with this e-mail or nickname. Says nothing about
 * whether one exists: callers answer the same either way.
 */
export const requestPasswordReset = operation({
  name: "accounts.requestPasswordReset",
  access: "public",
  input: z.object({ email: text, nickname: text }),
  async run(ctx, input) {
    const login = (input.email ?? input.nickname ?? "").trim();
    if (!login) return;
    const account = await accountByName(ctx.db, { nicknames: [login], emails: [login], local: true, active: true });
    // every request counts (it mails): the password throttle's counters, as a guess would
    await chargeAttempt(ctx, attemptTarget(account, login));
    if (!account?.email) return;
    const { token } = await issueAccountToken(ctx, account.id, "password_reset");
    try {
      await ctx.mailer.send(passwordResetMail(mailSettings(ctx), { ...account, email: account.email }, token));
    } catch (error) {
      console.error(`password reset mail to @${account.nickname} failed:`, error);
    }
  },
});

export const INVALID_RESET_TOKEN = "Invalid or expired token";

/** The account a reset link is for, or a not-found error (unknown, used or expired). */
export async function passwordResetTarget(ctx: Ctx, token: string) {
  const row = await findUsableAccountToken(ctx, "password_reset", token);
  if (!row || !row.account.local || row.account.deactivated) throw NotFound(INVALID_RESET_TOKEN);
  return row;
}

export const resetPasswordWithToken = operation({
  name: "accounts.resetPasswordWithToken",
  input: z.object({ token: z.string(), password: text, password_confirmation: text }),
  async run(ctx, input) {
    const row = await passwordResetTarget(ctx, input.token);
    const problem = newPasswordProblem(input.password, input.password_confirmation);
    if (problem) throw Invalid(`Password ${problem}.`);
    const hash = await hashPassword(input.password!);
    try {
      await ctx.db.$transaction([consumeAccountToken(ctx, row), ...passwordStatements(ctx, row.accountId, hash)]);
    } catch (error) {
      if (isRecordNotFound(error)) throw NotFound(INVALID_RESET_TOKEN); // used by a concurrent request
      throw error;
    }
    return row.account;
  },
});
