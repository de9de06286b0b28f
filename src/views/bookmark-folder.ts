// The family's BookmarkFolder: `{id, name, emoji, emoji_url}` (emoji_url for the instance's custom emoji).
import type { Ctx } from "../../src/domain/context.ts";
import { emojiRegistry, emojiUrl } from "../../src/domain/emoji/registry.ts";
import type { BookmarkFolder } from "../../src/generated/prisma/client.ts";

export function renderBookmarkFolder(ctx: Ctx, folder: BookmarkFolder) {
  const custom = folder.emoji ? emojiRegistry(ctx).get(folder.emoji) : undefined;
  return { id: folder.id, name: folder.name, emoji: folder.emoji, emoji_url: custom ? emojiUrl(ctx, custom) : null };
}
