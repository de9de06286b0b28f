// The family's token management for the signed-in user (pleroma-fe's "security" settings).
import { z } from "zod";
import { deleteOwnToken, listOwnTokens } from "../../src/domain/auth/tokens.ops.ts";
import { route } from "../../src/http/routes/route.ts";
import { renderOwnToken } from "../../src/views/app.ts";
import { OwnTokenSchema } from "../../src/views/schemas/own.ts";
import { listOf } from "../../src/views/schemas/view.ts";

export const ownTokenRoutes = [
  route({
    method: "GET",
    path: ["/api/oauth_tokens", "/api/oauth_tokens.json"],
    view: listOf(OwnTokenSchema),
    summary: "The signed-in user's OAuth tokens",
    tags: ["OAuth"],
    operation: listOwnTokens,
    async handler(ctx) {
      return (await listOwnTokens(ctx, {})).map(renderOwnToken);
    },
  }),
  route({
    method: "DELETE",
    path: "/api/oauth_tokens/:id",
    summary: "Revoke one of the signed-in user's tokens",
    tags: ["OAuth"],
    operation: deleteOwnToken,
    params: z.object({ id: z.string() }),
    status: 201,
    async handler(ctx, { params, res }) {
      await deleteOwnToken(ctx, { id: params.id });
      res.status(201).end();
    },
  }),
];
