// Queueing push deliveries for stored notifications. Called by notify.ts, which runs once per
// notification (unlike the bus, which every process hears), so each push is queued exactly once, in
// the notification's own transaction: the jobs are rows of the same database (or its outbox, with
// Redis), so both commit or neither does.
import type { JobOptions } from "../../jobs/queue.ts";
import type { Ctx } from "../context.ts";
import { wantsAlert } from "./alerts.ts";

export const PUSH_DELIVERY_JOB = "push.deliver";

/** A push service may be down for a while: 10 tries over about 8.5 minutes (1 s, 2 s, 4 s, …). */
export const PUSH_JOB_OPTIONS: JobOptions = { attempts: 10, backoff: { type: "exponential", delay: 1000 } };

export interface PushDelivery {
  subscriptionId: number;
  notificationId: string;
}

/**
 * One durable job per notification and subscription whose alerts ask for its type (the policy is
 * checked when sending). Notifications stored already seen (a muted actor) buzz nobody's phone.
 * Costs one query (none when the caller passes `known`), plus one enqueue per delivery.
 */
export async function queuePushDeliveries(
  ctx: Pick<Ctx, "db" | "jobs">,
  notifications: readonly { id: string; accountId: string; type: string; seen?: boolean }[],
  /** the recipients' subscriptions when the caller read them already (notify.ts: no query here then) */
  known?: readonly { id: number; accountId: string; alerts: unknown }[],
): Promise<void> {
  const fresh = notifications.filter((n) => !n.seen);
  if (fresh.length === 0) return;
  const subscriptions =
    known ??
    (await ctx.db.pushSubscription.findMany({
      where: { accountId: { in: [...new Set(fresh.map((n) => n.accountId))] } },
      select: { id: true, accountId: true, alerts: true },
    }));
  for (const n of fresh)
    for (const s of subscriptions)
      if (s.accountId === n.accountId && wantsAlert(s.alerts, n.type))
        await ctx.jobs.enqueue(PUSH_DELIVERY_JOB, { subscriptionId: s.id, notificationId: n.id } satisfies PushDelivery, PUSH_JOB_OPTIONS);
}
