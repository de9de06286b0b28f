// Admin API: announcements, every one whether active or not (privilege announcements_manage_announcements).
import { z } from "zod";
import {
  createAnnouncement,
  deleteAnnouncement,
  getAnnouncement,
  listAllAnnouncements,
  updateAnnouncement,
} from "../../src/domain/announcements/announcements.ops.ts";
import { route } from "../../src/http/routes/route.ts";
import { renderAnnouncement, renderAnnouncements } from "../../src/views/announcement.ts";
import { admin } from "./paths.ts";
import { AdminAnnouncementSchema, EmptySchema } from "../../src/views/schemas/misc.ts";
import { listOf } from "../../src/views/schemas/view.ts";

const tags = ["Admin: announcements"];
const idParam = z.object({ id: z.string() });

export const adminAnnouncementRoutes = [
  route({
    method: "GET",
    path: admin("/announcements"),
    view: listOf(AdminAnnouncementSchema),
    summary: "Every announcement, oldest first",
    tags,
    operation: listAllAnnouncements,
    query: listAllAnnouncements.input,
    response: { description: "array of Announcement (with `<ns>.raw_content`); `limit` defaults to 20, `limit` < 1 or `offset` < 0 answer 400" },
    handler: async (ctx, { query }) => renderAnnouncements(ctx, await listAllAnnouncements(ctx, query), { admin: true }),
  }),
  route({
    method: "GET",
    path: admin("/announcements/:id"),
    view: AdminAnnouncementSchema,
    summary: "One announcement",
    tags,
    operation: getAnnouncement,
    params: idParam,
    response: { description: "Announcement; 404 `{error: \"Not found\"}`" },
    handler: async (ctx, { params }) => renderAnnouncement(ctx, await getAnnouncement(ctx, params), { admin: true }),
  }),
  route({
    method: "POST",
    path: admin("/announcements"),
    view: AdminAnnouncementSchema,
    summary: "Create an announcement",
    tags,
    operation: createAnnouncement,
    body: createAnnouncement.input,
    response: { description: "Announcement; `starts_at`/`ends_at` default to null (active at once, until deleted), `all_day` to false" },
    handler: async (ctx, { body }) => renderAnnouncement(ctx, await createAnnouncement(ctx, body), { admin: true }),
  }),
  route({
    method: "PATCH",
    path: admin("/announcements/:id"),
    view: AdminAnnouncementSchema,
    summary: "Change an announcement; missing parameters keep their values",
    tags,
    operation: updateAnnouncement,
    params: idParam,
    body: updateAnnouncement.input.omit({ id: true }),
    response: { description: "Announcement; 404 `{error: \"Not found\"}`" },
    handler: async (ctx, { params, body }) => renderAnnouncement(ctx, await updateAnnouncement(ctx, { ...body, id: params.id }), { admin: true }),
  }),
  route({
    method: "DELETE",
    path: admin("/announcements/:id"),
    view: EmptySchema,
    summary: "Delete an announcement",
    tags,
    operation: deleteAnnouncement,
    params: idParam,
    response: { description: "`{}`; 404 `{error: \"Not found\"}`" },
    async handler(ctx, { params }) {
      await deleteAnnouncement(ctx, params);
      return {};
    },
  }),
];
