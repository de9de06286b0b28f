// Reference API: instance information.
import { instanceInfo } from "../../src/domain/instance/instance.ops.ts";
import { route } from "../route.ts";
import { renderInstance } from "../views/instance.ts";

export const instanceRoutes = [
  route({
    method: "GET",
    path: "/api/v1/instance",
    summary: "Information about this server",
    tags: ["Instance"],
    auth: "public",
    async handler(ctx) {
      return renderInstance(ctx.settings, await instanceInfo(ctx, {}));
    },
  }),
];
