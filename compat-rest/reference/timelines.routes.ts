// Reference API timelines: home, public, hashtag, bubble and an account's statuses.
import type { Request, Response } from "express";
import { z } from "zod";
import type { Ctx } from "../../src/domain/context.ts";
import type { Page } from "../../src/domain/pagination.ts";
import type { Status } from "../../src/generated/prisma/client.ts";
import { accountStatuses, bubbleTimeline, directTimeline, homeTimeline, publicTimeline, tagTimeline } from "../../src/domain/timelines/timelines.ops.ts";
import { setLinkHeader } from "../pagination.ts";
import { route, type RouteDef } from "../route.ts";
import { renderStatuses } from "../views/status.ts";
import { StatusListSchema } from "../views/schemas/status.ts";

const READ = { scopes: ["read:statuses"] } as const;
const OPTIONAL = { scopes: ["read:statuses"], optional: true } as const;

async function answer(ctx: Ctx, req: Request, res: Response, page: Page<Status>) {
  setLinkHeader(req, res, ctx.settings.baseUrl, page);
  return renderStatuses(ctx, page.items);
}

export const timelineRoutes: RouteDef[] = [
  route({
    method: "GET",
    path: "/api/v1/timelines/home",
    view: StatusListSchema,
    summary: "Statuses of the signed-in account, the accounts it follows and those addressed to it",
    tags: ["Timelines"],
    auth: READ,
    query: homeTimeline.input,
    async handler(ctx, { query, req, res }) {
      return answer(ctx, req, res, await homeTimeline(ctx, query));
    },
  }),
  route({
    method: "GET",
    path: "/api/v1/timelines/direct",
    view: StatusListSchema,
    summary: "Direct statuses the signed-in account wrote or is addressed by (the earlier reference API; conversations are the later form)",
    tags: ["Timelines"],
    auth: READ,
    query: directTimeline.input,
    async handler(ctx, { query, req, res }) {
      return answer(ctx, req, res, await directTimeline(ctx, query));
    },
  }),
  route({
    method: "GET",
    path: "/api/v1/timelines/public",
    view: StatusListSchema,
    rateLimit: "timeline",
    summary: "Public statuses (and local-only ones for signed-in users); local, remote, only_media, instance",
    tags: ["Timelines"],
    auth: OPTIONAL,
    query: publicTimeline.input,
    async handler(ctx, { query, req, res }) {
      return answer(ctx, req, res, await publicTimeline(ctx, query));
    },
  }),
  route({
    method: "GET",
    path: "/api/v1/timelines/bubble",
    view: StatusListSchema,
    rateLimit: "timeline",
    summary: "Local statuses and those of the instances in the administrator's bubble",
    tags: ["Timelines"],
    auth: OPTIONAL,
    query: bubbleTimeline.input,
    async handler(ctx, { query, req, res }) {
      return answer(ctx, req, res, await bubbleTimeline(ctx, query));
    },
  }),
  route({
    method: "GET",
    path: "/api/v1/timelines/tag/:hashtag",
    view: StatusListSchema,
    rateLimit: "timeline",
    summary: "Public statuses with the hashtag (any[], all[], none[] refine it)",
    tags: ["Timelines"],
    auth: OPTIONAL,
    params: z.object({ hashtag: z.string() }),
    query: tagTimeline.input.omit({ hashtag: true }),
    async handler(ctx, { params, query, req, res }) {
      return answer(ctx, req, res, await tagTimeline(ctx, { ...query, hashtag: params.hashtag }));
    },
  }),
  route({
    method: "GET",
    path: "/api/v1/accounts/:id/statuses",
    view: StatusListSchema,
    summary: "An account's statuses (id or nickname); pinned, tagged, only_media, with_muted, exclude_reblogs, exclude_replies, exclude_visibilities[]",
    tags: ["Accounts"],
    auth: OPTIONAL,
    params: z.object({ id: z.string() }),
    query: accountStatuses.input.omit({ id: true }),
    async handler(ctx, { params, query, req, res }) {
      return answer(ctx, req, res, await accountStatuses(ctx, { ...query, id: params.id }));
    },
  }),
];
