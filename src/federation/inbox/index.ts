// The personal and shared inboxes. Fedify verifies the HTTP signature (draft-cavage and RFC 9421,
// Linked Data Signatures and object proofs too), checks that the key's owner is the activity's actor,
// queues the activity as a durable job and de-duplicates it by id (globally: one activity delivered to
// several of our inboxes is processed once); the listeners registered here turn it into domain
// operations. Servers the instance rejects are refused earlier, by the middleware (domain-block.ts).
import { Accept, Announce, Block, Create, Delete, EmojiReact, Flag, Follow, Like, Move, Reject, Undo, Update } from "@fedify/vocab";
import type { Federation } from "@fedify/fedify";
import type { Services } from "../../domain/context.ts";
import { INSTANCE_ACTOR } from "../service-actors.ts";
import { onAnnounce } from "./announce.ts";
import { onBlock } from "./block.ts";
import { onCreate } from "./create.ts";
import { onDelete } from "./delete.ts";
import { onFlag } from "./flag.ts";
import { onAccept, onFollow, onReject } from "./follow.ts";
import { onUnverifiedActivity } from "./gone-actor.ts";
import { onEmojiReact, onLike } from "./like.ts";
import { onMove } from "./move.ts";
import { onUndo } from "./undo.ts";
import { onUpdate } from "./update.ts";

export const INBOX_PATH = "/users/{identifier}/inbox";
export const SHARED_INBOX_PATH = "/inbox";

export function registerInbox(federation: Federation<Services>) {
  return federation
    .setInboxListeners(INBOX_PATH, SHARED_INBOX_PATH)
    .withIdempotency("global")
    // fetches made while handling shared-inbox deliveries are signed by the instance actor
    .setSharedKeyDispatcher(() => ({ identifier: INSTANCE_ACTOR }))
    .on(Follow, onFollow)
    .on(Accept, onAccept)
    .on(Reject, onReject)
    .on(Undo, onUndo)
    .on(Create, onCreate)
    .on(Update, onUpdate)
    .on(Delete, onDelete)
    .on(Announce, onAnnounce)
    .on(Like, onLike)
    .on(EmojiReact, onEmojiReact)
    .on(Block, onBlock)
    .on(Move, onMove)
    .on(Flag, onFlag)
    .onUnverifiedActivity(onUnverifiedActivity)
    .onError((_ctx, error) => console.error("inbox:", error));
}
