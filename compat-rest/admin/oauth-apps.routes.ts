// Admin API: OAuth client applications (admins only).
import { z } from "zod";
import { createOAuthApp, deleteOAuthApp, listOAuthApps, updateOAuthApp } from "../../src/domain/oauth-apps/admin-apps.ops.ts";
import type { DomainError } from "../../src/kernel/errors.ts";
import { defaultErrorShape } from "../../src/http/routes/mount.ts";
import { bool, int } from "../inputs.ts";
import { route } from "../../src/http/routes/route.ts";
import { admin } from "./paths.ts";
import { AdminAppSchema, AdminAppsSchema } from "../../src/views/schemas/admin.ts";
import { renderAdminApp } from "../../src/views/admin-oauth-app.ts";

const tags = ["Admin: OAuth apps"];

/**
 * Field errors answer the family's validator body (`{error: "Missing field: name. …", errors}`) plus
 * the spec's field → message object (`name: "can't be blank"`), in one body.
 */
function fieldErrors(e: DomainError) {
  if (e.kind !== "invalid" || !e.fields) return undefined;
  const shape = defaultErrorShape(e);
  const blank = (msg: string) => (msg.startsWith("Missing field") ? "can't be blank" : msg);
  return { status: 400, body: { ...Object.fromEntries(Object.entries(e.fields).map(([f, msg]) => [f, blank(msg)])), ...(shape.body as object) } };
}

/** An unknown or malformed id: the spec's 400 `"Invalid parameters"`. */
const invalidParameters = (e: DomainError) => (e.kind === "not_found" || (e.kind === "invalid" && !!e.fields?.id) ? { status: 400, body: "Invalid parameters" } : undefined);

// ids are checked by the operation, so a malformed one is refused like an unknown one
const idParam = z.object({ id: z.string() });

export const adminOAuthAppRoutes = [
  route({
    method: "GET",
    path: admin("/oauth_app"),
    view: AdminAppsSchema,
    summary: "OAuth apps, oldest first, filtered by exact name, client id or trust",
    tags,
    operation: listOAuthApps,
    query: z.object({
      name: z.string().optional(),
      client_id: z.string().optional(),
      trusted: bool().optional(),
      page: int().pipe(z.number().min(1)).default(1),
      page_size: int().pipe(z.number().min(1)).default(50),
    }),
    response: { description: "`{apps, count, page_size}`; `count` counts the apps matching the filters" },
    async handler(ctx, { query }) {
      const { page, page_size, ...filters } = query;
      const { apps, count } = await listOAuthApps(ctx, { ...filters, offset: (page - 1) * page_size, limit: page_size });
      return { apps: apps.map(renderAdminApp), count, page_size };
    },
  }),
  route({
    method: "POST",
    path: admin("/oauth_app"),
    view: AdminAppSchema,
    summary: "Create an OAuth app (optionally trusted)",
    tags,
    operation: createOAuthApp,
    body: createOAuthApp.input,
    response: { description: "OAuth app with its secret; 400 `{error: \"Missing field: name. Missing field: redirect_uris.\", errors, name: \"can't be blank\", redirect_uris: \"can't be blank\"}`" },
    errors: fieldErrors,
    handler: async (ctx, { body }) => renderAdminApp(await createOAuthApp(ctx, body)),
  }),
  route({
    method: "PATCH",
    path: admin("/oauth_app/:id"),
    view: AdminAppSchema,
    summary: "Change an OAuth app (only what is given)",
    tags,
    operation: updateOAuthApp,
    params: idParam,
    body: updateOAuthApp.input.omit({ id: true }),
    response: { description: "OAuth app; 400 `\"Invalid parameters\"` for an unknown id, field errors as on create" },
    errors: (e) => invalidParameters(e) ?? fieldErrors(e),
    handler: async (ctx, { params, body }) => renderAdminApp(await updateOAuthApp(ctx, { ...body, id: params.id })),
  }),
  route({
    method: "DELETE",
    path: admin("/oauth_app/:id"),
    summary: "Delete an OAuth app with its tokens",
    tags,
    operation: deleteOAuthApp,
    params: idParam,
    status: 204,
    response: { description: "204 empty; 400 `\"Invalid parameters\"` for an unknown id" },
    errors: invalidParameters,
    async handler(ctx, { params }) {
      await deleteOAuthApp(ctx, { id: params.id });
      return undefined;
    },
  }),
];
