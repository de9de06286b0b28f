// The Announcement entity of the reference API (`read` for a signed-in viewer), and the admin API's
// variant, which adds the raw text under the namespace key for editing (`ext.raw_content`, as the
// family's front end reads it).
import type { Ctx } from "../../src/domain/context.ts";
import { announcementDetails } from "../../src/domain/announcements/announcements.read.ts";
import type { Account, Announcement } from "../../src/generated/prisma/client.ts";

const mention = (a: Account) => ({ id: a.id, username: a.nickname.split("@")[0], acct: a.nickname, url: a.apId });

export async function renderAnnouncements(ctx: Ctx, list: Announcement[], opts: { admin?: boolean } = {}) {
  const details = await announcementDetails(ctx, list);
  return list.map((a) => {
    const d = details.get(a.id)!;
    return {
      id: a.id,
      content: d.html,
      starts_at: a.startsAt?.toISOString() ?? null,
      ends_at: a.endsAt?.toISOString() ?? null,
      all_day: a.allDay,
      published: true,
      published_at: a.publishedAt.toISOString(),
      updated_at: a.updatedAt.toISOString(),
      ...(d.read !== null && !opts.admin ? { read: d.read } : {}),
      mentions: d.mentions.map(mention),
      statuses: [],
      tags: d.tags.map((name) => ({ name, url: `${ctx.settings.baseUrl}/tag/${encodeURIComponent(name)}` })),
      emojis: [],
      // custom emoji reactions do not exist yet, so no url / static_url
      reactions: d.reactions.map((r) => ({ name: r.name, count: r.count, me: r.me })),
      ...(opts.admin ? { [ctx.settings.namespace]: { raw_content: a.content } } : {}),
    };
  });
}

export async function renderAnnouncement(ctx: Ctx, a: Announcement, opts: { admin?: boolean } = {}) {
  return (await renderAnnouncements(ctx, [a], opts))[0]!;
}
