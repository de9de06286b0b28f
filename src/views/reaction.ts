// The family's emoji reactions of a status, grouped by emoji.
import type { ReactionGroupWithAccounts } from "../../src/domain/reactions/reactions.ops.ts";
import type { Ctx } from "../../src/domain/context.ts";
import { renderAccounts } from "./account.ts";

/** Reaction groups with their accounts rendered in one batch. */
export async function renderReactionGroups(ctx: Ctx, groups: ReactionGroupWithAccounts[]) {
  const unique = [...new Map(groups.flatMap((g) => g.accounts).map((a) => [a.id, a])).values()];
  const rendered = new Map((await renderAccounts(ctx, unique)).map((a) => [a.id, a]));
  return groups.map((g) => ({ name: g.name, count: g.count, me: g.me, accounts: g.accounts.map((a) => rendered.get(a.id)), ...(g.url ? { url: g.url } : {}) }));
}
