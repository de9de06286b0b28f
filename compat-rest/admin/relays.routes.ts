// Admin API: relay subscriptions (admins only). Following sends the relay actor's Follow (docs/federation.md, "Relays").
import { followRelay, listRelays, RelayFailure, unfollowRelay } from "../../src/domain/relays/relays.ops.ts";
import { route } from "../../src/http/routes/route.ts";
import { admin } from "./paths.ts";
import { RelaySchema, RelaysSchema } from "../../src/views/schemas/admin.ts";
import { StringSchema } from "../../src/views/schemas/misc.ts";
import { renderRelay } from "../../src/views/relay.ts";

const tags = ["Admin: relays"];

export const adminRelayRoutes = [
  route({
    method: "GET",
    path: admin("/relay"),
    view: RelaysSchema,
    summary: "Followed relays",
    tags,
    operation: listRelays,
    response: { description: "array of `{actor, followed_back}` (the spec's shape); in the pleroma profile `{relays: [...]}`, as the family's servers answer and its admin front end reads" },
    async handler(ctx) {
      const relays = (await listRelays(ctx, {})).map(renderRelay);
      return ctx.settings.profile === "pleroma" ? { relays } : relays;
    },
  }),
  route({
    method: "POST",
    path: admin("/relay"),
    view: RelaySchema,
    summary: "Follow a relay",
    tags,
    operation: followRelay,
    body: followRelay.input,
    response: { description: "`{actor, followed_back}`; following it again answers the same" },
    handler: async (ctx, { body }) => renderRelay(await followRelay(ctx, body)),
  }),
  route({
    method: "DELETE",
    path: admin("/relay"),
    view: StringSchema,
    summary: "Unfollow a relay",
    tags,
    operation: unfollowRelay,
    body: unfollowRelay.input,
    response: { description: "the relay URL; an unknown relay (without `force`) answers 404 `{error}` (the family answers 500 with the URL)" },
    errors: (e) => (e instanceof RelayFailure ? { status: 404, body: { error: e.message } } : undefined),
    handler: (ctx, { body }) => unfollowRelay(ctx, body),
  }),
];
