// Reference API: hashtags and following them.
import { z } from "zod";
import { accountFeaturedTags, featuredTagSuggestions, featureTag, listFeaturedTags, unfeatureTag } from "../../src/domain/tags/featured-tags.ops.ts";
import { followTag, listFollowedTags, showTag, unfollowTag } from "../../src/domain/tags/followed-tags.ops.ts";
import { pageInput } from "../../src/domain/pagination.ts";
import { route } from "../../src/http/routes/route.ts";
import { EmptySchema, FeaturedTagSchema, TagSchema } from "../../src/views/schemas/misc.ts";
import { listOf } from "../../src/views/schemas/view.ts";
import { renderTag, renderFeaturedTag } from "../../src/views/tag.ts";

const nameParam = z.object({ id: z.string() });
const tags = ["Tags"];

export const tagRoutes = [
  route({
    method: "GET",
    path: "/api/v1/featured_tags",
    view: listOf(FeaturedTagSchema),
    summary: "The hashtags the signed-in account features",
    tags,
    operation: listFeaturedTags,
    handler: async (ctx) => (await listFeaturedTags(ctx, {})).map((f) => renderFeaturedTag(ctx, f)),
  }),
  route({
    method: "GET",
    path: "/api/v1/featured_tags/suggestions",
    view: listOf(TagSchema),
    summary: "Hashtags the signed-in account used most and does not feature yet",
    tags,
    operation: featuredTagSuggestions,
    handler: async (ctx) => (await featuredTagSuggestions(ctx, {})).map((tag) => renderTag(ctx, { tag, following: null })),
  }),
  route({
    method: "POST",
    path: "/api/v1/featured_tags",
    view: FeaturedTagSchema,
    summary: "Feature a hashtag on one's profile (at most 10)",
    tags,
    operation: featureTag,
    body: featureTag.input,
    handler: async (ctx, { body }) => renderFeaturedTag(ctx, await featureTag(ctx, body)),
  }),
  route({
    method: "DELETE",
    path: "/api/v1/featured_tags/:id",
    view: EmptySchema,
    summary: "Stop featuring a hashtag",
    tags,
    operation: unfeatureTag,
    params: nameParam,
    handler: async (ctx, { params }) => (await unfeatureTag(ctx, params), {}),
  }),
  route({
    method: "GET",
    path: "/api/v1/accounts/:id/featured_tags",
    view: listOf(FeaturedTagSchema),
    summary: "The hashtags an account features on its profile",
    tags,
    operation: accountFeaturedTags,
    params: nameParam,
    async handler(ctx, { params }) {
      return (await accountFeaturedTags(ctx, params)).map((f) => renderFeaturedTag(ctx, f));
    },
  }),
  route({
    method: "GET",
    path: "/api/v1/tags/:id",
    view: TagSchema,
    summary: "A hashtag by name, with whether the signed-in account follows it",
    tags,
    operation: showTag,
    params: nameParam,
    handler: async (ctx, { params }) => renderTag(ctx, await showTag(ctx, { name: params.id })),
  }),
  route({
    method: "POST",
    path: "/api/v1/tags/:id/follow",
    view: TagSchema,
    summary: "Follow a hashtag: its public statuses join the home timeline",
    tags,
    operation: followTag,
    params: nameParam,
    handler: async (ctx, { params }) => renderTag(ctx, await followTag(ctx, { name: params.id })),
  }),
  route({
    method: "POST",
    path: "/api/v1/tags/:id/unfollow",
    view: TagSchema,
    summary: "Stop following a hashtag",
    tags,
    operation: unfollowTag,
    params: nameParam,
    handler: async (ctx, { params }) => renderTag(ctx, await unfollowTag(ctx, { name: params.id })),
  }),
  route({
    method: "GET",
    path: "/api/v1/followed_tags",
    view: listOf(TagSchema),
    summary: "The hashtags the signed-in account follows",
    tags,
    operation: listFollowedTags,
    query: pageInput,
    paged: "id",
    async handler(ctx, { query }) {
      const page = await listFollowedTags(ctx, query);
      return { ...page, items: page.items.map((t) => renderTag(ctx, t)) };
    },
  }),
];
