// Delivering a push (RFC 8030): the payload is encrypted (RFC 8291, aes128gcm) and signed (VAPID,
// RFC 8292) by the web-push library and posted through the guarded fetcher, since the endpoint is a
// URL the client chose. Push-service trouble (network, 429, 5xx) throws, so the job is retried with
// backoff; 404 and 410 mean the subscription is gone and it is deleted.
import type { JobDefinition } from "../../jobs/registry.ts";
import { GuardedFetchError, guardedFetch } from "../../net/guarded-fetch.ts";
import { systemCtx, type Ctx } from "../context.ts";
import { wantsAlert } from "./alerts.ts";
import { PUSH_DELIVERY_JOB, type PushDelivery } from "./deliveries.ts";
import { pushNotificationInclude, renderPushPayload } from "./payload.ts";
import { vapidKeys } from "./vapid.ts";

/** How long a push service keeps a push for an offline device (the reference's 48 hours). */
const TTL_SECONDS = 48 * 60 * 60;
/** A push service's answer is a few bytes; anything more is not read. */
const MAX_ANSWER_BYTES = 64 * 1024;

/** The recipient's policy: followed = the recipient follows the sender, follower = the sender follows the recipient. */
async function policyAdmits(ctx: Ctx, policy: string, recipientId: string, senderId: string): Promise<boolean> {
  if (policy === "none") return false;
  if (policy === "all" || recipientId === senderId) return true;
  const [followerId, followingId] = policy === "followed" ? [recipientId, senderId] : [senderId, recipientId];
  return (await ctx.db.follow.count({ where: { followerId, followingId, state: "accept" } })) > 0;
}

/** The VAPID contact (RFC 8292 `sub`): the instance's address, which push services may write to. */
function vapidSubject(ctx: Ctx): string {
  return `mailto:${ctx.config.get("instance", "email") || ctx.config.get("mailer", "from")}`;
}

export async function deliverPush(ctx: Ctx, { subscriptionId, notificationId }: PushDelivery): Promise<void> {
  const [subscription, notification] = await Promise.all([
    ctx.db.pushSubscription.findUnique({ where: { id: subscriptionId } }),
    ctx.db.notification.findUnique({ where: { id: notificationId }, include: pushNotificationInclude }),
  ]);
  // unsubscribed, dismissed or undone (an unfavourite deletes its notification) since it was queued
  if (!subscription || !notification || subscription.accountId !== notification.accountId) return;
  if (!wantsAlert(subscription.alerts, notification.type)) return;
  if (!(await policyAdmits(ctx, subscription.policy, notification.accountId, notification.fromAccountId))) return;

  const keys = await vapidKeys(ctx);
  const { default: webpush } = await import("web-push"); // at the first push, not at start
  const request = webpush.generateRequestDetails(
    { endpoint: subscription.endpoint, keys: { p256dh: subscription.keyP256dh, auth: subscription.keyAuth } },
    JSON.stringify(renderPushPayload(ctx, notification)),
    { vapidDetails: { subject: vapidSubject(ctx), ...keys }, TTL: TTL_SECONDS, urgency: "normal", contentEncoding: "aes128gcm" },
  );
  const headers = Object.fromEntries(Object.entries(request.headers as Record<string, unknown>).map(([k, v]) => [k, String(v)]));
  let status: number;
  try {
    ({ status } = await guardedFetch(ctx, request.endpoint, { method: "POST", headers, body: request.body, maxBytes: MAX_ANSWER_BYTES }));
  } catch (error) {
    // an address the guard refuses will not become acceptable by retrying
    if (error instanceof GuardedFetchError && (error.reason === "refused" || error.reason === "too_large")) return;
    throw error;
  }
  if (status === 404 || status === 410) await ctx.db.pushSubscription.deleteMany({ where: { id: subscription.id } });
  else if (status === 429 || status >= 500) throw new Error(`push service answered ${status}`);
  // other answers (400 bad request, 413 too large, 403 bad VAPID) would only repeat: given up
}

export const pushJobs: JobDefinition[] = [
  {
    name: PUSH_DELIVERY_JOB,
    handler: (services) => (payload: PushDelivery) => deliverPush(systemCtx(services), payload),
  },
];
