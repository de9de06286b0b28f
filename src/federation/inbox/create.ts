// Create of a Note, Article, Page or Question → a remote status (rememberObject); a Create of a Note
// with `name` and no content answering one of our polls → a vote of the remote account.
import type { Create } from "@fedify/vocab";
import { remotePollVote } from "../../domain/statuses/remote.ops.ts";
import { authorOf, isStatusJson, rememberObject } from "../remote/objects.ts";
import { idOf, str, types, type Json } from "../remote/json.ts";
import { inbound, statusAt, trustedObject, type Inbound, type InboxCtx } from "./inbound.ts";
import { Note } from "@fedify/vocab";
import { isChatMessage, onChatMessage } from "./chat.ts";

/** A poll answer: a Note with a `name`, no content, in reply to a local Question. Answers whether it was one. */
async function pollVote(inb: Inbound, object: Json): Promise<boolean> {
  const name = str(object.name);
  if (!types(object).includes("Note") || !name || str(object.content)) return false;
  const parent = await statusAt(inb.ctx, idOf(object.inReplyTo));
  if (!parent?.local) return false;
  const poll = await inb.ctx.db.poll.findUnique({ where: { statusId: parent.id } });
  if (!poll) return false;
  await remotePollVote(inb.ctx, inb.actor, poll, name);
  return true;
}

export async function onCreate(fctx: InboxCtx, create: Create) {
  const inb = await inbound(fctx, create);
  if (!inb) return;
  const object = await trustedObject(inb);
  if (object && isChatMessage(object)) return onChatMessage(inb, object);
  if (!object || !isStatusJson(object)) return;
  // only the author creates its objects
  if (authorOf(object) !== inb.actor.apId) return;
  if (await pollVote(inb, object)) return;
  // rememberObject takes the object JSON as sent (extension properties included)
  await rememberObject(fctx, new Note({ id: new URL(idOf(object)!) }), { raw: object, author: inb.actor, fresh: true });
}
