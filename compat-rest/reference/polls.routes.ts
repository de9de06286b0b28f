// Reference API: reading a poll and voting on it.
import { z } from "zod";
import { showPoll, votePoll } from "../../src/domain/polls/polls.ops.ts";
import { array, int } from "../inputs.ts";
import { route, type RouteDef } from "../../src/http/routes/route.ts";
import { renderPoll } from "../../src/views/status.ts";
import { PollSchema } from "../../src/views/schemas/status.ts";

const idParam = z.object({ id: z.string() });

export const pollRoutes: RouteDef[] = [
  route({
    method: "GET",
    path: "/api/v1/polls/:id",
    view: PollSchema,
    summary: "A poll (404 when its status is not visible to the viewer)",
    tags: ["Polls"],
    operation: showPoll,
    params: idParam,
    async handler(ctx, { params }) {
      return renderPoll(ctx, await showPoll(ctx, params));
    },
  }),
  route({
    method: "POST",
    path: "/api/v1/polls/:id/votes",
    view: PollSchema,
    summary: "Vote on a poll with the indices of the chosen options (choices[]); answers the poll",
    tags: ["Polls"],
    operation: votePoll,
    params: idParam,
    body: z.object({ choices: array(int()) }),
    async handler(ctx, { params, body }) {
      return renderPoll(ctx, await votePoll(ctx, { id: params.id, choices: body.choices }));
    },
  }),
];
