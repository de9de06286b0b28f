// Push alert names and policies. Alerts are stored by notification type (`emoji_reaction`, `report`),
// so changing the namespace word keeps every subscription working; on the wire they carry the
// reference names (`admin.report`) and the family's prefixed ones (`<ns>:emoji_reaction`).
import type { NotificationType } from "../notifications/notify.ts";

export const PUSH_POLICIES = ["all", "followed", "follower", "none"] as const;
export type PushPolicy = (typeof PUSH_POLICIES)[number];

/** stored key → wire name; `admin.sign_up` is kept for clients that send it (no sign-up notifications exist yet) */
const ALERTS: readonly { key: NotificationType | "admin.sign_up"; wire: (ns: string) => string }[] = [
  ...(["mention", "status", "reblog", "follow", "follow_request", "favourite", "poll", "update", "move"] as const).map((key) => ({ key, wire: () => key })),
  { key: "admin.sign_up", wire: () => "admin.sign_up" },
  { key: "report", wire: () => "admin.report" },
  ...(["emoji_reaction", "chat_mention"] as const).map((key) => ({ key, wire: (ns: string) => `${ns}:${key}` })),
];

export type StoredAlerts = Partial<Record<string, boolean>>;

/** The entity's `alerts`: every alert the server knows, on or off. */
export function renderAlerts(namespace: string, stored: unknown): Record<string, boolean> {
  const on = (stored ?? {}) as StoredAlerts;
  return Object.fromEntries(ALERTS.map((a) => [a.wire(namespace), on[a.key] === true]));
}

/** Stored alerts from the wire names a client sent; unknown names are ignored, as the reference does. */
export function parseAlerts(namespace: string, given: Record<string, boolean>): StoredAlerts {
  return Object.fromEntries(ALERTS.filter((a) => a.wire(namespace) in given).map((a) => [a.key, given[a.wire(namespace)] === true]));
}

/** Whether stored alerts ask for notifications of this stored type. */
export function wantsAlert(stored: unknown, type: string): boolean {
  return ((stored ?? {}) as StoredAlerts)[type] === true;
}
