// The reference WebPushSubscription entity: {id, endpoint, alerts, server_key, policy}.
import type { PushSubscription } from "../../src/generated/prisma/client.ts";
import { renderAlerts } from "../../src/domain/push/alerts.ts";
import { vapidPublicKey } from "../../src/domain/push/vapid.ts";
import type { Ctx } from "../../src/domain/context.ts";

export function renderPushSubscription(namespace: string, sub: PushSubscription, serverKey: string) {
  return {
    id: String(sub.id),
    endpoint: sub.endpoint,
    alerts: renderAlerts(namespace, sub.alerts),
    server_key: serverKey,
    policy: sub.policy,
  };
}

export async function renderPushSubscriptionOf(ctx: Ctx, sub: PushSubscription) {
  return renderPushSubscription(ctx.settings.namespace, sub, await vapidPublicKey(ctx));
}
