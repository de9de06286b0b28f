// Reading the moderation log (admin API `moderation_log`): newest first, filtered by date range,
// actor and a case-insensitive search of the message. Entries are written by log.ts.
import { z } from "zod";
import type { ModerationLogEntry, Prisma } from "../../generated/prisma/client.ts";
import { likeLiteral } from "../../db/like.ts";
import type { Ctx } from "../context.ts";
import { Invalid } from "../../kernel/errors.ts";
import { int } from "../inputs.ts";
import { operation } from "../operation.ts";

/** An ISO 8601 date-time parameter, UTC unless it names a zone; absent or empty means no bound. */
function dateParam(field: string, value: string | null | undefined): Date | undefined {
  if (!value) return undefined;
  const zoned = /T.*([zZ]|[+-]\d\d:?\d\d)$/.test(value) || !value.includes("T");
  const d = new Date(zoned ? value : `${value}Z`);
  if (Number.isNaN(d.getTime())) throw Invalid(`${field} - Invalid date-time.`, { [field]: "is not a date-time" });
  return d;
}

export const listModerationLog = operation({
  name: "moderationLog.list",
  access: { scopes: ["admin:read"], privilege: "moderation_log_read" },
  input: z.object({
    page: int().optional(),
    page_size: int().optional(),
    offset: int().optional(),
    start_date: z.string().optional().nullable(),
    end_date: z.string().optional().nullable(),
    user_id: z.union([z.string(), z.number()]).transform(String).optional().nullable(),
    search: z.string().optional().nullable(),
  }),
  async run(ctx, input): Promise<{ total: number; items: ModerationLogEntry[] }> {
    const size = Math.max(input.page_size ?? 50, 1);
    const start = dateParam("start_date", input.start_date);
    const end = dateParam("end_date", input.end_date);
    const where: Prisma.ModerationLogEntryWhereInput = {};
    if (start || end) where.createdAt = { gte: start, lte: end };
    if (input.user_id) where.actorId = input.user_id;
    if (input.search) where.message = { contains: likeLiteral(input.search), mode: "insensitive" };
    const skip = input.offset ?? (Math.max(input.page ?? 1, 1) - 1) * size;
    const [total, items] = await Promise.all([
      ctx.db.moderationLogEntry.count({ where }),
      ctx.db.moderationLogEntry.findMany({ where, orderBy: [{ createdAt: "desc" }, { id: "desc" }], skip, take: size }),
    ]);
    return { total, items };
  },
});

/** One entry by id (live views load what the bus announced). */
export async function findLogEntry(ctx: Pick<Ctx, "db">, id: number) {
  return ctx.db.moderationLogEntry.findUnique({ where: { id } });
}
