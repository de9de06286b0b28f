// Own API: the OAuth applications the signed-in user registered (with their token), as the family lists them.
import { listOwnApps } from "../../src/domain/oauth-apps/apps.ops.ts";
import { vapidPublicKey } from "../../src/domain/push/vapid.ts";
import { route } from "../../src/http/routes/route.ts";
import { renderApp } from "../../src/views/app.ts";
import { ApplicationSchema } from "../../src/views/schemas/misc.ts";
import { listOf } from "../../src/views/schemas/view.ts";

export const ownAppRoutes = [
  route({
    method: "GET",
    path: "/api/v1/$ns/apps",
    view: listOf(ApplicationSchema),
    summary: "The applications the signed-in user registered (POST /api/v1/apps with a user token), with their client credentials, oldest first",
    tags: ["Apps"],
    operation: listOwnApps,
    async handler(ctx) {
      const [apps, vapid] = await Promise.all([listOwnApps(ctx, {}), vapidPublicKey(ctx)]);
      return apps.map((app) => renderApp(app, true, vapid));
    },
  }),
];
