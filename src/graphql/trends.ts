// Trends (REST's /api/v1/trends/*) and their review by staff (/api/v1/admin/trends/*), over the same
// operations (src/domain/trends/trends.ops.ts).
import {
  listTrendingStatuses,
  listTrendingTags,
  reviewStatus,
  reviewTag,
  reviewTrendingStatuses,
  reviewTrendingTags,
  type TagDay,
  type TrendingTag,
} from "../domain/trends/trends.ops.ts";
import { accessOf } from "./access.ts";
import { builder } from "./builder.ts";
import { opt, StatusType } from "./paging.ts";
import "./statuses.ts";

const TagDayRef = builder.objectRef<TagDay>("TagDay").implement({
  description: "A day of a hashtag's use: statuses and distinct accounts",
  fields: (t) => ({
    day: t.field({ type: "DateTime", description: "midnight UTC", resolve: (d) => d.day }),
    uses: t.exposeInt("uses"),
    accounts: t.exposeInt("accounts"),
  }),
});

const TrendingTagRef = builder.objectRef<TrendingTag>("TrendingTag").implement({
  description: "A hashtag of the week's trends with its daily history (the last 7 days, newest first)",
  fields: (t) => ({
    id: t.id({ resolve: (x) => x.tag.id }),
    name: t.string({ resolve: (x) => x.tag.name }),
    history: t.field({ type: [TagDayRef], resolve: (x) => x.history }),
    following: t.boolean({ nullable: true, description: "whether the viewer follows it (null when anonymous)", resolve: (x) => x.following }),
    trendable: t.boolean({ description: "approved by staff", resolve: (x) => x.allowed === true }),
    requiresReview: t.boolean({ description: "not reviewed yet", resolve: (x) => x.allowed === null }),
  }),
});

const pageOf = (a: { limit?: number | null; offset?: number | null }) => ({ limit: opt(a.limit), offset: opt(a.offset) });

builder.queryFields((t) => ({
  trendingTags: t.field({
    ...accessOf(listTrendingTags),
    type: [TrendingTagRef],
    description: "Hashtags used by the most accounts in the last week (REST's GET /api/v1/trends/tags)",
    args: { limit: t.arg.int(), offset: t.arg.int() },
    resolve: (_r, a, ctx) => listTrendingTags(ctx, pageOf(a)),
  }),
  trendingStatuses: t.field({
    ...accessOf(listTrendingStatuses),
    type: [StatusType],
    description: "The week's public posts with the most favourites and reblogs in it (REST's GET /api/v1/trends/statuses)",
    args: { limit: t.arg.int(), offset: t.arg.int() },
    resolve: async (_r, a, ctx) => (await listTrendingStatuses(ctx, pageOf(a))).map((x) => x.status),
  }),
  adminTrendingTags: t.field({
    ...accessOf(reviewTrendingTags),
    type: [TrendingTagRef],
    description: "The week's trending hashtags with their review state, rejected ones included",
    args: { limit: t.arg.int(), offset: t.arg.int() },
    resolve: (_r, a, ctx) => reviewTrendingTags(ctx, pageOf(a)),
  }),
  adminTrendingStatuses: t.field({
    ...accessOf(reviewTrendingStatuses),
    type: [StatusType],
    description: "The week's trending statuses, rejected ones included",
    args: { limit: t.arg.int(), offset: t.arg.int() },
    resolve: async (_r, a, ctx) => (await reviewTrendingStatuses(ctx, pageOf(a))).map((x) => x.status),
  }),
}));

builder.mutationFields((t) => ({
  reviewTrendingTag: t.field({
    ...accessOf(reviewTag),
    type: TrendingTagRef,
    description: "Approve (allowed: true) or reject a hashtag's trending",
    args: { id: t.arg.id({ required: true }), allowed: t.arg.boolean({ required: true }) },
    resolve: (_r, a, ctx) => reviewTag(ctx, { id: String(a.id), allowed: a.allowed }),
  }),
  reviewTrendingStatus: t.field({
    ...accessOf(reviewStatus),
    type: StatusType,
    description: "Approve (allowed: true) or reject a status's trending",
    args: { id: t.arg.id({ required: true }), allowed: t.arg.boolean({ required: true }) },
    resolve: async (_r, a, ctx) => (await reviewStatus(ctx, { id: String(a.id), allowed: a.allowed })).status,
  }),
}));
