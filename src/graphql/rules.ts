// Instance rules: everyone reads them (`instanceRules`); admins change them, as over REST.
import { createRule, deleteRule, listRules, readRules, updateRule } from "../domain/rules/rules.ops.ts";
import type { Rule } from "../generated/prisma/client.ts";
import { accessOf } from "./access.ts";
import { builder } from "./builder.ts";
import { opt } from "./paging.ts";

const RuleRef = builder.objectRef<Rule>("InstanceRule").implement({
  description: "An instance rule, ordered by priority then age",
  fields: (t) => ({
    id: t.exposeID("id"),
    text: t.exposeString("text"),
    hint: t.string({ resolve: (r) => r.hint ?? "" }),
    priority: t.exposeInt("priority"),
  }),
});

builder.queryField("instanceRules", (t) => t.field({ type: [RuleRef], resolve: (_r, _a, ctx) => readRules(ctx) }));
// the admin API's read of the same rules: GET /admin/rules's operation, guarded as it declares
builder.queryField("adminRules", (t) => t.field({ ...accessOf(listRules), type: [RuleRef], resolve: (_r, _a, ctx) => listRules(ctx, {}) }));

builder.mutationFields((t) => ({
  createRule: t.field({
    ...accessOf(createRule),
    type: RuleRef,
    args: { text: t.arg.string({ required: true }), hint: t.arg.string(), priority: t.arg.int() },
    resolve: (_r, a, ctx) => createRule(ctx, { text: a.text, hint: a.hint, priority: opt(a.priority) }),
  }),
  updateRule: t.field({
    ...accessOf(updateRule),
    type: RuleRef,
    args: { id: t.arg.id({ required: true }), text: t.arg.string(), hint: t.arg.string(), priority: t.arg.int() },
    resolve: (_r, a, ctx) => updateRule(ctx, { id: Number(a.id), text: opt(a.text), hint: a.hint, priority: opt(a.priority) }),
  }),
  deleteRule: t.field({
    ...accessOf(deleteRule),
    type: "Boolean",
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, a, ctx) => {
      await deleteRule(ctx, { id: Number(a.id) });
      return true;
    },
  }),
}));
