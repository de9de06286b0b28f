// What the instance says about itself (GET /api/v1/instance, nodeinfo). Later issues fill in limits and stats.
import { z } from "zod";
import { operation } from "../operation.ts";

export const SOFTWARE_VERSION = "0.1.0";
/** The reference client API level we follow. */
export const API_LEVEL = "2.7.2";

export const instanceInfo = operation({
  name: "instance.info",
  input: z.object({}),
  async run(ctx) {
    const userCount = await ctx.db.account.count({ where: { local: true, deactivated: false } });
    const s = ctx.settings;
    return {
      domain: s.domain,
      baseUrl: s.baseUrl,
      title: s.instanceName,
      email: s.instanceEmail,
      registrationsOpen: s.registrationsOpen,
      userCount,
      softwareVersion: SOFTWARE_VERSION,
    };
  },
});
