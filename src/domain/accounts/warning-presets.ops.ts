// Warning presets (the reference admin API's `/api/v1/admin/warning_presets`): texts a moderator picks
// for an account action's warning. Admins manage them (the reference's "manage settings" permission);
// the list is short and unpaged, oldest first, as the reference answers it.
import { z } from "zod";
import { newId } from "../../db/ids.ts";
import type { Ctx } from "../context.ts";
import { NotFound, Unprocessable } from "../../kernel/errors.ts";
import { text } from "../input-limits.ts";
import { operation } from "../operation.ts";

const id = z.object({ id: z.string() });

export async function findWarningPreset(ctx: Ctx, presetId: string) {
  const preset = await ctx.db.warningPreset.findUnique({ where: { id: presetId } });
  if (!preset) throw NotFound("Record not found");
  return preset;
}

export const listWarningPresets = operation({
  name: "admin.warningPresets.list",
  access: { scopes: ["admin:read"], role: "admin" },
  input: z.object({}),
  run: (ctx) => ctx.db.warningPreset.findMany({ orderBy: { id: "asc" } }),
});

export const showWarningPreset = operation({ name: "admin.warningPresets.show", access: { scopes: ["admin:read"], role: "admin" }, input: id, run: (ctx, input) => findWarningPreset(ctx, input.id) });

export const createWarningPreset = operation({
  name: "admin.warningPresets.create",
  access: { scopes: ["admin:write"], role: "admin" },
  input: z.object({ title: text().optional().nullable(), text: text() }),
  async run(ctx, input) {
    if (!input.text.trim()) throw Unprocessable("Validation failed: Text can't be blank", { text: "can't be blank" });
    const now = ctx.clock();
    return ctx.db.warningPreset.create({ data: { id: newId(now.getTime()), title: input.title ?? "", text: input.text, createdAt: now, updatedAt: now } });
  },
});

export const updateWarningPreset = operation({
  name: "admin.warningPresets.update",
  access: { scopes: ["admin:write"], role: "admin" },
  input: id.extend({ title: text().optional().nullable(), text: text().optional().nullable() }),
  async run(ctx, input) {
    await findWarningPreset(ctx, input.id);
    if (input.text != null && !input.text.trim()) throw Unprocessable("Validation failed: Text can't be blank", { text: "can't be blank" });
    return ctx.db.warningPreset.update({
      where: { id: input.id },
      data: { ...(input.title != null && { title: input.title }), ...(input.text != null && { text: input.text }), updatedAt: ctx.clock() },
    });
  },
});

export const deleteWarningPreset = operation({
  name: "admin.warningPresets.delete",
  access: { scopes: ["admin:write"], role: "admin" },
  input: id,
  async run(ctx, input) {
    const preset = await findWarningPreset(ctx, input.id);
    await ctx.db.warningPreset.delete({ where: { id: preset.id } });
    return preset;
  },
});
