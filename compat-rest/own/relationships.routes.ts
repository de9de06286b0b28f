// The family's own relationship endpoints: subscriptions, follow/block/mute imports, moving an account.
import { z } from "zod";
import { Invalid } from "../../src/kernel/errors.ts";
import { IMPORTS, type ImportKind } from "../../src/domain/relationships/imports.ops.ts";
import { moveAccount } from "../../src/domain/relationships/move.ops.ts";
import { subscribeToAccount, unsubscribeFromAccount } from "../../src/domain/relationships/follows.ops.ts";
import { route, type RouteDef } from "../../src/http/routes/route.ts";
import { renderRelationship } from "../../src/views/relationship.ts";
import { HTTP_LIMITS } from "../../src/http/boundary.ts";
import { MAX_LIST_TEXT } from "../../src/domain/input-limits.ts";
import { RelationshipSchema } from "../../src/views/schemas/account.ts";
import { JobStartedSchema } from "../../src/views/schemas/tools.ts";
import { SuccessSchema } from "../../src/views/schemas/own.ts";

const IMPORT_ROUTES: { kind: ImportKind; path: string }[] = [
  { kind: "follow", path: "follow_import" },
  { kind: "block", path: "blocks_import" },
  { kind: "mute", path: "mutes_import" },
];

export const ownRelationshipRoutes: RouteDef[] = [
  ...(["subscribe", "unsubscribe"] as const).map((action) =>
    route({
      method: "POST",
      path: `/api/v1/$ns/accounts/:id/${action}`,
      view: RelationshipSchema,
      summary: action === "subscribe" ? "Be notified of an account's new posts" : "Stop being notified of an account's new posts",
      tags: ["Relationships"],
      operation: action === "subscribe" ? subscribeToAccount : unsubscribeFromAccount,
      params: z.object({ id: z.string() }),
      async handler(ctx, { params }) {
        return renderRelationship(await (action === "subscribe" ? subscribeToAccount : unsubscribeFromAccount)(ctx, { id: params.id }));
      },
    }),
  ),
  ...IMPORT_ROUTES.map(({ kind, path }) =>
    route({
      method: "POST",
      path: [`/api/$ns/${path}`, `/api/v1/$ns/${path}`],
      view: JobStartedSchema,
      summary: `Import ${kind}s from a list of accounts (text or uploaded file); runs in the background`,
      tags: ["Relationships"],
      operation: IMPORTS[kind],
      body: z.object({ list: z.string().max(MAX_LIST_TEXT).optional() }),
      // a pasted list of up to MAX_LIST_TEXT characters (JSON-escaped, up to 6 bytes each)
      bodyLimit: HTTP_LIMITS.maxBodyBytes,
      files: ["list"],
      fileLimit: () => HTTP_LIMITS.maxBodyBytes,
      response: { description: 'The JSON string "job started"' },
      async handler(ctx, { body, files }) {
        const list = files.list?.[0]?.buffer.toString("utf8") ?? body.list;
        if (list === undefined) throw Invalid("Missing field: list.", { list: "Missing field: list." });
        return IMPORTS[kind](ctx, { list });
      },
    }),
  ),
  route({
    method: "POST",
    path: ["/api/$ns/move_account", "/api/v1/$ns/move_account"],
    view: SuccessSchema,
    summary: "Move the signed-in account to another that lists it in alsoKnownAs; local followers follow along",
    tags: ["Relationships"],
    operation: moveAccount,
    body: z.object({ password: z.string(), target_account: z.string() }),
    // the family answers refusals (wrong password, target not aliased) with 200 and {error}
    async handler(ctx, { body }) {
      return moveAccount(ctx, body);
    },
  }),
];
