// Reference API timelines: home, public, hashtag, bubble and an account's statuses.
import { z } from "zod";
import type { Ctx } from "../../src/domain/context.ts";
import type { Page } from "../../src/domain/pagination.ts";
import type { Status } from "../../src/generated/prisma/client.ts";
import { accountStatuses, bubbleTimeline, directTimeline, homeTimeline, publicTimeline, tagTimeline } from "../../src/domain/timelines/timelines.ops.ts";
import type { IdPage } from "../../src/http/routes/pagination.ts";
import { pageSpecs } from "../../src/http/routes/page-cache.ts";
import { route, type RouteDef } from "../../src/http/routes/route.ts";
import { renderStatuses } from "../../src/views/status.ts";
import { StatusListSchema } from "../../src/views/schemas/status.ts";

/** A timeline's page with its statuses rendered (the mount code sets the Link header from the cursors). */
async function answer(ctx: Ctx, page: Page<Status>): Promise<IdPage> {
  return { ...page, items: await renderStatuses(ctx, page.items) };
}

export const timelineRoutes: RouteDef[] = [
  route({
    method: "GET",
    path: "/api/v1/timelines/home",
    view: StatusListSchema,
    summary: "Statuses of the signed-in account, the accounts it follows and those addressed to it",
    tags: ["Timelines"],
    operation: homeTimeline,
    query: homeTimeline.input,
    paged: "id",
    pageCache: (_ctx, { query }) => pageSpecs.home(query),
    async handler(ctx, { query }) {
      return answer(ctx, await homeTimeline(ctx, query));
    },
  }),
  route({
    method: "GET",
    path: "/api/v1/timelines/direct",
    view: StatusListSchema,
    summary: "Direct statuses the signed-in account wrote or is addressed by (the earlier reference API; conversations are the later form)",
    tags: ["Timelines"],
    operation: directTimeline,
    query: directTimeline.input,
    paged: "id",
    pageCache: (_ctx, { query }) => pageSpecs.direct(query),
    async handler(ctx, { query }) {
      return answer(ctx, await directTimeline(ctx, query));
    },
  }),
  route({
    method: "GET",
    path: "/api/v1/timelines/public",
    view: StatusListSchema,
    rateLimit: "timeline",
    summary: "Public statuses (and local-only ones for signed-in users); local, remote, only_media, instance",
    tags: ["Timelines"],
    operation: publicTimeline,
    query: publicTimeline.input,
    paged: "id",
    pageCache: (_ctx, { query }) => pageSpecs.public(query),
    async handler(ctx, { query }) {
      return answer(ctx, await publicTimeline(ctx, query));
    },
  }),
  route({
    method: "GET",
    path: "/api/v1/timelines/bubble",
    view: StatusListSchema,
    rateLimit: "timeline",
    summary: "Local statuses and those of the instances in the administrator's bubble",
    tags: ["Timelines"],
    operation: bubbleTimeline,
    query: bubbleTimeline.input,
    paged: "id",
    async handler(ctx, { query }) {
      return answer(ctx, await bubbleTimeline(ctx, query));
    },
  }),
  route({
    method: "GET",
    path: "/api/v1/timelines/tag/:hashtag",
    view: StatusListSchema,
    rateLimit: "timeline",
    summary: "Public statuses with the hashtag (any[], all[], none[] refine it)",
    tags: ["Timelines"],
    operation: tagTimeline,
    params: z.object({ hashtag: z.string() }),
    query: tagTimeline.input.omit({ hashtag: true }),
    paged: "id",
    pageCache: (_ctx, { params, query }) => pageSpecs.tag({ ...query, hashtag: params.hashtag }),
    async handler(ctx, { params, query }) {
      return answer(ctx, await tagTimeline(ctx, { ...query, hashtag: params.hashtag }));
    },
  }),
  route({
    method: "GET",
    path: "/api/v1/accounts/:id/statuses",
    view: StatusListSchema,
    summary: "An account's statuses (id or nickname); pinned, tagged, only_media, with_muted, exclude_reblogs, exclude_replies, exclude_visibilities[]",
    tags: ["Accounts"],
    operation: accountStatuses,
    params: z.object({ id: z.string() }),
    query: accountStatuses.input.omit({ id: true }),
    paged: "id",
    pageCache: (_ctx, { params, query }) => pageSpecs.account({ ...query, id: params.id }),
    async handler(ctx, { params, query }) {
      return answer(ctx, await accountStatuses(ctx, { ...query, id: params.id }));
    },
  }),
];
