// The family's emoji reactions: react, unreact, list (all groups or one emoji's), and the later
// variant's reference-style alias for reacting. The emoji is a path segment, URL-encoded.
import { z } from "zod";
import { addReaction, listReactions, removeReaction } from "../../src/domain/reactions/reactions.ops.ts";
import { bool } from "../inputs.ts";
import { route, type RouteDef } from "../../src/http/routes/route.ts";
import { renderStatus } from "../../src/views/status.ts";
import { ReactionSchema } from "../../src/views/schemas/own.ts";
import { StatusSchema } from "../../src/views/schemas/status.ts";
import { listOf } from "../../src/views/schemas/view.ts";
import { renderReactionGroups } from "../../src/views/reaction.ts";

const emojiParams = z.object({ id: z.string(), emoji: z.string() });
const listQuery = z.object({ with_muted: bool().optional() });
const statusResponse = { description: "The status, with the reaction groups in emoji_reactions and <ns>.emoji_reactions" };

export const reactionRoutes: RouteDef[] = [
  route({
    method: "PUT",
    path: ["/api/v1/$ns/statuses/:id/reactions/:emoji", "/api/v1/statuses/:id/emoji_reactions/:emoji"],
    view: StatusSchema,
    summary: "React to a status with a unicode emoji or one of the instance's custom emoji (`:shortcode:` or `shortcode`); reacting again changes nothing; notifies the author",
    tags: ["Reactions"],
    operation: addReaction,
    params: emojiParams,
    response: statusResponse,
    async handler(ctx, { params }) {
      return renderStatus(ctx, await addReaction(ctx, params));
    },
  }),
  route({
    method: "DELETE",
    path: "/api/v1/$ns/statuses/:id/reactions/:emoji",
    view: StatusSchema,
    summary: "Remove the signed-in account's reaction (400 when there is none)",
    tags: ["Reactions"],
    operation: removeReaction,
    params: emojiParams,
    response: statusResponse,
    async handler(ctx, { params }) {
      return renderStatus(ctx, await removeReaction(ctx, params));
    },
  }),
  route({
    method: "GET",
    path: "/api/v1/$ns/statuses/:id/reactions",
    view: listOf(ReactionSchema),
    summary: "Reaction groups {name, count, me, accounts}, in the order of each emoji's first reaction",
    tags: ["Reactions"],
    operation: listReactions,
    params: z.object({ id: z.string() }),
    query: listQuery,
    async handler(ctx, { params, query }) {
      return renderReactionGroups(ctx, await listReactions(ctx, { id: params.id, with_muted: query.with_muted }));
    },
  }),
  route({
    method: "GET",
    path: "/api/v1/$ns/statuses/:id/reactions/:emoji",
    view: listOf(ReactionSchema),
    summary: "The reaction group of one emoji, as an array of zero or one group",
    tags: ["Reactions"],
    operation: listReactions,
    params: emojiParams,
    query: listQuery,
    async handler(ctx, { params, query }) {
      return renderReactionGroups(ctx, await listReactions(ctx, { ...params, with_muted: query.with_muted }));
    },
  }),
];
