// The instance's custom emoji as clients list them, and the admin's rescan of the packs.
import { z } from "zod";
import { operation } from "../operation.ts";
import { reloadRegistry } from "./packs.ops.ts";
import { emojiRegistry, type CustomEmoji } from "./registry.ts";

/** Every custom emoji, in shortcode order. */
export const listCustomEmoji = operation({
  name: "emoji.list",
  access: "public",
  input: z.object({}),
  async run(ctx): Promise<CustomEmoji[]> {
    return [...emojiRegistry(ctx).values()].sort((a, b) => (a.shortcode < b.shortcode ? -1 : 1));
  },
});

/** Rescans the packs on disk (the admin's `reload_emoji`, also after packs were copied by hand). */
export const reloadEmoji = operation({
  name: "emoji.reload",
  access: { scopes: ["admin:write"], privilege: "emoji_manage_emoji" },
  input: z.object({}),
  async run(ctx): Promise<void> {
    reloadRegistry(ctx);
  },
});
