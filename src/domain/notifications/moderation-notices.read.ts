// What the instance told an account about moderation, for its notifications: the warnings and the
// account's shares of relationship-severance events. Loaded per page in one statement each, only when present.
import type { Account, AccountRelationshipSeveranceEvent, AccountWarning, RelationshipSeveranceEvent } from "../../generated/prisma/client.ts";
import type { Ctx } from "../context.ts";

export type Warning = AccountWarning & { account: Account };
export type SeveranceShare = AccountRelationshipSeveranceEvent & { event: RelationshipSeveranceEvent };

export async function loadWarnings(ctx: Ctx, ids: string[]): Promise<Map<string, Warning>> {
  if (ids.length === 0) return new Map();
  const rows = await ctx.db.accountWarning.findMany({ where: { id: { in: [...new Set(ids)] } }, include: { account: true } });
  return new Map(rows.map((w) => [w.id, w]));
}

export async function loadSeveranceEvents(ctx: Ctx, ids: string[]): Promise<Map<string, SeveranceShare>> {
  if (ids.length === 0) return new Map();
  const rows = await ctx.db.accountRelationshipSeveranceEvent.findMany({ where: { id: { in: [...new Set(ids)] } }, include: { event: true } });
  return new Map(rows.map((e) => [e.id, e]));
}
