// An instance rule: the admin API's `{id, priority, text, hint}`; the instance information shows `{id, text, hint}`.
import type { Rule } from "../../src/generated/prisma/client.ts";

export function renderRule(rule: Rule) {
  return { id: String(rule.id), text: rule.text, hint: rule.hint ?? "" };
}

export function renderAdminRule(rule: Rule) {
  return { ...renderRule(rule), priority: rule.priority };
}
