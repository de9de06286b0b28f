// The reference WebPushSubscription entity: {id, endpoint, alerts, server_key, policy}.
import type { PushSubscription } from "../../src/generated/prisma/client.ts";
import { renderAlerts } from "../../src/domain/push/alerts.ts";

export function renderPushSubscription(namespace: string, sub: PushSubscription, serverKey: string) {
  return {
    id: String(sub.id),
    endpoint: sub.endpoint,
    alerts: renderAlerts(namespace, sub.alerts),
    server_key: serverKey,
    policy: sub.policy,
  };
}
