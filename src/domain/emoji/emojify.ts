// Custom emoji used in a text: `:shortcode:` occurrences that name one of the instance's emoji. They
// are stored with the status or account at write time ([{shortcode, url}]), so a remote object can
// bring its own list and a later change of packs does not change what was posted.
import type { Settings } from "../../config/env.ts";
import { emojiRegistry, emojiUrl } from "./registry.ts";

export interface StoredEmoji {
  shortcode: string;
  url: string;
}

/** The instance's emoji named in `texts`, once each, in order of first appearance. */
export function customEmojiIn(ctx: { settings: Pick<Settings, "dataDir" | "baseUrl"> }, ...texts: (string | null | undefined)[]): StoredEmoji[] {
  const registry = emojiRegistry(ctx);
  const found = new Map<string, StoredEmoji>();
  for (const text of texts) {
    if (!text) continue;
    // a lookahead keeps the closing colon available: ":a::b:" names both
    for (const m of text.matchAll(/:([A-Za-z0-9_-]+)(?=:)/g)) {
      const emoji = registry.get(m[1]);
      if (emoji && !found.has(emoji.shortcode)) found.set(emoji.shortcode, { shortcode: emoji.shortcode, url: emojiUrl(ctx, emoji) });
    }
  }
  return [...found.values()];
}

/** The stored list, read defensively (it is JSON from the database, possibly from a remote server). */
export function storedEmojis(value: unknown): StoredEmoji[] {
  if (!Array.isArray(value)) return [];
  return value.filter((e): e is StoredEmoji => !!e && typeof e === "object" && typeof e.shortcode === "string" && typeof e.url === "string");
}
