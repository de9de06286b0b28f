// The reference admin API's warning presets: CRUD over the same operations as GraphQL's.
import { z } from "zod";
import { createWarningPreset, deleteWarningPreset, listWarningPresets, showWarningPreset, updateWarningPreset } from "../../src/domain/accounts/warning-presets.ops.ts";
import { route } from "../../src/http/routes/route.ts";
import { EmptySchema } from "../../src/views/schemas/misc.ts";
import { WarningPresetSchema } from "../../src/views/schemas/reference-admin.ts";
import { listOf } from "../../src/views/schemas/view.ts";
import { renderWarningPreset } from "../../src/views/warning-preset.ts";

const id = z.object({ id: z.string() });
const tags = ["Admin (reference): warning presets"];

export const referenceWarningPresetRoutes = [
  route({ method: "GET", path: "/api/v1/admin/warning_presets", view: listOf(WarningPresetSchema), summary: "Warning presets, oldest first", tags, operation: listWarningPresets, handler: async (ctx) => (await listWarningPresets(ctx, {})).map(renderWarningPreset) }),
  route({ method: "GET", path: "/api/v1/admin/warning_presets/:id", view: WarningPresetSchema, summary: "One warning preset", tags, operation: showWarningPreset, params: id, handler: async (ctx, { params }) => renderWarningPreset(await showWarningPreset(ctx, params)) }),
  route({ method: "POST", path: "/api/v1/admin/warning_presets", view: WarningPresetSchema, summary: "Add a warning preset (title, text)", tags, operation: createWarningPreset, body: createWarningPreset.input, handler: async (ctx, { body }) => renderWarningPreset(await createWarningPreset(ctx, body)) }),
  route({
    method: "PUT",
    path: "/api/v1/admin/warning_presets/:id",
    view: WarningPresetSchema,
    summary: "Change a warning preset's title or text",
    tags,
    operation: updateWarningPreset,
    params: id,
    body: updateWarningPreset.input.omit({ id: true }),
    handler: async (ctx, { params, body }) => renderWarningPreset(await updateWarningPreset(ctx, { ...body, id: params.id })),
  }),
  route({ method: "DELETE", path: "/api/v1/admin/warning_presets/:id", view: EmptySchema, summary: "Delete a warning preset", tags, operation: deleteWarningPreset, params: id, handler: async (ctx, { params }) => (await deleteWarningPreset(ctx, params), {}) }),
];
