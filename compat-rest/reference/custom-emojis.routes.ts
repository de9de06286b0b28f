// The reference API's list of custom emoji, for emoji pickers.
import { listCustomEmoji } from "../../src/domain/emoji/emoji.ops.ts";
import { route, type RouteDef } from "../../src/http/routes/route.ts";
import { renderCustomEmoji } from "../../src/views/emoji.ts";
import { CustomEmojiSchema } from "../../src/views/schemas/account.ts";
import { listOf } from "../../src/views/schemas/view.ts";

export const customEmojiRoutes: RouteDef[] = [
  route({
    method: "GET",
    path: "/api/v1/custom_emojis",
    view: listOf(CustomEmojiSchema),
    summary: "The instance's custom emoji: shortcode, url, static_url, visible_in_picker, category (the pack)",
    tags: ["Instance"],
    operation: listCustomEmoji,
    async handler(ctx) {
      return (await listCustomEmoji(ctx, {})).map((e) => renderCustomEmoji(ctx, e));
    },
  }),
];
