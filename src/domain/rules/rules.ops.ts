// Instance rules: written by admins (the admin API's rules), read by everyone in the instance
// information, ordered by priority then age, as the family orders them.
import { z } from "zod";
import type { Rule } from "../../generated/prisma/client.ts";
import type { Ctx } from "../context.ts";
import { NotFound } from "../../kernel/errors.ts";
import { int } from "../inputs.ts";
import { operation } from "../operation.ts";

/** Everyone's view of the rules (no authorization: the instance information shows them). */
export function readRules(ctx: Ctx): Promise<Rule[]> {
  return ctx.db.rule.findMany({ orderBy: [{ priority: "asc" }, { id: "asc" }] });
}

export const listRules = operation({
  name: "rules.list",
  access: { scopes: ["admin:read"], role: "admin" },
  input: z.object({}),
  run: (ctx) => readRules(ctx),
});

const fields = {
  text: z.string().trim().min(1).max(5000),
  hint: z.string().max(5000).nullable().optional(),
  priority: int().optional(),
};

export const createRule = operation({
  name: "rules.create",
  access: { scopes: ["admin:write"], role: "admin" },
  input: z.object(fields),
  run: (ctx, input) => ctx.db.rule.create({ data: { text: input.text, hint: input.hint || null, priority: input.priority ?? 0 } }),
});

const idInput = { id: int() };

async function existing(ctx: Ctx, id: number): Promise<Rule> {
  const rule = await ctx.db.rule.findUnique({ where: { id } });
  if (!rule) throw NotFound();
  return rule;
}

/** Changes the fields given; `hint: ""` or null removes the hint. */
export const updateRule = operation({
  name: "rules.update",
  access: { scopes: ["admin:write"], role: "admin" },
  input: z.object({ ...idInput, text: fields.text.optional(), hint: fields.hint, priority: fields.priority }),
  async run(ctx, input) {
    await existing(ctx, input.id);
    return ctx.db.rule.update({
      where: { id: input.id },
      data: {
        ...(input.text !== undefined ? { text: input.text } : {}),
        ...(input.hint !== undefined ? { hint: input.hint || null } : {}),
        ...(input.priority !== undefined ? { priority: input.priority } : {}),
      },
    });
  },
});

export const deleteRule = operation({
  name: "rules.delete",
  access: { scopes: ["admin:write"], role: "admin" },
  input: z.object(idInput),
  async run(ctx, input) {
    await existing(ctx, input.id);
    await ctx.db.rule.delete({ where: { id: input.id } });
  },
});
