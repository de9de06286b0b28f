// The viewer's own account settings over GraphQL: password, e-mail, deactivation and deletion, aliases,
// notification settings and the tokens signed in with. Each field calls the
// operation its REST route calls.
import { addAlias, changeEmail, changePassword, deleteAlias, deleteOwnAccount, disableOwnAccount, listAliases, updateNotificationSettings } from "../domain/accounts/account-actions.ops.ts";
import { deleteOwnToken, listOwnTokens } from "../domain/auth/tokens.ops.ts";
import { builder } from "./builder.ts";
import { opt } from "./paging.ts";
import { accessOf } from "./access.ts";
const done = async (p: Promise<unknown>) => (await p, true);

type TokenRow = Awaited<ReturnType<typeof listOwnTokens>>[number];

const OwnToken = builder.objectRef<TokenRow>("OwnToken").implement({
  description: "A token the viewer signed in with (never its secret)",
  fields: (t) => ({
    id: t.id({ resolve: (r) => String(r.id) }),
    appName: t.string({ nullable: true, resolve: (r) => r.app?.name ?? null }),
    scopes: t.stringList({ resolve: (r) => r.scopes }),
    createdAt: t.field({ type: "DateTime", resolve: (r) => r.createdAt }),
    validUntil: t.field({ type: "DateTime", resolve: (r) => r.expiresAt }),
    lastUsedAt: t.field({ type: "DateTime", nullable: true, resolve: (r) => r.lastUsedAt }),
  }),
});

builder.queryFields((t) => ({
  aliases: t.stringList({ ...accessOf(listAliases), description: "The viewer's aliases (also_known_as) as name@host", resolve: (_r, _a, ctx) => listAliases(ctx, {}) }),
  ownTokens: t.field({ ...accessOf(listOwnTokens), type: [OwnToken], resolve: (_r, _a, ctx) => listOwnTokens(ctx, {}) }),
}));

builder.mutationFields((t) => ({
  changePassword: t.boolean({
    ...accessOf(changePassword),
    description: "Signs out every token and session",
    args: { password: t.arg.string({ required: true }), newPassword: t.arg.string({ required: true }), newPasswordConfirmation: t.arg.string({ required: true }) },
    resolve: (_r, a, ctx) => done(changePassword(ctx, { password: a.password, new_password: a.newPassword, new_password_confirmation: a.newPasswordConfirmation })),
  }),
  changeEmail: t.boolean({
    ...accessOf(changeEmail),
    args: { password: t.arg.string({ required: true }), email: t.arg.string({ required: true }) },
    resolve: (_r, a, ctx) => done(changeEmail(ctx, { password: a.password, email: a.email })),
  }),
  deleteAccount: t.boolean({ ...accessOf(deleteOwnAccount), args: { password: t.arg.string({ required: true }) }, resolve: (_r, a, ctx) => done(deleteOwnAccount(ctx, { password: a.password })) }),
  disableAccount: t.boolean({ ...accessOf(disableOwnAccount), args: { password: t.arg.string({ required: true }) }, resolve: (_r, a, ctx) => done(disableOwnAccount(ctx, { password: a.password })) }),
  addAlias: t.boolean({ ...accessOf(addAlias), args: { alias: t.arg.string({ required: true }) }, resolve: (_r, a, ctx) => done(addAlias(ctx, { alias: a.alias })) }),
  deleteAlias: t.boolean({ ...accessOf(deleteAlias), args: { alias: t.arg.string({ required: true }) }, resolve: (_r, a, ctx) => done(deleteAlias(ctx, { alias: a.alias })) }),
  updateNotificationSettings: t.boolean({
    ...accessOf(updateNotificationSettings),
    args: { blockFromStrangers: t.arg.boolean(), hideNotificationContents: t.arg.boolean() },
    resolve: (_r, a, ctx) => done(updateNotificationSettings(ctx, { block_from_strangers: opt(a.blockFromStrangers), hide_notification_contents: opt(a.hideNotificationContents) })),
  }),
  revokeOwnToken: t.boolean({ ...accessOf(deleteOwnToken), args: { id: t.arg.id({ required: true }) }, resolve: (_r, a, ctx) => done(deleteOwnToken(ctx, { id: Number(a.id) })) }),
}));
