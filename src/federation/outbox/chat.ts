// A chat message to a remote account, as the family sends it: a Create of a litepub `ChatMessage`
// addressed to exactly that one actor (no followers, no Public, no cc), with custom emoji as `Emoji`
// tags and at most one attachment. The object id is remembered on the message row.
import { ChatMessage, Create, Emoji, Image } from "@fedify/vocab";
import { Temporal } from "@js-temporal/polyfill";
import type { Services } from "../../domain/context.ts";
import type { FederationContext } from "../federation.ts";
import { renderAttachment } from "../render/status.ts";
import { recipients } from "./recipients.ts";
import { senderKeys } from "./sender-keys.ts";

export const chatMessageId = (authorApId: string, messageId: string) => `${authorApId}#chat_messages/${messageId}`;

export async function sendChatMessage(services: Services, fctx: FederationContext, messageId: string, recipientId: string): Promise<void> {
  const { db } = services;
  const baseUrl = services.settings.baseUrl;
  const [message, recipient] = await Promise.all([
    db.chatMessage.findUnique({ where: { id: messageId }, include: { account: true, media: true } }),
    db.account.findUnique({ where: { id: recipientId } }),
  ]);
  if (!message || !message.account.local || !recipient || recipient.local) return;
  const author = message.account;
  const id = message.apId ?? chatMessageId(author.apId, message.id);
  if (!message.apId) await db.chatMessage.updateMany({ where: { id: message.id, apId: null }, data: { apId: id } });
  const to = new URL(recipient.apId);
  const published = Temporal.Instant.fromEpochMilliseconds(message.createdAt.getTime());
  const object = new ChatMessage({
    id: new URL(id),
    attribution: new URL(author.apId),
    to,
    content: message.content,
    published,
    attachments: message.media ? [renderAttachment(message.media, baseUrl)] : [],
    tags: (message.emojis as { shortcode: string; url: string }[]).map((e) => new Emoji({ id: new URL(e.url, baseUrl), name: `:${e.shortcode}:`, icon: new Image({ url: new URL(e.url, baseUrl) }) })),
  });
  const create = new Create({ id: new URL(`${id}/activity`), actor: new URL(author.apId), to, object, published });
  const inboxes = await recipients(db, [recipient]);
  if (inboxes.length) await fctx.sendActivity(await senderKeys(services, author), inboxes, create);
}
