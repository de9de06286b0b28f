// Admin API: the moderation log, in the later variant's `{items, total}` shape that the admin UI reads.
import { listModerationLog } from "../../src/domain/moderation-log/moderation-log.ops.ts";
import { route } from "../../src/http/routes/route.ts";
import { admin } from "./paths.ts";
import { ModerationLogSchema } from "../../src/views/schemas/admin.ts";
import { renderLogEntry } from "../../src/views/moderation-log.ts";

export const adminModerationLogRoutes = [
  route({
    method: "GET",
    path: admin("/moderation_log"),
    view: ModerationLogSchema,
    summary: "Moderation log entries, newest first",
    tags: ["Admin: moderation log"],
    operation: listModerationLog,
    query: listModerationLog.input.omit({ offset: true }),
    response: { description: "`{items: [{id, data, time, message}], total}`; `page_size` defaults to 50; `search` matches the message (case-insensitive)" },
    async handler(ctx, { query }) {
      const { total, items } = await listModerationLog(ctx, query);
      return { items: items.map(renderLogEntry), total };
    },
  }),
];
