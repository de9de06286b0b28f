// Own API: remote interaction (the family's `POST /api/v1/<ns>/remote_interaction`). Public, as in the
// family; an unknown profile answers 200 `{error: "Couldn't find user"}`, the family's documented shape.
import { remoteInteraction } from "../../src/domain/federation/remote-interaction.ops.ts";
import { route } from "../../src/http/routes/route.ts";
import { RemoteInteractionSchema } from "../../src/views/schemas/tools.ts";

export const remoteInteractionRoutes = [
  route({
    method: "POST",
    path: "/api/v1/$ns/remote_interaction",
    view: RemoteInteractionSchema,
    summary: "The URL of the interaction page for `ap_id` on the server of `profile` (user@host)",
    tags: ["Accounts"],
    operation: remoteInteraction,
    body: remoteInteraction.input,
    errors: (e) => (e.kind === "not_found" ? { status: 200, body: { error: e.message } } : undefined),
    handler: async (ctx, { body }) => remoteInteraction(ctx, body),
  }),
];
