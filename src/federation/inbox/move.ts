// Move of a remote account to another (which must name it in alsoKnownAs, checked on a fresh copy of
// the target): marked as moved, its followers told, and its local followers follow the target.
import type { Move } from "@fedify/vocab";
import { DomainError } from "../../kernel/errors.ts";
import { moveAs } from "../../domain/relationships/move.ops.ts";
import { accountForActorUri } from "../remote/actors.ts";
import { idOf } from "../remote/json.ts";
import { inbound, type InboxCtx } from "./inbound.ts";

export async function onMove(fctx: InboxCtx, move: Move) {
  const inb = await inbound(fctx, move);
  const origin = idOf(inb?.raw.object);
  const targetId = idOf(inb?.raw.target);
  if (!inb || origin !== inb.actor.apId || !targetId) return;
  const target = await accountForActorUri(fctx, targetId, { refresh: true });
  if (!target || target.movedToId) return;
  try {
    await moveAs(inb.ctx, inb.actor, target);
  } catch (error) {
    if (!(error instanceof DomainError)) throw error; // not aliased: ignored
  }
}
