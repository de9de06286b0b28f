// The Tag entity with its usage history (trends), public and as staff see it (Admin::Tag).
import type { Ctx } from "../../src/domain/context.ts";
import type { TagDay, TrendingTag } from "../../src/domain/trends/trends.ops.ts";

const tagUrl = (ctx: Ctx, name: string) => `${ctx.settings.baseUrl}/tag/${encodeURIComponent(name)}`;

/** A day of history as the reference writes it: the day as a UNIX timestamp, every number a string. */
const renderDay = (d: TagDay) => ({ day: String(Math.floor(d.day.getTime() / 1000)), uses: String(d.uses), accounts: String(d.accounts) });

export function renderTrendingTag(ctx: Ctx, t: TrendingTag) {
  return {
    id: t.tag.id,
    name: t.tag.name,
    url: tagUrl(ctx, t.tag.name),
    history: t.history.map(renderDay),
    ...(t.following !== null && { following: t.following }),
  };
}

/** Admin::Tag: `trendable` once approved, `requires_review` until reviewed; every tag is usable (none is disabled). */
export function renderAdminTag(ctx: Ctx, t: TrendingTag) {
  return {
    id: t.tag.id,
    name: t.tag.name,
    url: tagUrl(ctx, t.tag.name),
    history: t.history.map(renderDay),
    trendable: t.allowed === true,
    usable: true,
    requires_review: t.allowed === null,
  };
}
