// Reference API: the Web Push subscription of the calling access token.
import { z } from "zod";
import { PUSH_POLICIES } from "../../src/domain/push/alerts.ts";
import { deletePush, showPush, subscribePush, updatePush } from "../../src/domain/push/push.ops.ts";
import { bool } from "../inputs.ts";
import { route, type RouteDef } from "../../src/http/routes/route.ts";
import { EmptySchema, PushSubscriptionSchema } from "../../src/views/schemas/misc.ts";
import { renderPushSubscriptionOf } from "../../src/views/push-subscription.ts";

const PATH = "/api/v1/push/subscription";
const policy = z.enum(PUSH_POLICIES);
/** `data[alerts][mention]=true`, `data[policy]=followed`; the policy also arrives top-level (masto.js sends it so) */
const data = z.object({ alerts: z.record(z.string(), bool()).optional(), policy: policy.optional() });
const entity = "The WebPushSubscription entity `{id, endpoint, alerts, server_key, policy}`";

export const pushRoutes: RouteDef[] = [
  route({
    method: "POST",
    path: PATH,
    view: PushSubscriptionSchema,
    summary: "Subscribe this access token to Web Push (replaces its existing subscription)",
    tags: ["Push"],
    operation: subscribePush,
    body: z.object({
      subscription: z.object({ endpoint: z.string(), keys: z.object({ p256dh: z.string(), auth: z.string() }) }),
      data: data.optional(),
      policy: policy.optional(),
    }),
    response: { description: entity },
    async handler(ctx, { body }) {
      const { endpoint, keys } = body.subscription;
      const sub = await subscribePush(ctx, { endpoint, ...keys, alerts: body.data?.alerts, policy: body.data?.policy ?? body.policy });
      return renderPushSubscriptionOf(ctx, sub);
    },
  }),
  route({
    method: "GET",
    path: PATH,
    view: PushSubscriptionSchema,
    summary: "The Web Push subscription of this access token",
    tags: ["Push"],
    operation: showPush,
    response: { description: `${entity}; 404 \`{error: "Record not found"}\` when there is none` },
    async handler(ctx) {
      return renderPushSubscriptionOf(ctx, await showPush(ctx, {}));
    },
  }),
  route({
    method: "PUT",
    path: PATH,
    view: PushSubscriptionSchema,
    summary: "Change the alerts (the given set replaces the stored one) or the policy of this token's subscription",
    tags: ["Push"],
    operation: updatePush,
    body: z.object({ data: data.optional(), policy: policy.optional() }),
    response: { description: `${entity}; 404 \`{error: "Record not found"}\` when there is none` },
    async handler(ctx, { body }) {
      return renderPushSubscriptionOf(ctx, await updatePush(ctx, { alerts: body.data?.alerts, policy: body.data?.policy ?? body.policy }));
    },
  }),
  route({
    method: "DELETE",
    path: PATH,
    view: EmptySchema,
    summary: "Remove this access token's Web Push subscription",
    tags: ["Push"],
    operation: deletePush,
    response: { description: "`{}`, also when there was none" },
    async handler(ctx) {
      await deletePush(ctx, {});
      return {};
    },
  }),
];
