// Undo: one listener (Fedify dispatches by the activity's class), routed by what is undone.
import type { Undo } from "@fedify/vocab";
import { isObject, types } from "../remote/json.ts";
import { undoAnnounce } from "./announce.ts";
import { undoBlock } from "./block.ts";
import { undoFollow } from "./follow.ts";
import { inbound, type InboxCtx } from "./inbound.ts";
import { undoReaction } from "./like.ts";

export async function onUndo(fctx: InboxCtx, undo: Undo) {
  const inb = await inbound(fctx, undo);
  if (!inb) return;
  const object = inb.raw.object;
  const kind = isObject(object) ? types(object) : [];
  if (kind.includes("Follow")) return undoFollow(inb, object);
  if (kind.includes("Announce")) return undoAnnounce(inb, object);
  if (kind.includes("Block")) return undoBlock(inb, object);
  if (kind.includes("Like") || kind.includes("EmojiReact")) return undoReaction(inb, object);
  // only the id: whichever of our rows carries it
  await undoReaction(inb, object);
  await undoAnnounce(inb, object);
  await undoFollow(inb, object);
  await undoBlock(inb, object);
}
