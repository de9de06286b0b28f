// Instance announcements: staff write them through the admin API (every announcement, active or not);
// users read the active ones, dismiss them and react with emoji through the reference API.
// Active means started (no `starts_at`, or past) and not ended (no `ends_at`, or future); `all_day`
// only tells clients to show the dates without times.
import { logAction } from "../moderation-log/log.ts";
import { z } from "zod";
import { newId } from "../../db/ids.ts";
import type { Announcement, Prisma } from "../../generated/prisma/client.ts";
import { requireAccount } from "../auth/policy.ts";
import type { Ctx } from "../context.ts";
import { NotFound } from "../../kernel/errors.ts";
import { bool, int } from "../inputs.ts";
import { operation } from "../operation.ts";
import { normalizeEmoji } from "../reactions/reactions.ops.ts";
import { text } from "../input-limits.ts";


/** null (or an empty form value) clears the date; a datetime with an offset sets it. */
const when = z.preprocess((v) => (v === "" ? null : v), z.iso.datetime({ offset: true }).nullable());
const dateOf = (v: string | null | undefined) => (v === undefined ? undefined : v === null ? null : new Date(v));

const ORDER: Prisma.AnnouncementOrderByWithRelationInput[] = [{ publishedAt: "asc" }, { id: "asc" }];

/** Announcements shown right now. */
export const activeWhere = (now: Date): Prisma.AnnouncementWhereInput => ({
  AND: [{ OR: [{ startsAt: null }, { startsAt: { lte: now } }] }, { OR: [{ endsAt: null }, { endsAt: { gt: now } }] }],
});

function announce(ctx: Ctx, id: string, change: "created" | "updated" | "deleted") {
  ctx.bus.publish("announcement", { id, change });
}

async function findOr404(ctx: Ctx, id: string, message?: string): Promise<Announcement> {
  const row = await ctx.db.announcement.findUnique({ where: { id } });
  if (!row) throw NotFound(message);
  return row;
}

// ---- admin

/** Every announcement, oldest first; `limit` 20 by default. */
export const listAllAnnouncements = operation({
  name: "announcements.listAll",
  access: { scopes: ["admin:read"], privilege: "announcements_manage_announcements" },
  input: z.object({ offset: int().pipe(z.number().min(0)).default(0), limit: int().pipe(z.number().min(1)).default(20) }),
  run: (ctx, input) => ctx.db.announcement.findMany({ orderBy: ORDER, skip: input.offset, take: input.limit }),
});

export const countAllAnnouncements = (ctx: Ctx) => ctx.db.announcement.count();

export const getAnnouncement = operation({
  name: "announcements.get",
  access: { scopes: ["admin:read"], privilege: "announcements_manage_announcements" },
  input: z.object({ id: z.string() }),
  run: (ctx, input) => findOr404(ctx, input.id),
});

export const createAnnouncement = operation({
  name: "announcements.create",
  access: { scopes: ["admin:write"], privilege: "announcements_manage_announcements" },
  input: z.object({ content: text(), starts_at: when.optional(), ends_at: when.optional(), all_day: bool().optional().default(false) }),
  async run(ctx, input) {
    const now = ctx.clock();
    const row = await ctx.db.announcement.create({
      data: { id: newId(now.getTime()), content: input.content, startsAt: dateOf(input.starts_at) ?? null, endsAt: dateOf(input.ends_at) ?? null, allDay: input.all_day, publishedAt: now, updatedAt: now },
    });
    announce(ctx, row.id, "created");
    await logAction(ctx, { action: "announcement_create", subject: { id: row.id } });
    return row;
  },
});

/** Changes what is given; a missing parameter keeps its value, an explicit null clears a date. */
export const updateAnnouncement = operation({
  name: "announcements.update",
  access: { scopes: ["admin:write"], privilege: "announcements_manage_announcements" },
  input: z.object({ id: z.string(), content: text().optional(), starts_at: when.optional(), ends_at: when.optional(), all_day: bool().optional() }),
  async run(ctx, input) {
    const data: Prisma.AnnouncementUpdateManyMutationInput = {
      ...(input.content !== undefined ? { content: input.content } : {}),
      ...(input.starts_at !== undefined ? { startsAt: dateOf(input.starts_at) } : {}),
      ...(input.ends_at !== undefined ? { endsAt: dateOf(input.ends_at) } : {}),
      ...(input.all_day !== undefined ? { allDay: input.all_day } : {}),
      updatedAt: ctx.clock(),
    };
    const { count } = await ctx.db.announcement.updateMany({ where: { id: input.id }, data });
    if (count === 0) throw NotFound();
    announce(ctx, input.id, "updated");
    await logAction(ctx, { action: "announcement_update", subject: { id: input.id } });
    return ctx.db.announcement.findUniqueOrThrow({ where: { id: input.id } });
  },
});

export const deleteAnnouncement = operation({
  name: "announcements.delete",
  access: { scopes: ["admin:write"], privilege: "announcements_manage_announcements" },
  input: z.object({ id: z.string() }),
  async run(ctx, input) {
    const { count } = await ctx.db.announcement.deleteMany({ where: { id: input.id } });
    if (count === 0) throw NotFound();
    announce(ctx, input.id, "deleted");
    await logAction(ctx, { action: "announcement_delete", subject: { id: input.id } });
  },
});

// ---- users

/** The announcements active now, oldest first. */
export const activeAnnouncements = operation({
  name: "announcements.active",
  access: { scopes: "any" },
  input: z.object({}),
  run: (ctx) => ctx.db.announcement.findMany({ where: activeWhere(ctx.clock()), orderBy: ORDER }),
});

/** Marks the announcement read by the viewer (again is a no-op). */
export const dismissAnnouncement = operation({
  name: "announcements.dismiss",
  access: { scopes: ["write:accounts"] },
  input: z.object({ id: z.string() }),
  authorize: requireAccount,
  async run(ctx, input) {
    const me = requireAccount(ctx);
    await findOr404(ctx, input.id, "Record not found");
    await ctx.db.announcementRead.createMany({ data: [{ announcementId: input.id, accountId: me.id, createdAt: ctx.clock() }], skipDuplicates: true });
  },
});

const reactionInput = z.object({ id: z.string(), name: z.string().min(1) });

/** Adds the viewer's reaction: one unicode emoji, normalized as status reactions are (again is a no-op). */
export const addAnnouncementReaction = operation({
  name: "announcements.react",
  access: { scopes: ["write:favourites"] },
  input: reactionInput,
  authorize: requireAccount,
  async run(ctx, input) {
    const me = requireAccount(ctx);
    await findOr404(ctx, input.id, "Record not found");
    const name = normalizeEmoji(input.name);
    await ctx.db.announcementReaction.createMany({ data: [{ announcementId: input.id, accountId: me.id, name, createdAt: ctx.clock() }], skipDuplicates: true });
  },
});

/** Removes the viewer's reaction; removing one that is not there is not an error (the reference API). */
export const removeAnnouncementReaction = operation({
  name: "announcements.unreact",
  access: { scopes: ["write:favourites"] },
  input: reactionInput,
  authorize: requireAccount,
  async run(ctx, input) {
    const me = requireAccount(ctx);
    await findOr404(ctx, input.id, "Record not found");
    let name = input.name;
    try {
      name = normalizeEmoji(input.name);
    } catch {} // nothing is stored under a name that does not normalize
    await ctx.db.announcementReaction.deleteMany({ where: { announcementId: input.id, accountId: me.id, name } });
  },
});
