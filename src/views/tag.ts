// Reference API hashtags: followed and featured tags.
import type { FeaturedTagView } from "../../src/domain/tags/featured-tags.ops.ts";
import type { TagView } from "../../src/domain/tags/followed-tags.ops.ts";
import type { Ctx } from "../../src/domain/context.ts";

/** The Tag entity: name, url, usage history (not kept: empty), and whether the viewer follows it. */
export function renderTag(ctx: Ctx, t: TagView) {
  return {
    id: t.tag.id,
    name: t.tag.name,
    url: `${ctx.settings.baseUrl}/tag/${encodeURIComponent(t.tag.name)}`,
    history: [],
    ...(t.following !== null && { following: t.following }),
  };
}

/** The FeaturedTag entity. */
export function renderFeaturedTag(ctx: Ctx, f: FeaturedTagView) {
  const url = `${ctx.settings.baseUrl}/tag/${encodeURIComponent(f.tag.name)}`;
  return { id: f.id, name: f.tag.name, url, statuses_count: String(f.statusesCount), last_status_at: f.lastStatusAt?.toISOString().slice(0, 10) ?? null };
}
