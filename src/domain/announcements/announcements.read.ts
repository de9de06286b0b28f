// What every surface shows of an announcement besides its columns: the content as HTML (formatted
// like a plain-text status: links, mentions, hashtags), whether the viewer read it, and its
// reactions. Reads and reactions cost the same three queries whatever the number of announcements.
import type { Account, Announcement } from "../../generated/prisma/client.ts";
import type { Ctx } from "../context.ts";
import { escapeHtml } from "../../kernel/escape.ts";
import { formatStatus } from "../statuses/formatter.ts";

export interface AnnouncementReactionGroup {
  name: string;
  count: number;
  /** whether the viewer reacted with it */
  me: boolean;
}

export interface AnnouncementDetails {
  html: string;
  mentions: Account[];
  tags: string[];
  /** null without a signed-in viewer */
  read: boolean | null;
  /** in the order of each emoji's first reaction */
  reactions: AnnouncementReactionGroup[];
}

async function contentOf(ctx: Ctx, text: string) {
  try {
    return await formatStatus(ctx, text, "text/plain");
  } catch {
    // plain text is not an allowed post format here: announcements still show, as escaped text
    return { html: escapeHtml(text).replace(/\r?\n/g, "<br/>"), mentions: [], tags: [] };
  }
}

export async function announcementDetails(ctx: Ctx, list: Announcement[]): Promise<Map<string, AnnouncementDetails>> {
  const ids = list.map((a) => a.id);
  const viewerId = ctx.viewer.account?.id;
  const none = Promise.resolve([]);
  const [formatted, reads, groups, mine] = await Promise.all([
    // only a text with an @-mention queries (for the accounts it names)
    Promise.all(list.map((a) => contentOf(ctx, a.content))),
    viewerId && ids.length ? ctx.db.announcementRead.findMany({ where: { accountId: viewerId, announcementId: { in: ids } }, select: { announcementId: true } }) : none,
    ids.length
      ? ctx.db.announcementReaction.groupBy({ by: ["announcementId", "name"], where: { announcementId: { in: ids } }, _count: { _all: true }, _min: { createdAt: true } })
      : none,
    viewerId && ids.length ? ctx.db.announcementReaction.findMany({ where: { accountId: viewerId, announcementId: { in: ids } }, select: { announcementId: true, name: true } }) : none,
  ]);
  const readIds = new Set(reads.map((r) => r.announcementId));
  const myReactions = new Set(mine.map((r) => `${r.announcementId} ${r.name}`));
  const sorted = [...groups].sort((a, b) => (a._min.createdAt?.getTime() ?? 0) - (b._min.createdAt?.getTime() ?? 0) || a.name.localeCompare(b.name));
  const out = new Map<string, AnnouncementDetails>();
  list.forEach((a, i) => {
    const f = formatted[i]!;
    out.set(a.id, {
      html: f.html,
      mentions: f.mentions,
      tags: f.tags,
      read: viewerId ? readIds.has(a.id) : null,
      reactions: sorted
        .filter((g) => g.announcementId === a.id)
        .map((g) => ({ name: g.name, count: g._count._all, me: myReactions.has(`${a.id} ${g.name}`) })),
    });
  });
  return out;
}
