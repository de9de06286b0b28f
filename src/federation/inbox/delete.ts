// Delete of a status (removed as a local deletion is) or of the actor itself (its account and content
// removed, as the family does for a deleted account).
import type { Delete } from "@fedify/vocab";
import { removeRemoteAccount } from "../../domain/accounts/remote.ops.ts";
import { deleteRemoteStatus } from "../../domain/statuses/remote.ops.ts";
import { idOf } from "../remote/json.ts";
import { inbound, type InboxCtx } from "./inbound.ts";

export async function onDelete(fctx: InboxCtx, del: Delete) {
  const inb = await inbound(fctx, del);
  const objectId = idOf(inb?.raw.object);
  if (!inb || !objectId) return;
  if (objectId === inb.actor.apId) return removeRemoteAccount(inb.ctx, inb.actor);
  await deleteRemoteStatus(inb.ctx, inb.actor, objectId);
}
