import { builder } from "./builder.ts";

builder.prismaObject("Account", {
  fields: (t) => ({
    id: t.exposeID("id"),
    nickname: t.exposeString("nickname"),
    displayName: t.exposeString("displayName"),
    local: t.exposeBoolean("local"),
    apId: t.exposeString("apId"),
    isAdmin: t.exposeBoolean("isAdmin"),
    isModerator: t.exposeBoolean("isModerator"),
    deactivated: t.exposeBoolean("deactivated"),
    locked: t.exposeBoolean("locked"),
    tags: t.exposeStringList("tags"),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    email: t.exposeString("email", { nullable: true, authScopes: { staff: true } }),
  }),
});

builder.queryField("viewer", (t) =>
  t.prismaField({
    type: "Account",
    nullable: true,
    description: "The signed-in account, or null",
    resolve: (query, _root, _args, ctx) => (ctx.viewer.account ? ctx.db.account.findUnique({ ...query, where: { id: ctx.viewer.account.id } }) : null),
  }),
);
