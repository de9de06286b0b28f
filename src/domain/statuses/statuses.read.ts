// Reading statuses: one, or many by id (GET /api/v1/statuses?ids[]=), always through visibility.ts.
import { z } from "zod";
import type { Status } from "../../generated/prisma/client.ts";
import type { Ctx } from "../context.ts";
import { NotFound } from "../../kernel/errors.ts";
import { array } from "../inputs.ts";
import { operation } from "../operation.ts";
import { statusCache } from "./status-cache.ts";
import { activeAuthorsAndViewer, canSee } from "./visibility.ts";

/** Keeps the statuses (and reblogs whose original is visible too) the viewer may see. */
export async function filterVisible(ctx: Ctx, statuses: Status[]): Promise<Status[]> {
  if (statuses.length === 0) return [];
  const innerIds = statuses.map((s) => s.reblogOfId).filter((id): id is string => !!id);
  const inner = innerIds.length ? await ctx.db.status.findMany({ where: { id: { in: innerIds } } }) : [];
  const { active, viewer: v } = await activeAuthorsAndViewer(ctx, [...statuses, ...inner].map((s) => s.accountId));
  const byId = new Map(inner.map((s) => [s.id, s]));
  const ok = (s: Status) => active.has(s.accountId) && canSee(v, s);
  return statuses.filter((s) => ok(s) && (!s.reblogOfId || (byId.has(s.reblogOfId) && ok(byId.get(s.reblogOfId)!))));
}

/**
 * A status the viewer may see, or 404 (the family hides what you may not see). Its row comes from the status cache
 * when it holds it (status-cache.ts: the events that change a row drop it), so that a thread or a status opened
 * from a timeline reads only who may see it.
 */
export async function getVisibleStatus(ctx: Ctx, id: string): Promise<Status> {
  const status = statusCache(ctx).get(id)?.row ?? (await ctx.db.status.findUnique({ where: { id } }));
  const [visible] = status ? await filterVisible(ctx, [status]) : [];
  if (!visible) throw NotFound("Record not found");
  return visible;
}

export const showStatus = operation({
  name: "statuses.show",
  access: { scopes: ["read:statuses"], optional: true },
  input: z.object({ id: z.string() }),
  run: (ctx, input) => getVisibleStatus(ctx, input.id),
});

export const showStatuses = operation({
  name: "statuses.showMany",
  access: { scopes: ["read:statuses"], optional: true },
  input: z.object({ ids: array(z.string()).default([]), id: array(z.string()).optional() }),
  async run(ctx, input): Promise<Status[]> {
    const ids = [...new Set([...input.ids, ...(input.id ?? [])])].slice(0, 100);
    if (ids.length === 0) return [];
    const rows = await ctx.db.status.findMany({ where: { id: { in: ids } } });
    const visible = await filterVisible(ctx, rows);
    const byId = new Map(visible.map((s) => [s.id, s]));
    return ids.map((id) => byId.get(id)).filter((s): s is Status => !!s);
  },
});
