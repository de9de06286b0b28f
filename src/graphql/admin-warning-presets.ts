// Warning presets for admins, over the operations of `/api/v1/admin/warning_presets`.
import { createWarningPreset, deleteWarningPreset, listWarningPresets, showWarningPreset, updateWarningPreset } from "../domain/accounts/warning-presets.ops.ts";
import type { WarningPreset } from "../generated/prisma/client.ts";
import { accessOf } from "./access.ts";
import { builder } from "./builder.ts";

const WarningPresetRef = builder.objectRef<WarningPreset>("WarningPreset").implement({
  fields: (t) => ({
    id: t.exposeID("id"),
    title: t.exposeString("title"),
    text: t.exposeString("text"),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    updatedAt: t.expose("updatedAt", { type: "DateTime" }),
  }),
});

builder.queryFields((t) => ({
  adminWarningPresets: t.field({ ...accessOf(listWarningPresets), type: [WarningPresetRef], resolve: (_r, _a, ctx) => listWarningPresets(ctx, {}) }),
  adminWarningPreset: t.field({ ...accessOf(showWarningPreset), type: WarningPresetRef, args: { id: t.arg.id({ required: true }) }, resolve: (_r, a, ctx) => showWarningPreset(ctx, { id: String(a.id) }) }),
}));

builder.mutationFields((t) => ({
  createWarningPreset: t.field({
    ...accessOf(createWarningPreset),
    type: WarningPresetRef,
    args: { title: t.arg.string(), text: t.arg.string({ required: true }) },
    resolve: (_r, a, ctx) => createWarningPreset(ctx, { title: a.title, text: a.text }),
  }),
  updateWarningPreset: t.field({
    ...accessOf(updateWarningPreset),
    type: WarningPresetRef,
    args: { id: t.arg.id({ required: true }), title: t.arg.string(), text: t.arg.string() },
    resolve: (_r, a, ctx) => updateWarningPreset(ctx, { id: String(a.id), title: a.title, text: a.text }),
  }),
  deleteWarningPreset: t.field({ ...accessOf(deleteWarningPreset), type: WarningPresetRef, args: { id: t.arg.id({ required: true }) }, resolve: (_r, a, ctx) => deleteWarningPreset(ctx, { id: String(a.id) }) }),
}));
