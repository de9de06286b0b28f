// Account operations of the foundation: creating local users and changing their roles and password.
import { z } from "zod";
import { emailAddress } from "../inputs.ts";
import { newId } from "../../db/ids.ts";
import type { Ctx } from "../context.ts";
import { Conflict, NotFound } from "../../kernel/errors.ts";
import { operation } from "../operation.ts";
import { requireAdmin } from "../auth/policy.ts";
import { hashPassword } from "../auth/passwords.ts";
import { newSecret } from "../auth/secrets.ts";
import { accountByName } from "../../db/account-names.ts";

export const NICKNAME_RE = /^[A-Za-z0-9_][A-Za-z0-9_-]{0,63}$/;

export const nicknameSchema = z.string().regex(NICKNAME_RE, "must be letters, digits, _ or -");
export const passwordSchema = z.string().min(1).max(1024);

export function localApId(ctx: Pick<Ctx, "settings">, nickname: string) {
  return `${ctx.settings.baseUrl}/users/${nickname}`;
}

export async function findLocalByNickname(ctx: Ctx, nickname: string) {
  return accountByName(ctx.db, { nicknames: [nickname], local: true });
}

async function getLocal(ctx: Ctx, nickname: string) {
  const account = await findLocalByNickname(ctx, nickname);
  if (!account) throw NotFound(`No local user ${nickname}`);
  return account;
}

/** Creates a confirmed, approved local user (admin action: CLI, admin API). */
export const createLocalAccount = operation({
  name: "accounts.createLocal",
  input: z.object({
    nickname: nicknameSchema,
    email: emailAddress(),
    password: passwordSchema,
    admin: z.boolean().default(false),
    moderator: z.boolean().default(false),
  }),
  authorize: requireAdmin,
  async run(ctx, input) {
    const clash = await accountByName(ctx.db, { nicknames: [input.nickname], emails: [input.email] });
    if (clash) throw Conflict(clash.email?.toLowerCase() === input.email.toLowerCase() ? "email has already been taken" : "nickname has already been taken");
    return ctx.db.account.create({
      data: {
        id: newId(),
        nickname: input.nickname,
        email: input.email,
        passwordHash: await hashPassword(input.password),
        apId: localApId(ctx, input.nickname),
        isAdmin: input.admin,
        isModerator: input.moderator,
      },
    });
  },
});

export const setRoles = operation({
  name: "accounts.setRoles",
  input: z.object({ nickname: z.string(), admin: z.boolean().optional(), moderator: z.boolean().optional() }),
  authorize: requireAdmin,
  async run(ctx, input) {
    const account = await getLocal(ctx, input.nickname);
    return ctx.db.account.update({
      where: { id: account.id },
      data: { isAdmin: input.admin ?? account.isAdmin, isModerator: input.moderator ?? account.isModerator },
    });
  },
});

/** Sets a new password (a generated one when none is given) and signs the user out everywhere. */
export const resetPassword = operation({
  name: "accounts.resetPassword",
  input: z.object({ nickname: z.string(), password: passwordSchema.optional() }),
  authorize: requireAdmin,
  async run(ctx, input) {
    const account = await getLocal(ctx, input.nickname);
    const password = input.password ?? newSecret(12);
    await ctx.db.$transaction([
      ctx.db.account.update({ where: { id: account.id }, data: { passwordHash: await hashPassword(password), passwordResetPending: false } }),
      ctx.db.oAuthToken.deleteMany({ where: { accountId: account.id } }),
      ctx.db.session.deleteMany({ where: { accountId: account.id } }),
    ]);
    return { nickname: account.nickname, password };
  },
});
