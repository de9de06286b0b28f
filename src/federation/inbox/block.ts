// Block of a local account by a remote one (follows both ways end, as a local block does) and its Undo.
import type { Block } from "@fedify/vocab";
import { DomainError } from "../../kernel/errors.ts";
import { blockAs, unblockAs } from "../../domain/relationships/blocks-mutes.ops.ts";
import { idOf, isObject } from "../remote/json.ts";
import { inbound, localAccountAt, type Inbound, type InboxCtx } from "./inbound.ts";

export async function onBlock(fctx: InboxCtx, block: Block) {
  const inb = await inbound(fctx, block);
  const target = inb && (await localAccountAt(fctx, block.objectId));
  if (!inb || !target || !block.id) return;
  try {
    await blockAs(inb.ctx, inb.actor, target, block.id.href);
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
  }
}

export async function undoBlock(inb: Inbound, object: unknown) {
  let target = isObject(object) ? await localAccountAt(inb.fctx, idOf(object.object)) : null;
  if (!target) {
    const apId = idOf(object);
    const row = apId ? await inb.ctx.db.userRelationship.findFirst({ where: { apId, sourceId: inb.actor.id, type: "block" }, include: { target: true } }) : null;
    target = row?.target ?? null;
  }
  if (target?.local) await unblockAs(inb.ctx, inb.actor, target);
}
