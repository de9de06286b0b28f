// Custom emoji of other servers, as their posts, profiles and reactions bring them: kept in
// `remote_emojis` (one row per shortcode and domain, the newest image wins) so they can be listed and
// moderated; statuses and accounts also keep their own [{shortcode, url}] copy (see emojify.ts).
import { newId } from "../../db/ids.ts";
import type { Ctx } from "../context.ts";

export interface RemoteEmoji {
  shortcode: string;
  url: string;
  /** the Emoji object's id */
  apId?: string | null;
}

export async function rememberRemoteEmojis(ctx: Pick<Ctx, "db">, domain: string, emojis: readonly RemoteEmoji[]): Promise<void> {
  for (const e of emojis) {
    await ctx.db.remoteEmoji.upsert({
      where: { shortcode_domain: { shortcode: e.shortcode, domain } },
      create: { id: newId(), shortcode: e.shortcode, domain, url: e.url, apId: e.apId ?? null },
      update: { url: e.url, ...(e.apId ? { apId: e.apId } : {}) },
    });
  }
}
