// Reference API markers: the read positions of the home timeline and notifications.
import type { MarkerView } from "../../src/domain/notifications/markers.ops.ts";
import type { Ctx } from "../../src/domain/context.ts";

export function renderMarkers(ctx: Ctx, markers: Partial<Record<string, MarkerView>>) {
  const out: Record<string, unknown> = {};
  for (const [timeline, view] of Object.entries(markers)) {
    if (!view) continue;
    out[timeline] = {
      last_read_id: view.marker.lastReadId,
      version: view.marker.version,
      updated_at: view.marker.updatedAt.toISOString(),
      ...(view.unreadCount !== undefined ? { [ctx.settings.namespace]: { unread_count: view.unreadCount } } : {}),
    };
  }
  return out;
}
