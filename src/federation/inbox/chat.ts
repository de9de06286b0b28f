// Create of a litepub ChatMessage → a chat message of the remote author to the one local account it is
// addressed to (the family sends them to exactly one actor; anything else is not a chat message and is
// dropped). Never a status: nothing reaches a timeline. A chat message holds one attachment: the first is kept.
import { receiveChatMessage } from "../../domain/chats/chats.ops.ts";
import { sanitizeRemoteHtml } from "../../domain/statuses/formatter.ts";
import { attachmentsOf, authorOf } from "../remote/objects.ts";
import { date, idOf, ids, isObject, list, mapped, str, types, urlOf, type Json } from "../remote/json.ts";
import { localAccountAt, type Inbound } from "./inbound.ts";

export const isChatMessage = (object: Json) => types(object).includes("ChatMessage");

export async function onChatMessage(inb: Inbound, object: Json): Promise<void> {
  const id = idOf(object);
  if (!id || authorOf(object) !== inb.actor.apId) return;
  const addressed = [...new Set([...ids(object.to), ...ids(object.cc)])];
  if (addressed.length !== 1) return;
  const recipient = await localAccountAt(inb.fctx, addressed[0]);
  if (!recipient) return;
  const emojis = list(object.tag)
    .filter(isObject)
    .filter((t) => types(t).includes("Emoji"))
    .map((t) => ({ shortcode: (str(t.name) ?? "").replace(/^:|:$/g, ""), url: urlOf(isObject(t.icon) ? t.icon.url : null) }))
    .filter((e): e is { shortcode: string; url: string } => /^[A-Za-z0-9_-]+$/.test(e.shortcode) && !!e.url);
  const content = sanitizeRemoteHtml(mapped(object, "content").text ?? "");
  await receiveChatMessage(inb.ctx, inb.actor, recipient, { apId: id, content, emojis, createdAt: date(object.published) ?? inb.ctx.clock(), media: attachmentsOf(object)[0] ?? null });
}
