// The admin's rescan of the emoji packs on disk.
import { reloadEmoji } from "../../src/domain/emoji/emoji.ops.ts";
import { route, type RouteDef } from "../../src/http/routes/route.ts";
import { admin } from "./paths.ts";
import { OkSchema } from "../../src/views/schemas/misc.ts";

export const adminEmojiRoutes: RouteDef[] = [
  route({
    method: "POST",
    path: admin("/reload_emoji"),
    view: OkSchema,
    summary: "Reload the custom emoji from the packs on disk; answers \"ok\"",
    tags: ["Admin: emoji"],
    operation: reloadEmoji,
    async handler(ctx) {
      await reloadEmoji(ctx, {});
      return "ok";
    },
  }),
];
