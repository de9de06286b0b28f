// Announce of a status (stored first when unknown) → a reblog by the remote account, as a local reblog
// is; Undo of it removes the reblog.
import type { Announce } from "@fedify/vocab";
import { Note } from "@fedify/vocab";
import { reblogAs, unreblogAs } from "../../domain/statuses/actions.ops.ts";
import { canSee } from "../../domain/statuses/visibility.ts";
import { rememberObject } from "../remote/objects.ts";
import { date, idOf, ids, PUBLIC_IDS } from "../remote/json.ts";
import { inbound, statusAt, trustedObject, type Inbound, type InboxCtx } from "./inbound.ts";
import { relayAnnounce } from "./relay.ts";

export async function onAnnounce(fctx: InboxCtx, announce: Announce) {
  const inb = await inbound(fctx, announce);
  const objectId = idOf(inb?.raw.object);
  if (!inb || !objectId || !announce.id) return;
  // a followed relay's Announce brings a post from elsewhere to the federated timeline
  if (await relayAnnounce(inb)) return;
  let original = await statusAt(inb.ctx, objectId);
  if (!original) {
    const object = await trustedObject(inb);
    original = object ? await rememberObject(fctx, new Note({ id: new URL(objectId) }), { raw: object }) : null;
  }
  // what the announcer may not see cannot be reblogged (others' private and direct posts)
  if (!original || !canSee({ viewerId: inb.actor.id, following: new Set(), blocked: new Set() }, original)) return;
  if (original.visibility === "private" || original.visibility === "direct") return;
  const to = ids(inb.raw.to);
  const cc = ids(inb.raw.cc);
  const visibility = to.some((id) => PUBLIC_IDS.has(id)) ? "public" : cc.some((id) => PUBLIC_IDS.has(id)) ? "unlisted" : "private";
  await reblogAs(inb.ctx, inb.actor, original, visibility, { uri: announce.id.href, createdAt: date(inb.raw.published) ?? inb.ctx.clock() });
}

export async function undoAnnounce(inb: Inbound, object: unknown) {
  const announceId = idOf(object);
  const reblog = announceId ? await inb.ctx.db.status.findFirst({ where: { uri: announceId, accountId: inb.actor.id, reblogOfId: { not: null } } }) : null;
  if (reblog?.reblogOfId) await unreblogAs(inb.ctx, inb.actor, { id: reblog.reblogOfId });
}
