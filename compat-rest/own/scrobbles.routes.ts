// Own API: scrobbles (what an account listens to).
import { z } from "zod";
import { createScrobble, listScrobbles } from "../../src/domain/scrobbles/scrobbles.ops.ts";
import { route } from "../../src/http/routes/route.ts";
import { renderScrobbles } from "../../src/views/scrobble.ts";
import { ScrobbleSchema } from "../../src/views/schemas/own.ts";
import { listOf } from "../../src/views/schemas/view.ts";

const tags = ["Scrobbles"];

export const scrobbleRoutes = [
  route({
    method: "POST",
    path: "/api/v1/$ns/scrobble",
    view: ScrobbleSchema,
    summary: "Record a listen: `title` (required), `artist`, `album`, `length` (ms), `externalLink`, `visibility` (default public)",
    tags,
    operation: createScrobble,
    body: createScrobble.input,
    async handler(ctx, { body }) {
      const scrobble = await createScrobble(ctx, body);
      return (await renderScrobbles(ctx, ctx.viewer.account!, [scrobble]))[0];
    },
  }),
  route({
    method: "GET",
    path: "/api/v1/$ns/accounts/:id/scrobbles",
    view: listOf(ScrobbleSchema),
    summary: "An account's scrobbles the viewer may see, newest first, paged like statuses",
    tags,
    operation: listScrobbles,
    params: z.object({ id: z.string() }),
    query: listScrobbles.input.omit({ id: true }),
    paged: "id",
    async handler(ctx, { params, query }) {
      const page = await listScrobbles(ctx, { ...query, id: params.id });
      return { ...page, items: await renderScrobbles(ctx, page.account, page.items) };
    },
  }),
];
