// Reading positions (markers) of the home timeline and the notifications. Setting the notifications
// marker also marks the notifications up to it as seen, as the family does.
import { z } from "zod";
import type { Marker } from "../../generated/prisma/client.ts";
import { requireAccount } from "../auth/policy.ts";
import type { Ctx } from "../context.ts";
import { array } from "../inputs.ts";
import { operation } from "../operation.ts";
import { markSeenUpTo } from "./notifications.ops.ts";

export const TIMELINES = ["home", "notifications"] as const;
type Timeline = (typeof TIMELINES)[number];

export interface MarkerView {
  marker: Marker;
  /** unseen notifications (the notifications marker only) */
  unreadCount?: number;
}

async function withCounts(ctx: Ctx, accountId: string, markers: Marker[]): Promise<Partial<Record<Timeline, MarkerView>>> {
  const out: Partial<Record<Timeline, MarkerView>> = {};
  const needsCount = markers.some((m) => m.timeline === "notifications");
  const unread = needsCount ? await ctx.db.notification.count({ where: { accountId, seen: false, filtered: false } }) : 0;
  for (const m of markers) out[m.timeline as Timeline] = { marker: m, ...(m.timeline === "notifications" ? { unreadCount: unread } : {}) };
  return out;
}

export const getMarkers = operation({
  name: "markers.get",
  access: { scopes: ["read:statuses"] },
  input: z.object({ timeline: array(z.string()).optional() }),
  authorize: requireAccount,
  async run(ctx, input) {
    const me = requireAccount(ctx);
    const wanted = (input.timeline ?? []).filter((t): t is Timeline => (TIMELINES as readonly string[]).includes(t));
    if (wanted.length === 0) return {};
    const markers = await ctx.db.marker.findMany({ where: { accountId: me.id, timeline: { in: wanted } } });
    return withCounts(ctx, me.id, markers);
  },
});

const position = z.object({ last_read_id: z.string().min(1) });

export const saveMarkers = operation({
  name: "markers.save",
  access: { scopes: ["write:statuses"] },
  input: z.object({ home: position.optional(), notifications: position.optional() }),
  authorize: requireAccount,
  async run(ctx, input) {
    const me = requireAccount(ctx);
    if (input.notifications) await markSeenUpTo(ctx, me.id, input.notifications.last_read_id);
    const saved: Marker[] = [];
    for (const timeline of TIMELINES) {
      const p = input[timeline];
      if (!p) continue;
      saved.push(
        await ctx.db.marker.upsert({
          where: { accountId_timeline: { accountId: me.id, timeline } },
          create: { accountId: me.id, timeline, lastReadId: p.last_read_id },
          update: { lastReadId: p.last_read_id, version: { increment: 1 } },
        }),
      );
    }
    return withCounts(ctx, me.id, saved);
  },
});
