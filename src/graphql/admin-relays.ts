// Admin GraphQL for relays: the operations of the admin REST routes, each field guarded as its
// operation declares (scope + admin role; the admin token passes).
import { followRelay, listRelays, unfollowRelay } from "../domain/relays/relays.ops.ts";
import type { Relay } from "../generated/prisma/client.ts";
import { accessOf } from "./access.ts";
import { builder } from "./builder.ts";
import { opt } from "./paging.ts";

const RelayRef = builder.objectRef<Relay>("Relay").implement({
  description: "A relay the instance follows (or asked to follow: `pending` until the relay accepts)",
  fields: (t) => ({
    actor: t.exposeString("actor"),
    state: t.exposeString("state"),
    followedBack: t.exposeBoolean("followedBack"),
  }),
});

builder.queryFields((t) => ({
  adminRelays: t.field({
    ...accessOf(listRelays),
    type: [RelayRef],
    resolve: (_root, _args, ctx) => listRelays(ctx, {}),
  }),
}));

builder.mutationFields((t) => ({
  followRelay: t.field({
    ...accessOf(followRelay),
    type: RelayRef,
    args: { relayUrl: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => followRelay(ctx, { relay_url: args.relayUrl }),
  }),
  unfollowRelay: t.field({
    ...accessOf(unfollowRelay),
    type: "String",
    description: "Answers the relay's URL; an unknown relay is an error unless `force`",
    args: { relayUrl: t.arg.string({ required: true }), force: t.arg.boolean() },
    resolve: (_root, args, ctx) => unfollowRelay(ctx, { relay_url: args.relayUrl, force: opt(args.force) }),
  }),
}));
