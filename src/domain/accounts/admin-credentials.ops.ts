// Staff managing a user's credentials (privilege users_manage_credentials): a password reset link,
// turning multi-factor sign-in off, and reading or editing the profile and sign-in details.
import { z } from "zod";
import type { Account, Prisma } from "../../generated/prisma/client.ts";
import { passwordResetLink } from "../../mail/templates.ts";
import { issueAccountToken } from "./account-tokens.ts";
import { hashPassword } from "../auth/passwords.ts";
import type { Ctx } from "../context.ts";
import { Invalid, NotFound } from "../../kernel/errors.ts";
import { bool, isEmailAddress } from "../inputs.ts";
import { logAction } from "../moderation-log/log.ts";
import { operation } from "../operation.ts";
import { getUser, NOT_FOUND } from "./admin-users.read.ts";
import { text } from "../input-limits.ts";
import { accountByName } from "../../db/account-names.ts";


/** A password reset token and its link, for staff to hand over; local users only. */
export const passwordResetToken = operation({
  name: "admin.passwordResetToken",
  access: { scopes: ["admin:write:accounts"], privilege: "users_manage_credentials" },
  input: z.object({ nickname: z.string() }),
  async run(ctx, input) {
    const user = await getUser(ctx, input.nickname);
    if (!user.local) throw NotFound(NOT_FOUND);
    const { token } = await issueAccountToken(ctx, user.id, "password_reset");
    return { token, link: passwordResetLink(ctx.settings, token) };
  },
});

/** Turns TOTP sign-in off and forgets the secret and backup codes. */
export const disableMfa = operation({
  name: "admin.disableMfa",
  access: { scopes: ["admin:write:accounts"], privilege: "users_manage_credentials" },
  input: z.object({ nickname: z.string() }),
  async run(ctx, input) {
    const user = await getUser(ctx, input.nickname);
    await ctx.db.account.update({ where: { id: user.id }, data: { mfaEnabled: false, mfaTotpSecret: null, mfaBackupCodes: [] } });
    return user.nickname;
  },
});

export const showCredentials = operation({
  name: "admin.showCredentials",
  access: { scopes: ["admin:read:accounts"], privilege: "users_manage_credentials" },
  input: z.object({ nickname: z.string() }),
  run: (ctx, input) => getUser(ctx, input.nickname),
});

const field = z.object({ name: text().default(""), value: text().default("") });
/** Profile fields as an array, or an object keyed "0", "1", … from forms. */
const fields = z.preprocess((v) => (v && typeof v === "object" && !Array.isArray(v) ? Object.values(v) : v), z.array(field));

export const credentialsInput = z.object({
  nickname: z.string(),
  email: z.string().optional(),
  password: z.string().optional(),
  name: z.string().optional(),
  bio: z.string().optional(),
  /** image URLs ("" for the instance default) */
  avatar: z.string().optional(),
  banner: z.string().optional(),
  background: z.string().optional(),
  locked: bool().optional(),
  no_rich_text: bool().optional(),
  default_scope: z.string().optional(),
  hide_follows: bool().optional(),
  hide_followers: bool().optional(),
  hide_followers_count: bool().optional(),
  hide_follows_count: bool().optional(),
  hide_favorites: bool().optional(),
  allow_following_move: bool().optional(),
  show_role: bool().optional(),
  skip_thread_containment: bool().optional(),
  fields: fields.optional(),
  is_discoverable: bool().optional(),
  actor_type: z.string().optional(),
});

const FLAGS = {
  locked: "locked",
  no_rich_text: "noRichText",
  hide_follows: "hideFollows",
  hide_followers: "hideFollowers",
  hide_followers_count: "hideFollowersCount",
  hide_follows_count: "hideFollowsCount",
  hide_favorites: "hideFavorites",
  allow_following_move: "allowFollowingMove",
  show_role: "showRole",
  skip_thread_containment: "skipThreadContainment",
  is_discoverable: "discoverable",
} as const;

const SCOPES = ["public", "unlisted", "private", "direct"];
/** The family's admin changeset admits these actor types only. */
const ACTOR_TYPES = ["Person", "Service"] as const;

/** The update and the field errors, in the family's changeset words. */
async function credentialChanges(ctx: Ctx, user: Account, input: z.output<typeof credentialsInput>) {
  const errors: Record<string, string> = {};
  const data: Prisma.AccountUpdateInput = {};
  const limits = ctx.config.group("instance");
  if (input.email !== undefined) {
    const email = input.email.trim();
    if (!isEmailAddress(email)) errors.email = "has invalid format";
    else if (await accountByName(ctx.db, { emails: [email], notId: user.id })) errors.email = "has already been taken";
    else data.email = email;
  }
  if (input.password !== undefined) {
    if (!input.password) errors.password = "can't be blank";
    else if (input.password.length > 1024) errors.password = "should be at most 1024 character(s)";
  }
  if (input.actor_type !== undefined) {
    if ((ACTOR_TYPES as readonly string[]).includes(input.actor_type)) data.actorType = input.actor_type as (typeof ACTOR_TYPES)[number];
    else errors.actor_type = "is invalid";
  }
  if (input.default_scope !== undefined) {
    if (SCOPES.includes(input.default_scope)) data.defaultScope = input.default_scope;
    else errors.default_scope = "is invalid";
  }
  if (input.name !== undefined) data.displayName = input.name;
  if (input.bio !== undefined) {
    if (input.bio.length > limits.limit) errors.bio = `should be at most ${limits.limit} character(s)`;
    else data.note = input.bio;
  }
  if (input.fields !== undefined) {
    const kept = input.fields.filter((f) => f.name || f.value);
    if (kept.length > limits.max_account_fields) errors.fields = "is invalid";
    else data.fields = kept;
  }
  for (const [param, column] of Object.entries(FLAGS)) {
    const value = input[param as keyof typeof FLAGS];
    if (value !== undefined) (data as Record<string, unknown>)[column] = value;
  }
  for (const [param, column] of [["avatar", "avatar"], ["banner", "header"], ["background", "background"]] as const) {
    const value = input[param];
    if (value !== undefined) data[column] = value.trim() || null;
  }
  return { data, errors };
}

/**
 * Edits a user's profile and sign-in details. Field problems answer together as 400 `{errors}`;
 * a new password signs the user out everywhere and makes them choose their own at next sign-in.
 */
export const updateCredentials = operation({
  name: "admin.updateCredentials",
  access: { scopes: ["admin:write:accounts"], privilege: "users_manage_credentials" },
  input: credentialsInput,
  async run(ctx, input) {
    const user = await getUser(ctx, input.nickname);
    const { data, errors } = await credentialChanges(ctx, user, input);
    if (Object.keys(errors).length) throw Invalid(Object.entries(errors).map(([f, m]) => `${f} ${m}`).join(", "), errors);
    if (input.password) Object.assign(data, { passwordHash: await hashPassword(input.password), passwordResetPending: true });
    return ctx.db.$transaction(async (tx) => {
      const updated = await tx.account.update({ where: { id: user.id }, data });
      if (input.password) {
        await tx.oAuthToken.deleteMany({ where: { accountId: user.id } });
        await tx.oAuthAuthorization.deleteMany({ where: { accountId: user.id } });
        await tx.session.deleteMany({ where: { accountId: user.id } });
      }
      await logAction(ctx, { action: "updated_users", subjects: [user] }, tx);
      if (input.password) await logAction(ctx, { action: "force_password_reset", subjects: [user] }, tx);
      return updated;
    });
  },
});
