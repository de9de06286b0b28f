// Custom emoji in the reference API's shape: the `emojis` of statuses and accounts, and
// /api/v1/custom_emojis.
import type { Ctx } from "../../src/domain/context.ts";
import { storedEmojis } from "../../src/domain/emoji/emojify.ts";
import { emojiUrl, type CustomEmoji } from "../../src/domain/emoji/registry.ts";
import { proxiedUrl } from "../../src/domain/media/proxy-url.ts";

/** The emoji stored with a status or account ([{shortcode, url}]); `visible_in_picker` is false there, as in the family. */
export function renderEmojis(stored: unknown, ctx?: Ctx) {
  return storedEmojis(stored).map((e) => {
    // remote emoji through the media proxy when it is on
    const url = ctx ? proxiedUrl(ctx, e.url) : e.url;
    return { shortcode: e.shortcode, url, static_url: url, visible_in_picker: false };
  });
}

/** One of the instance's emoji for the picker; `category` is its pack. */
export function renderCustomEmoji(ctx: Ctx, e: CustomEmoji) {
  const url = emojiUrl(ctx, e);
  return { shortcode: e.shortcode, url, static_url: url, visible_in_picker: true, category: e.pack };
}
