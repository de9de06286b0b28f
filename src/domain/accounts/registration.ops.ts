// Self-service registration (POST /api/v1/accounts), e-mail confirmation and its resending.
// Runtime settings decide the path: registrations_open, invites_enabled, account_approval_required,
// account_activation_required (the family's names).
import { z } from "zod";
import { isEmailAddress } from "../inputs.ts";
import { newId } from "../../db/ids.ts";
import type { Account, Invite } from "../../generated/prisma/client.ts";
import { confirmationMail } from "../../mail/templates.ts";
import { hashPassword } from "../auth/passwords.ts";
import { attemptTarget, chargeAttempt } from "../auth/password-throttle.ts";
import { accountByName, accountsByName } from "../../db/account-names.ts";
import { issueToken, type IssuedToken } from "../auth/tokens.ops.ts";
import type { Ctx } from "../context.ts";
import { DomainError, Forbidden, Invalid, Unprocessable } from "../../kernel/errors.ts";
import { emailBlocked, ipRestriction } from "../auth/access-blocks.ts";
import { operation } from "../operation.ts";
import { checkCaptcha } from "../captcha/captcha.ops.ts";
import { consumeAccountToken, findUsableAccountToken, isRecordNotFound, issueAccountToken } from "./account-tokens.ts";
import { localApId, NICKNAME_RE } from "./accounts.ops.ts";

const NAME_LIMIT = 100;
const TEXT_LIMIT = 5000;
const LANGUAGE_RE = /^[A-Za-z]{2,3}([_-][A-Za-z0-9]{1,8})*$/;

/** What a field error says, in the reference API's words; `registrationErrorCode` maps them to its codes. */
export const FIELD_MESSAGES = {
  blank: "can't be blank",
  taken: "has already been taken",
  accepted: "must be accepted",
  invalid: "is invalid",
  used: "has already been used",
  expired: "has expired",
  tooLong: (max: number) => `is too long (maximum is ${max} characters)`,
  blocked: "is not allowed",
} as const;

const LABELS: Record<string, string> = { username: "Username", email: "Email", password: "Password", agreement: "Agreement", reason: "Reason", token: "Invite token" };
const label = (field: string) => LABELS[field] ?? field.charAt(0).toUpperCase() + field.slice(1);

/** "Validation failed: Email has already been taken, Username can't be blank" (the reference API's sentence). */
export function validationMessage(fields: Record<string, string>) {
  return `Validation failed: ${Object.entries(fields).map(([field, msg]) => `${label(field)} ${msg}`).join(", ")}`;
}

const optionalText = z.string().optional().nullable();

export const registerInput = z.object({
  username: optionalText,
  email: optionalText,
  password: optionalText,
  agreement: z.boolean().optional().nullable(),
  locale: optionalText,
  reason: optionalText,
  fullname: optionalText,
  bio: optionalText,
  /** invite token */
  token: optionalText,
  /** preferred language; the surface fills in the browser's when the client sends none */
  language: optionalText,
  captcha_solution: optionalText,
  captcha_token: optionalText,
  captcha_answer_data: optionalText,
});

export type RegistrationStatus = "active" | "approval_pending" | "confirmation_pending";

export interface Registered {
  account: Account;
  status: RegistrationStatus;
  /** a token for the registering app, when the account can sign in right away */
  issued: IssuedToken | null;
}

/**
 * Registers a local account for the app of the request's token (the family admits only requests
 * carrying an app token). Field problems come back together as one 422; invite problems as 400.
 */
export const register = operation({
  name: "accounts.register",
  access: "public",
  input: registerInput,
  async run(ctx, input): Promise<Registered> {
    const app = ctx.viewer.app;
    if (!app) throw Forbidden("Invalid credentials");
    return registerAccount(ctx, input, app, { inviteOnly: false });
  },
});

/**
 * Registration through the page an invitation e-mail links to (`/registration/<token>`): no app and so
 * no token issued (the invitee signs in afterwards); the invite is required even when registrations
 * are open, since that is what the page is for.
 */
export const registerByInvite = operation({
  name: "accounts.registerByInvite",
  input: registerInput.extend({ token: z.string().min(1) }),
  async run(ctx, input): Promise<Registered> {
    await usableInvite(ctx, input.token);
    return registerAccount(ctx, input, null, { inviteOnly: true });
  },
});

/**
 * Registration through the open sign-up page (`/registration`, the path the family's front ends use):
 * the same rules as the API (open registrations or an invite, captcha, approval, confirmation), no app
 * and so no token issued (the newcomer signs in afterwards).
 */
export const registerFromPage = operation({
  name: "accounts.registerFromPage",
  input: registerInput,
  async run(ctx, input): Promise<Registered> {
    return registerAccount(ctx, input, null, { inviteOnly: false });
  },
});

async function registerAccount(ctx: Ctx, input: z.output<typeof registerInput>, app: NonNullable<Ctx["viewer"]["app"]> | null, opts: { inviteOnly: boolean }): Promise<Registered> {
  const instance = ctx.config.group("instance");

  // closed registrations admit only invitees, and only when invites are on
  let invite: Invite | null = null;
  if (!instance.registrations_open || opts.inviteOnly) {
    if (!instance.invites_enabled || !input.token) throw Forbidden("Registrations are closed");
    invite = await usableInvite(ctx, input.token);
  }
  await checkCaptcha(ctx, input);
  // the reference admin API's IP blocks: refused, or held for approval
  const restriction = await ipRestriction(ctx);
  if (restriction === "sign_up_block" || restriction === "no_access") throw Forbidden("Registrations from your IP address are not allowed");

  const approval = !!instance.account_approval_required || restriction === "sign_up_requires_approval";
  const activation = !!instance.account_activation_required;
  // a reason is asked for when the instance reviews every sign-up, not when the address alone holds it back
  const fields = await validateFields(ctx, input, { approval: !!instance.account_approval_required, activation });
  if (Object.keys(fields).length) throw Unprocessable(validationMessage(fields), fields);

  const nickname = input.username!.trim();
  const email = input.email?.trim() || null;
  const passwordHash = await hashPassword(input.password!);
  const data = {
    id: newId(ctx.clock().getTime()),
    nickname,
    email,
    passwordHash,
    apId: localApId(ctx, nickname),
    displayName: input.fullname?.trim() || nickname,
    note: input.bio ?? "",
    language: input.language?.trim() || null,
    registrationReason: input.reason?.trim() || null,
    approvalPending: approval,
    confirmationPending: activation,
    createdAt: ctx.clock(),
  };

  const account = await createWithInvite(ctx, data, invite);
  ctx.bus.publish("account_registered", { accountId: account.id });

  if (activation && email) await sendConfirmation(ctx, { ...account, email });
  // the family's order: an account awaiting approval says so first, then the missing confirmation
  const status: RegistrationStatus = approval ? "approval_pending" : activation ? "confirmation_pending" : "active";
  const issued = status === "active" && app ? await issueToken(ctx, app, account, app.scopes) : null;
  return { account, status, issued };
}

async function validateFields(ctx: Ctx, input: z.output<typeof registerInput>, opts: { approval: boolean; activation: boolean }) {
  const fields: Record<string, string> = {};
  const username = input.username?.trim() ?? "";
  const email = input.email?.trim() ?? "";
  if (!username) fields.username = FIELD_MESSAGES.blank;
  else if (username.length > 64) fields.username = FIELD_MESSAGES.tooLong(64);
  else if (!NICKNAME_RE.test(username)) fields.username = FIELD_MESSAGES.invalid;
  if (!email) {
    if (opts.activation) fields.email = FIELD_MESSAGES.blank;
  } else if (!isEmailAddress(email) || email.length > 254) fields.email = FIELD_MESSAGES.invalid;
  else if (await emailBlocked(ctx, email)) fields.email = FIELD_MESSAGES.blocked;
  if (!input.password) fields.password = FIELD_MESSAGES.blank;
  else if (input.password.length > 1024) fields.password = FIELD_MESSAGES.tooLong(1024);
  if (input.agreement !== true) fields.agreement = FIELD_MESSAGES.accepted;
  if (opts.approval && !input.reason?.trim()) fields.reason = FIELD_MESSAGES.blank;
  else if ((input.reason?.length ?? 0) > TEXT_LIMIT) fields.reason = FIELD_MESSAGES.tooLong(TEXT_LIMIT);
  if ((input.fullname?.trim().length ?? 0) > NAME_LIMIT) fields.fullname = FIELD_MESSAGES.tooLong(NAME_LIMIT);
  if ((input.bio?.length ?? 0) > TEXT_LIMIT) fields.bio = FIELD_MESSAGES.tooLong(TEXT_LIMIT);
  if (input.language && !LANGUAGE_RE.test(input.language.trim())) fields.language = FIELD_MESSAGES.invalid;

  const checkNickname = !fields.username;
  const checkEmail = !!email && !fields.email;
  if (checkNickname || checkEmail) {
    const clashes = await accountsByName(ctx.db, { nicknames: checkNickname ? [username] : [], emails: checkEmail ? [email] : [] });
    for (const clash of clashes) {
      if (checkNickname && clash.nickname.toLowerCase() === username.toLowerCase()) fields.username = FIELD_MESSAGES.taken;
      if (checkEmail && clash.email?.toLowerCase() === email.toLowerCase()) fields.email = FIELD_MESSAGES.taken;
    }
  }
  // the reference API lists errors in its own field order
  const order = ["username", "email", "password", "agreement", "reason", "fullname", "bio", "language"];
  return Object.fromEntries(order.filter((f) => fields[f]).map((f) => [f, fields[f]!]));
}

// ---- invites

const todayUtc = (ctx: Ctx) => ctx.clock().toISOString().slice(0, 10);

function inviteProblem(ctx: Ctx, invite: Invite | null): string | null {
  if (!invite) return FIELD_MESSAGES.invalid;
  if (invite.used || (invite.maxUse !== null && invite.uses >= invite.maxUse)) return FIELD_MESSAGES.used;
  // expires_at is a date: the invite works through that whole (UTC) day
  if (invite.expiresAt && invite.expiresAt.toISOString().slice(0, 10) < todayUtc(ctx)) return FIELD_MESSAGES.expired;
  return null;
}

async function usableInvite(ctx: Ctx, token: string): Promise<Invite> {
  const invite = await ctx.db.invite.findUnique({ where: { token } });
  const problem = inviteProblem(ctx, invite);
  if (problem) throw Invalid(validationMessage({ token: problem }), { token: problem });
  return invite!;
}

/**
 * The conditional update that records one use (null when the type records none: date-limited invites
 * work any number of times until their date). It matches only the state we validated, so a
 * concurrent registration makes it fail (P2025) instead of over-using the invite.
 */
function inviteUse(ctx: Ctx, invite: Invite) {
  const reusable = invite.maxUse !== null && (invite.inviteType === "reusable" || invite.inviteType === "reusable_date_limited");
  if (reusable) {
    const uses = invite.uses + 1;
    return ctx.db.invite.update({ where: { id: invite.id, used: false, uses: invite.uses }, data: { uses, used: uses >= invite.maxUse! } });
  }
  if (invite.inviteType === "date_limited") return null;
  return ctx.db.invite.update({ where: { id: invite.id, used: false }, data: { used: true } });
}

type NewAccount = Parameters<Ctx["db"]["account"]["create"]>[0]["data"];

/** Creates the account and records the invite's use in one transaction (retrying a lost invite race). */
async function createWithInvite(ctx: Ctx, data: NewAccount, invite: Invite | null): Promise<Account> {
  for (let attempt = 0; ; attempt++) {
    const use = invite ? inviteUse(ctx, invite) : null;
    try {
      const results = await ctx.db.$transaction([...(use ? [use] : []), ctx.db.account.create({ data })]);
      return results[results.length - 1] as Account;
    } catch (error) {
      if (isUniqueViolation(error)) {
        // a concurrent registration took the nickname or e-mail between the check and the insert
        const fields = await validateTaken(ctx, data);
        throw Unprocessable(validationMessage(fields), fields);
      }
      if (!invite || !isRecordNotFound(error) || attempt >= 3) throw error;
      invite = await usableInvite(ctx, invite.token); // used up meanwhile → 400; else try again
    }
  }
}

async function validateTaken(ctx: Ctx, data: NewAccount): Promise<Record<string, string>> {
  const fields: Record<string, string> = {};
  if (await accountByName(ctx.db, { nicknames: [data.nickname] })) fields.username = FIELD_MESSAGES.taken;
  if (data.email && (await accountByName(ctx.db, { emails: [data.email] }))) fields.email = FIELD_MESSAGES.taken;
  return Object.keys(fields).length ? fields : { username: FIELD_MESSAGES.taken };
}

function isUniqueViolation(error: unknown) {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "P2002";
}

// ---- e-mail confirmation

export function mailSettings(ctx: Ctx) {
  return { baseUrl: ctx.settings.baseUrl, namespace: ctx.settings.namespace, instanceName: ctx.config.get("instance", "name") };
}

/** Sends a confirmation link; a mail failure is logged, not raised (the user can ask for another). */
export async function sendConfirmation(ctx: Ctx, account: Pick<Account, "id" | "nickname"> & { email: string }) {
  const { token } = await issueAccountToken(ctx, account.id, "confirm_email");
  try {
    await ctx.mailer.send(confirmationMail(mailSettings(ctx), account, token));
  } catch (error) {
    console.error(`confirmation mail to @${account.nickname} failed:`, error);
  }
}

/** Follows the link of a confirmation mail: the account no longer waits for its address to be confirmed. */
export const confirmEmail = operation({
  name: "accounts.confirmEmail",
  access: "public",
  input: z.object({ user_id: z.string(), token: z.string() }),
  async run(ctx, input) {
    const row = await findUsableAccountToken(ctx, "confirm_email", input.token);
    const invalid = () => new DomainError("invalid", "Invalid or expired confirmation link", { token: FIELD_MESSAGES.invalid });
    if (!row || row.accountId !== input.user_id || !row.account.local) throw invalid();
    try {
      const [, account] = await ctx.db.$transaction([consumeAccountToken(ctx, row), ctx.db.account.update({ where: { id: row.accountId }, data: { confirmationPending: false } })]);
      return account;
    } catch (error) {
      if (isRecordNotFound(error)) throw invalid(); // consumed by a concurrent click
      throw error;
    }
  },
});

/** Sends a new confirmation link to a local account still waiting for one; says nothing either way. */
export const resendConfirmation = operation({
  name: "accounts.resendConfirmation",
  access: "public",
  input: z.object({ email: optionalText, nickname: optionalText }),
  async run(ctx, input) {
    const login = (input.email ?? input.nickname ?? "").trim();
    if (!login) return;
    const account = await accountByName(ctx.db, { nicknames: [login], emails: [login], local: true });
    // every request counts (it mails): the password throttle's counters, as a guess would
    await chargeAttempt(ctx, attemptTarget(account, login));
    if (!account?.email || !account.confirmationPending || account.deactivated) return;
    await sendConfirmation(ctx, { ...account, email: account.email });
  },
});
