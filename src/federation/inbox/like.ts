// Like → a favourite; EmojiReact, and Like with `content` / `_misskey_reaction` (as Misskey and others
// send reactions) → an emoji reaction, a custom one when its Emoji is in `tag`. Undo removes either.
import type { EmojiReact, Like } from "@fedify/vocab";
import type { Status } from "../../generated/prisma/client.ts";
import { rememberRemoteEmojis } from "../../domain/emoji/remote-emoji.ts";
import { normalizeEmoji, reactAs, unreactAs } from "../../domain/reactions/reactions.ops.ts";
import { favouriteAs, unfavouriteAs } from "../../domain/statuses/actions.ops.ts";
import { canSee } from "../../domain/statuses/visibility.ts";
import { idOf, isObject, list, str, types, urlOf, type Json } from "../remote/json.ts";
import { inbound, statusAt, type Inbound, type InboxCtx } from "./inbound.ts";

/** The reaction a Like or EmojiReact carries: unicode (normalized) or a custom emoji with its image; null for a plain Like. */
export function reactionOf(raw: Json): { emoji: string; emojiUrl: string | null; domainEmoji?: { shortcode: string; url: string; apId: string | null } } | null {
  const content = (str(raw._misskey_reaction) ?? str(raw.content) ?? "").trim();
  if (!content) return null;
  const shortcode = content.match(/^:([A-Za-z0-9_-]+)(?:@[^:]*)?:$/)?.[1];
  if (shortcode) {
    const tag = list(raw.tag).filter(isObject).find((t) => types(t).includes("Emoji") && (str(t.name) ?? "").replace(/^:|:$/g, "") === shortcode);
    const url = tag ? urlOf(isObject(tag.icon) ? tag.icon.url : null) : null;
    if (!url) return null;
    return { emoji: shortcode, emojiUrl: url, domainEmoji: { shortcode, url, apId: idOf(tag) } };
  }
  try {
    return { emoji: normalizeEmoji(content), emojiUrl: null };
  } catch {
    return null;
  }
}

async function likedStatus(inb: Inbound): Promise<Status | null> {
  const status = await statusAt(inb.ctx, idOf(inb.raw.object));
  // one cannot react to what one may not see (followers-only posts of those one does not follow)
  if (!status) return null;
  const follows = await inb.ctx.db.follow.findFirst({ where: { followerId: inb.actor.id, followingId: status.accountId, state: "accept" }, select: { id: true } });
  return canSee({ viewerId: inb.actor.id, following: new Set(follows ? [status.accountId] : []), blocked: new Set() }, status) ? status : null;
}

async function react(inb: Inbound, activityId: string) {
  const status = await likedStatus(inb);
  if (!status) return;
  const reaction = reactionOf(inb.raw);
  if (!reaction) return favouriteAs(inb.ctx, inb.actor, status, activityId);
  if (reaction.domainEmoji && inb.actor.domain) await rememberRemoteEmojis(inb.ctx, inb.actor.domain, [reaction.domainEmoji]);
  await reactAs(inb.ctx, inb.actor, status, reaction, activityId);
}

export async function onLike(fctx: InboxCtx, like: Like) {
  const inb = await inbound(fctx, like);
  if (inb && like.id) await react(inb, like.id.href);
}

export async function onEmojiReact(fctx: InboxCtx, emojiReact: EmojiReact) {
  const inb = await inbound(fctx, emojiReact);
  if (inb && emojiReact.id && reactionOf(inb.raw)) await react(inb, emojiReact.id.href);
}

/** Undo of a Like or EmojiReact: by the activity's id, else by what the embedded activity names. */
export async function undoReaction(inb: Inbound, object: unknown) {
  const apId = idOf(object);
  const reaction = apId ? await inb.ctx.db.reaction.findUnique({ where: { apId } }) : null;
  if (reaction && reaction.accountId === inb.actor.id) return void (await unreactAs(inb.ctx, inb.actor, { id: reaction.statusId }, reaction.emoji));
  const favourite = apId ? await inb.ctx.db.favourite.findUnique({ where: { apId } }) : null;
  if (favourite && favourite.accountId === inb.actor.id) return unfavouriteAs(inb.ctx, inb.actor, { id: favourite.statusId });
  if (!isObject(object)) return;
  const status = await statusAt(inb.ctx, idOf(object.object));
  if (!status) return;
  const named = reactionOf(object);
  if (named) await unreactAs(inb.ctx, inb.actor, status, named.emoji);
  else if (types(object).includes("Like")) await unfavouriteAs(inb.ctx, inb.actor, status);
}
