import { instanceInfo } from "../domain/instance/instance.ops.ts";
import { builder } from "./builder.ts";

type Info = Awaited<ReturnType<typeof instanceInfo>>;

const Instance = builder.objectRef<Info>("Instance").implement({
  fields: (t) => ({
    domain: t.exposeString("domain"),
    title: t.exposeString("title"),
    email: t.exposeString("email"),
    registrationsOpen: t.exposeBoolean("registrationsOpen"),
    userCount: t.exposeInt("userCount"),
    softwareVersion: t.exposeString("softwareVersion"),
  }),
});

builder.queryField("instance", (t) => t.field({ type: Instance, resolve: (_root, _args, ctx) => instanceInfo(ctx, {}) }));
