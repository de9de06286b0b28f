// The reference admin API's trends review: the week's trending hashtags and statuses with their review
// state, approved or rejected by staff holding messages_delete (moderating content). Links never trend.
import { z } from "zod";
import { reviewStatus, reviewTag, reviewTrendingStatuses, reviewTrendingTags } from "../../src/domain/trends/trends.ops.ts";
import { NotFound } from "../../src/kernel/errors.ts";
import { route } from "../../src/http/routes/route.ts";
import { renderStatuses } from "../../src/views/status.ts";
import { renderAdminTag } from "../../src/views/trends.ts";
import { EmptyArraySchema } from "../../src/views/schemas/misc.ts";
import { AdminTagSchema } from "../../src/views/schemas/reference-admin.ts";
import { StatusListSchema, StatusSchema } from "../../src/views/schemas/status.ts";
import { listOf } from "../../src/views/schemas/view.ts";

const read = { scopes: ["admin:read"], privilege: "messages_delete" } as const;
const write = { scopes: ["admin:write"], privilege: "messages_delete" } as const;
const tags = ["Admin (reference): trends"];
const id = z.object({ id: z.string() });

const tagReview = (allowed: boolean) =>
  route({
    method: "POST",
    path: `/api/v1/admin/trends/tags/:id/${allowed ? "approve" : "reject"}`,
    view: AdminTagSchema,
    summary: `${allowed ? "Approve" : "Reject"} a hashtag's trending; answers the Admin::Tag`,
    tags,
    operation: reviewTag,
    params: id,
    handler: async (ctx, { params }) => renderAdminTag(ctx, await reviewTag(ctx, { id: params.id, allowed })),
  });

const statusReview = (allowed: boolean) =>
  route({
    method: "POST",
    path: `/api/v1/admin/trends/statuses/:id/${allowed ? "approve" : "reject"}`,
    view: StatusSchema,
    summary: `${allowed ? "Approve" : "Reject"} a status's trending; answers the Status`,
    tags,
    operation: reviewStatus,
    params: id,
    async handler(ctx, { params }) {
      const { status } = await reviewStatus(ctx, { id: params.id, allowed });
      return (await renderStatuses(ctx, [status]))[0];
    },
  });

const linkReview = (action: string) =>
  route({
    method: "POST",
    path: `/api/v1/admin/trends/links/:id/${action}`,
    summary: "No link trends (no preview cards are fetched): 404",
    tags,
    auth: write,
    params: id,
    handler: async () => {
      throw NotFound("Record not found");
    },
  });

export const referenceTrendRoutes = [
  route({
    method: "GET",
    path: "/api/v1/admin/trends/tags",
    view: listOf(AdminTagSchema),
    summary: "The week's trending hashtags, reviewed or not (limit ≤ 200, offset)",
    tags,
    operation: reviewTrendingTags,
    query: reviewTrendingTags.input,
    handler: async (ctx, { query }) => (await reviewTrendingTags(ctx, query)).map((t) => renderAdminTag(ctx, t)),
  }),
  tagReview(true),
  tagReview(false),
  route({
    method: "GET",
    path: "/api/v1/admin/trends/statuses",
    view: StatusListSchema,
    summary: "The week's trending statuses, reviewed or not (limit ≤ 200, offset)",
    tags,
    operation: reviewTrendingStatuses,
    query: reviewTrendingStatuses.input,
    handler: async (ctx, { query }) => renderStatuses(ctx, (await reviewTrendingStatuses(ctx, query)).map((t) => t.status)),
  }),
  statusReview(true),
  statusReview(false),
  route({
    method: "GET",
    path: "/api/v1/admin/trends/links",
    view: EmptyArraySchema,
    summary: "Trending links: always empty (no preview cards are fetched)",
    tags,
    auth: read,
    handler: async () => [],
  }),
  linkReview("approve"),
  linkReview("reject"),
];
