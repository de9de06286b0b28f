// Reference API: the active announcements, dismissing them and reacting to them.
import { z } from "zod";
import {
  activeAnnouncements,
  addAnnouncementReaction,
  dismissAnnouncement,
  removeAnnouncementReaction,
} from "../../src/domain/announcements/announcements.ops.ts";
import { route } from "../../src/http/routes/route.ts";
import { renderAnnouncements } from "../../src/views/announcement.ts";
import { AnnouncementSchema, EmptySchema } from "../../src/views/schemas/misc.ts";
import { listOf } from "../../src/views/schemas/view.ts";

const tags = ["Announcements"];
const reactionParams = z.object({ id: z.string(), name: z.string() });
/** an emoji that cannot be a reaction: the reference API's validation status */
const unprocessable = (e: { kind: string; message: string }) => (e.kind === "invalid" ? { status: 422, body: { error: e.message } } : undefined);

export const announcementRoutes = [
  route({
    method: "GET",
    path: "/api/v1/announcements",
    view: listOf(AnnouncementSchema),
    summary: "Announcements active now, with whether the viewer read them",
    tags,
    operation: activeAnnouncements,
    response: { description: "array of Announcement" },
    handler: async (ctx) => renderAnnouncements(ctx, await activeAnnouncements(ctx, {})),
  }),
  route({
    method: "POST",
    path: "/api/v1/announcements/:id/dismiss",
    view: EmptySchema,
    summary: "Mark an announcement read",
    tags,
    operation: dismissAnnouncement,
    params: z.object({ id: z.string() }),
    response: { description: "`{}`; 404 `{error: \"Record not found\"}`" },
    async handler(ctx, { params }) {
      await dismissAnnouncement(ctx, params);
      return {};
    },
  }),
  route({
    method: "PUT",
    path: "/api/v1/announcements/:id/reactions/:name",
    view: EmptySchema,
    summary: "React to an announcement with a unicode emoji",
    tags,
    operation: addAnnouncementReaction,
    params: reactionParams,
    response: { description: "`{}`; 404 `{error: \"Record not found\"}`, 422 for a name that is not an emoji" },
    errors: unprocessable,
    async handler(ctx, { params }) {
      await addAnnouncementReaction(ctx, params);
      return {};
    },
  }),
  route({
    method: "DELETE",
    path: "/api/v1/announcements/:id/reactions/:name",
    view: EmptySchema,
    summary: "Remove the viewer's reaction",
    tags,
    operation: removeAnnouncementReaction,
    params: reactionParams,
    response: { description: "`{}`; 404 `{error: \"Record not found\"}`" },
    async handler(ctx, { params }) {
      await removeAnnouncementReaction(ctx, params);
      return {};
    },
  }),
];
