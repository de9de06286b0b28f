// Admin API: instance rules (admins only, as in the family). Everyone reads them in /api/v1/instance.
import { z } from "zod";
import { createRule, deleteRule, listRules, updateRule } from "../../src/domain/rules/rules.ops.ts";
import { route } from "../../src/http/routes/route.ts";
import { renderAdminRule } from "../../src/views/rule.ts";
import { admin } from "./paths.ts";
import { AdminRuleSchema, EmptySchema } from "../../src/views/schemas/misc.ts";
import { listOf } from "../../src/views/schemas/view.ts";

const tags = ["Admin: rules"];
const idParam = z.object({ id: z.string() });

export const adminRuleRoutes = [
  route({
    method: "GET",
    path: admin("/rules"),
    view: listOf(AdminRuleSchema),
    summary: "The instance rules `[{id, priority, text, hint}]`, by priority then age",
    tags,
    operation: listRules,
    handler: async (ctx) => (await listRules(ctx, {})).map(renderAdminRule),
  }),
  route({
    method: "POST",
    path: admin("/rules"),
    view: AdminRuleSchema,
    summary: "Add a rule: `text` (required), `hint`, `priority` (default 0)",
    tags,
    operation: createRule,
    body: createRule.input,
    handler: async (ctx, { body }) => renderAdminRule(await createRule(ctx, body)),
  }),
  route({
    method: "PATCH",
    path: admin("/rules/:id"),
    view: AdminRuleSchema,
    summary: "Change a rule's text, hint or priority; 404 for an unknown rule",
    tags,
    operation: updateRule,
    params: idParam,
    body: updateRule.input.omit({ id: true }),
    handler: async (ctx, { params, body }) => renderAdminRule(await updateRule(ctx, { ...body, id: params.id })),
  }),
  route({
    method: "DELETE",
    path: admin("/rules/:id"),
    view: EmptySchema,
    summary: "Delete a rule; answers `{}`; 404 for an unknown rule",
    tags,
    operation: deleteRule,
    params: idParam,
    async handler(ctx, { params }) {
      await deleteRule(ctx, { id: params.id });
      return {};
    },
  }),
];
