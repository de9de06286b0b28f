// Featured hashtags (shown on a profile with how often the account used them), through the operations
// the REST routes call. Each list costs two queries whatever its length (featuredTagsOf).
import { accountFeaturedTags, featuredTagSuggestions, featureTag, listFeaturedTags, unfeatureTag, type FeaturedTagView } from "../domain/tags/featured-tags.ops.ts";
import { builder } from "./builder.ts";
import { Hashtag } from "./search.ts";
import { accessOf } from "./access.ts";

const FeaturedTag = builder.objectRef<FeaturedTagView>("FeaturedTag").implement({
  fields: (t) => ({
    id: t.exposeID("id"),
    name: t.string({ resolve: (f) => f.tag.name }),
    url: t.string({ resolve: (f, _a, ctx) => `${ctx.settings.baseUrl}/tag/${encodeURIComponent(f.tag.name)}` }),
    statusesCount: t.exposeInt("statusesCount", { description: "the account's public and unlisted statuses with the tag" }),
    lastStatusAt: t.field({ type: "DateTime", nullable: true, resolve: (f) => f.lastStatusAt }),
  }),
});

builder.queryFields((t) => ({
  featuredTags: t.field({ ...accessOf(listFeaturedTags), type: [FeaturedTag], description: "The viewer's featured hashtags", resolve: (_r, _a, ctx) => listFeaturedTags(ctx, {}) }),
  featuredTagSuggestions: t.field({
    ...accessOf(featuredTagSuggestions),
    type: [Hashtag],
    description: "The hashtags the viewer used most and does not feature yet",
    resolve: (_r, _a, ctx) => featuredTagSuggestions(ctx, {}),
  }),
  accountFeaturedTags: t.field({
    ...accessOf(accountFeaturedTags),
    type: [FeaturedTag],
    args: { accountId: t.arg.id({ required: true }) },
    resolve: (_r, a, ctx) => accountFeaturedTags(ctx, { id: String(a.accountId) }),
  }),
}));

builder.mutationFields((t) => ({
  featureTag: t.field({ ...accessOf(featureTag), type: FeaturedTag, args: { name: t.arg.string({ required: true }) }, resolve: (_r, a, ctx) => featureTag(ctx, { name: a.name }) }),
  unfeatureTag: t.boolean({
    ...accessOf(unfeatureTag),
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, a, ctx) => (await unfeatureTag(ctx, { id: String(a.id) }), true),
  }),
}));
