// The viewer's scheduled statuses (created by postStatus with scheduledAt): list, read, reschedule,
// cancel, through the operations the REST routes call. Media arrive with each row (one query a page).
import { cancelScheduledStatus, listScheduledStatuses, rescheduleStatus, showScheduledStatus, type ScheduledWithMedia } from "../domain/statuses/scheduled.ops.ts";
import { builder } from "./builder.ts";
import { relayConnection } from "./paging.ts";
import { MediaAttachment } from "./statuses.ts";
import { accessOf } from "./access.ts";

/** The stored POST /api/v1/statuses parameters the status will be published with. */
const param = (s: ScheduledWithMedia, key: string): unknown => (s.scheduled.params as Record<string, unknown>)[key];
const text = (v: unknown) => (v == null ? null : String(v));

const ScheduledStatus = builder.objectRef<ScheduledWithMedia>("ScheduledStatus").implement({
  fields: (t) => ({
    id: t.id({ resolve: (s) => s.scheduled.id }),
    scheduledAt: t.field({ type: "DateTime", resolve: (s) => s.scheduled.scheduledAt }),
    text: t.string({ nullable: true, resolve: (s) => text(param(s, "status")) }),
    spoilerText: t.string({ nullable: true, resolve: (s) => text(param(s, "spoiler_text")) }),
    visibility: t.string({ nullable: true, resolve: (s) => text(param(s, "visibility")) }),
    sensitive: t.boolean({ nullable: true, resolve: (s) => (param(s, "sensitive") == null ? null : Boolean(param(s, "sensitive"))) }),
    inReplyToId: t.id({ nullable: true, resolve: (s) => text(param(s, "in_reply_to_id")) }),
    language: t.string({ nullable: true, resolve: (s) => text(param(s, "language")) }),
    mediaAttachments: t.field({ type: [MediaAttachment], resolve: (s) => s.media }),
  }),
});

const ScheduledStatusConnection = builder.connectionObject({ type: ScheduledStatus, name: "ScheduledStatusConnection" });

builder.queryFields((t) => ({
  scheduledStatuses: t.connection(
    {
      ...accessOf(listScheduledStatuses),
      type: ScheduledStatus,
      description: "The viewer's scheduled statuses, newest first",
      resolve: (_r, a, ctx) => relayConnection(a, (p) => listScheduledStatuses(ctx, p), { cursorOf: (s) => s.scheduled.id, floor: "0" }),
    },
    ScheduledStatusConnection,
  ),
  scheduledStatus: t.field({
    ...accessOf(showScheduledStatus),
    type: ScheduledStatus,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, a, ctx) => showScheduledStatus(ctx, { id: String(a.id) }),
  }),
}));

builder.mutationFields((t) => ({
  rescheduleStatus: t.field({
    ...accessOf(rescheduleStatus),
    type: ScheduledStatus,
    description: "Moves the publication time (at least 5 minutes ahead)",
    args: { id: t.arg.id({ required: true }), scheduledAt: t.arg({ type: "DateTime", required: true }) },
    resolve: (_r, a, ctx) => rescheduleStatus(ctx, { id: String(a.id), scheduled_at: new Date(a.scheduledAt).toISOString() }),
  }),
  cancelScheduledStatus: t.boolean({
    ...accessOf(cancelScheduledStatus),
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, a, ctx) => (await cancelScheduledStatus(ctx, { id: String(a.id) }), true),
  }),
}));
