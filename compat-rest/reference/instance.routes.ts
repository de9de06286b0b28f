// Reference API: instance information.
import { z } from "zod";
import { instanceInfo, instancePeers, instanceUsage } from "../../src/domain/instance/instance.ops.ts";
import { vapidPublicKey } from "../../src/domain/push/vapid.ts";
import { route } from "../route.ts";
import { renderInstance } from "../views/instance.ts";
import { readRules } from "../../src/domain/rules/rules.ops.ts";

export const instanceRoutes = [
  route({
    method: "GET",
    path: "/api/v1/instance",
    summary: "Information about this server: limits, features, federation and counts",
    tags: ["Instance"],
    auth: "public",
    async handler(ctx) {
      const [info, usage, vapidKey, rules] = await Promise.all([instanceInfo(ctx, {}), instanceUsage(ctx, {}), vapidPublicKey(ctx), readRules(ctx)]);
      return renderInstance(ctx.settings, info, usage, vapidKey, rules);
    },
  }),
  route({
    method: "GET",
    path: "/api/v1/instance/peers",
    summary: "Hosts of the remote accounts this server knows",
    tags: ["Instance"],
    auth: "public",
    response: { description: "Array of domain names", schema: z.array(z.string()) },
    async handler(ctx) {
      return instancePeers(ctx, {});
    },
  }),
];
