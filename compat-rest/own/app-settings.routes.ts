// Own API: per-application settings (`{key: value}` per app name; PATCH merges, `null` removes a key).
import { z } from "zod";
import { getAppSettings, updateAppSettings } from "../../src/domain/accounts/app-settings.ops.ts";
import { route } from "../../src/http/routes/route.ts";
import { FreeObjectSchema } from "../../src/views/schemas/misc.ts";

const tags = ["Accounts"];
const params = z.object({ app: z.string() });

export const appSettingsRoutes = [
  route({
    method: "GET",
    path: "/api/v1/$ns/settings/:app",
    view: FreeObjectSchema,
    summary: "The signed-in user's settings for one application ({} when none)",
    tags,
    operation: getAppSettings,
    params,
    handler: (ctx, { params }) => getAppSettings(ctx, { app: params.app }),
  }),
  route({
    method: "PATCH",
    path: "/api/v1/$ns/settings/:app",
    view: FreeObjectSchema,
    summary: "Merge keys into one application's settings (a null value removes the key); answers the app's settings",
    tags,
    operation: updateAppSettings,
    params,
    body: z.record(z.string(), z.unknown()),
    handler: (ctx, { params, req }) => updateAppSettings(ctx, { app: params.app, settings: bodyObject(req.body) }),
  }),
];

/** The JSON body as it came (the declared schema above only checks it is an object; query parameters are not settings). */
function bodyObject(body: unknown): Record<string, unknown> {
  return body !== null && typeof body === "object" && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}
