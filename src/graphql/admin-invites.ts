// Admin GraphQL for registration invites: the operations of the admin REST routes, each field guarded
// as its operation declares (scope + the users_manage_invites privilege; the admin token passes).
import { createInvite, emailInvite, listInvites, revokeInvite } from "../domain/invites/invites.ops.ts";
import type { Invite } from "../generated/prisma/client.ts";
import { accessOf } from "./access.ts";
import { builder } from "./builder.ts";
import { opt } from "./paging.ts";

const InviteTypeEnum = builder.enumType("InviteType", { values: ["one_time", "reusable", "date_limited", "reusable_date_limited"] as const });

const InviteRef = builder.objectRef<Invite>("Invite").implement({
  description: "A registration invite; its type follows from maxUse and expiresAt",
  fields: (t) => ({
    id: t.exposeInt("id"),
    token: t.exposeString("token"),
    used: t.exposeBoolean("used"),
    uses: t.exposeInt("uses"),
    maxUse: t.exposeInt("maxUse", { nullable: true }),
    expiresAt: t.string({ nullable: true, description: "a date (YYYY-MM-DD): the invite works through that UTC day", resolve: (i) => i.expiresAt?.toISOString().slice(0, 10) ?? null }),
    inviteType: t.field({ type: InviteTypeEnum, resolve: (i) => i.inviteType as (typeof InviteTypeEnum.$inferType) }),
  }),
});

builder.queryFields((t) => ({
  adminInvites: t.field({
    ...accessOf(listInvites),
    type: [InviteRef],
    description: "Every invite, oldest first",
    resolve: (_root, _args, ctx) => listInvites(ctx, {}),
  }),
}));

builder.mutationFields((t) => ({
  createInvite: t.field({
    ...accessOf(createInvite),
    type: InviteRef,
    args: { maxUse: t.arg.int(), expiresAt: t.arg.string({ description: "a date, YYYY-MM-DD" }) },
    resolve: (_root, args, ctx) => createInvite(ctx, { max_use: opt(args.maxUse), expires_at: opt(args.expiresAt) }),
  }),
  revokeInvite: t.field({
    ...accessOf(revokeInvite),
    type: InviteRef,
    args: { token: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => revokeInvite(ctx, { token: args.token }),
  }),
  emailInvite: t.field({
    ...accessOf(emailInvite),
    type: InviteRef,
    description: "Mails a new one-time invite (only while registrations are closed and invites enabled)",
    args: { email: t.arg.string({ required: true }), name: t.arg.string() },
    resolve: (_root, args, ctx) => emailInvite(ctx, { email: args.email, name: args.name }),
  }),
}));
