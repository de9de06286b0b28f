// Creating notifications (the notifications issue adds reading them). One place decides who is
// spared: yourself, accounts that block or mute the actor, and mutes of notifications.
import { newId } from "../../db/ids.ts";
import type { Ctx } from "../context.ts";
import { activeRelation } from "../relationships/relationships.read.ts";

export type NotificationType = "mention" | "status" | "reblog" | "follow" | "follow_request" | "favourite" | "poll" | "update" | "move" | "emoji_reaction" | "chat_mention" | "report";

export interface NotificationInput {
  accountId: string;
  type: NotificationType;
  fromAccountId: string;
  statusId?: string;
  reportId?: string;
  emoji?: string;
}

/** Stores the notifications that should exist; returns how many. */
export async function notify(ctx: Ctx, items: NotificationInput[]): Promise<number> {
  const wanted = items.filter((n) => n.accountId !== n.fromAccountId || n.type === "poll");
  if (wanted.length === 0) return 0;
  const recipients = [...new Set(wanted.map((n) => n.accountId))];
  const actors = [...new Set(wanted.map((n) => n.fromAccountId))];
  const [silencing, locals] = await Promise.all([
    ctx.db.userRelationship.findMany({
      where: {
        AND: [
          activeRelation(ctx.clock()),
          {
            OR: [
              { sourceId: { in: recipients }, targetId: { in: actors }, type: { in: ["block", "notification_mute"] } },
              { sourceId: { in: actors }, targetId: { in: recipients }, type: "block" },
            ],
          },
        ],
      },
    }),
    ctx.db.account.findMany({ where: { id: { in: recipients }, local: true, deactivated: false }, select: { id: true } }),
  ]);
  const local = new Set(locals.map((a) => a.id));
  const spared = (n: NotificationInput) =>
    silencing.some((r) => (r.sourceId === n.accountId && r.targetId === n.fromAccountId) || (r.sourceId === n.fromAccountId && r.targetId === n.accountId));
  const rows = wanted.filter((n) => local.has(n.accountId) && !spared(n)).map((n) => ({ id: newId(), ...n }));
  if (rows.length) await ctx.db.notification.createMany({ data: rows });
  return rows.length;
}
