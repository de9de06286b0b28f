// Update of a status (a new version in the edit history, or a poll's new counts) or of an actor (profile
// change, key rotation: Fedify's cached key for the actor is dropped so the next signature fetches it).
import type { Update } from "@fedify/vocab";
import { isActor } from "@fedify/vocab";
import { authorOf, isStatusJson, rememberObject, updateObject } from "../remote/objects.ts";
import { accountForActorUri } from "../remote/actors.ts";
import { idOf, type Json } from "../remote/json.ts";
import { DbKvStore } from "../kv-store.ts";
import { inbound, statusAt, trustedObject, type InboxCtx } from "./inbound.ts";
import { Note } from "@fedify/vocab";

/**
 * Fedify's caches of the actor: its keys (KvKeyCache, `publicKey` prefix) and the documents they came
 * from (`remoteDocument`), so that a rotated key is fetched at the next signature instead of the old one.
 */
async function forgetKeys(fctx: InboxCtx, urls: (string | null)[]) {
  const kv = new DbKvStore(fctx.data.db);
  for (const url of new Set(urls)) {
    if (!url) continue;
    await kv.delete(["_fedify", "publicKey", url]);
    await kv.delete(["_fedify", "remoteDocument", url]);
  }
}

export async function onUpdate(fctx: InboxCtx, update: Update) {
  const inb = await inbound(fctx, update);
  if (!inb) return;
  const objectId = idOf(inb.raw.object);
  if (objectId === inb.actor.apId) {
    // the actor's own document: fetched again from its server rather than trusted as embedded
    await forgetKeys(fctx, [inb.actor.apId, inb.actor.publicKeyId, `${inb.actor.apId}#main-key`]);
    const object = await update.getObject({ crossOrigin: "ignore" }).catch(() => null);
    if (object && isActor(object) && object.id?.href === inb.actor.apId) await accountForActorUri(fctx, inb.actor.apId, { refresh: true });
    return;
  }
  const object: Json | null = await trustedObject(inb);
  if (!object || !isStatusJson(object) || authorOf(object) !== inb.actor.apId) return;
  const stored = await statusAt(inb.ctx, idOf(object));
  if (stored) await updateObject(fctx, stored, object, inb.actor);
  // an Update of something never seen: stored as it is now
  else await rememberObject(fctx, new Note({ id: new URL(idOf(object)!) }), { raw: object, author: inb.actor });
}
