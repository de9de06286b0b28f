// Reference API: OAuth application registration.
import { z } from "zod";
import { createApp, verifyAppCredentials } from "../../src/domain/oauth-apps/apps.ops.ts";
import { scopeList } from "../inputs.ts";
import { vapidPublicKey } from "../../src/domain/push/vapid.ts";
import { route } from "../../src/http/routes/route.ts";
import { renderApp } from "../../src/views/app.ts";
import { ApplicationSchema } from "../../src/views/schemas/misc.ts";

export const appRoutes = [
  route({
    method: "POST",
    path: "/api/v1/apps",
    view: ApplicationSchema,
    summary: "Register a client application",
    tags: ["Apps"],
    operation: createApp,
    body: z.object({
      client_name: z.string(),
      redirect_uris: z.union([z.string(), z.array(z.string())]),
      scopes: scopeList().optional(),
      website: z.string().optional().nullable(),
    }),
    async handler(ctx, { body }) {
      return renderApp(await createApp(ctx, body), true, await vapidPublicKey(ctx));
    },
  }),
  route({
    method: "GET",
    path: "/api/v1/apps/verify_credentials",
    view: ApplicationSchema,
    summary: "The application of the presented token",
    tags: ["Apps"],
    operation: verifyAppCredentials,
    async handler(ctx) {
      return renderApp(await verifyAppCredentials(ctx, {}), false, await vapidPublicKey(ctx));
    },
  }),
];
