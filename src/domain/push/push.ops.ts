// Web push subscriptions (reference API `/api/v1/push/subscription`): one per access token, as in the
// reference; subscribing again replaces the token's subscription. Deliveries: push.jobs.ts.
import { z } from "zod";
import type { PushSubscription } from "../../generated/prisma/client.ts";
import { requireAccount } from "../auth/policy.ts";
import type { Ctx } from "../context.ts";
import { Forbidden, Invalid, NotFound } from "../../kernel/errors.ts";
import { bool } from "../inputs.ts";
import { operation } from "../operation.ts";
import { parseAlerts, PUSH_POLICIES } from "./alerts.ts";

/** The token the subscription belongs to; cookie and Basic credentials have none. */
function requireToken(ctx: Ctx): number {
  requireAccount(ctx);
  if (ctx.viewer.tokenId === undefined) throw Forbidden("Push subscriptions belong to an OAuth access token.");
  return ctx.viewer.tokenId;
}

/** A key as clients send it (base64url, or base64 with padding) → base64url of exactly `bytes` bytes. */
function decodeKey(value: string, bytes: number, field: string): string {
  const raw = Buffer.from(value, "base64");
  if (raw.length !== bytes || (bytes === 65 && raw[0] !== 4)) throw Invalid(`${field} - Invalid key.`, { [field]: "Invalid key." });
  return raw.toString("base64url");
}

/** The reference's one scope for Web Push; every push operation is the calling token's own. */
const PUSH_ACCESS = { scopes: ["push"] } as const;

const alertsInput = z.record(z.string(), bool());
const policyInput = z.enum(PUSH_POLICIES);

export const subscribePush = operation({
  name: "push.subscribe",
  access: PUSH_ACCESS,
  input: z.object({
    endpoint: z.string().refine((s) => URL.canParse(s) && /^https?:$/.test(new URL(s).protocol), "must be an http or https URL"),
    p256dh: z.string(),
    auth: z.string(),
    alerts: alertsInput.optional(),
    policy: policyInput.optional(),
  }),
  authorize: requireToken,
  async run(ctx, input): Promise<PushSubscription> {
    const tokenId = requireToken(ctx);
    const data = {
      accountId: requireAccount(ctx).id,
      tokenId,
      endpoint: input.endpoint,
      keyP256dh: decodeKey(input.p256dh, 65, "subscription.keys.p256dh"),
      keyAuth: decodeKey(input.auth, 16, "subscription.keys.auth"),
      alerts: parseAlerts(ctx.settings.namespace, input.alerts ?? {}),
      policy: input.policy ?? "all",
    };
    // the reference deletes the token's old subscription and creates a new one (a new id)
    const [, created] = await ctx.db.$transaction([ctx.db.pushSubscription.deleteMany({ where: { tokenId } }), ctx.db.pushSubscription.create({ data })]);
    return created;
  },
});

export const showPush = operation({
  name: "push.show",
  access: PUSH_ACCESS,
  input: z.object({}),
  authorize: requireToken,
  async run(ctx): Promise<PushSubscription> {
    const found = await ctx.db.pushSubscription.findUnique({ where: { tokenId: requireToken(ctx) } });
    if (!found) throw NotFound("Record not found");
    return found;
  },
});

/** Only the data part changes; given alerts replace the stored set (the reference), an omitted policy stays. */
export const updatePush = operation({
  name: "push.update",
  access: PUSH_ACCESS,
  input: z.object({ alerts: alertsInput.optional(), policy: policyInput.optional() }),
  authorize: requireToken,
  async run(ctx, input): Promise<PushSubscription> {
    const tokenId = requireToken(ctx);
    const data = {
      ...(input.alerts ? { alerts: parseAlerts(ctx.settings.namespace, input.alerts) } : {}),
      ...(input.policy ? { policy: input.policy } : {}),
    };
    const { count } = await ctx.db.pushSubscription.updateMany({ where: { tokenId }, data });
    if (count === 0) throw NotFound("Record not found");
    return ctx.db.pushSubscription.findUniqueOrThrow({ where: { tokenId } });
  },
});

/** Answers whether or not there was one, as the reference does. */
export const deletePush = operation({
  name: "push.delete",
  access: PUSH_ACCESS,
  input: z.object({}),
  authorize: requireToken,
  async run(ctx): Promise<void> {
    await ctx.db.pushSubscription.deleteMany({ where: { tokenId: requireToken(ctx) } });
  },
});
