// What relays we follow send to the relay actor: the answer to our Follow (Accept/Reject), their own
// Follow of the relay actor (the "follow back" the admin API reports as `followed_back`) and its Undo,
// and Announces of public posts from elsewhere, which are fetched and stored so they reach the
// federated timeline (not reblogs by the relay: a relay is a pipe, not an author).
import { relayAnswered, relayByActor, relayFollowedBack } from "../../domain/relays/relays.ops.ts";
import { federate } from "../../domain/federation/outbox.ts";
import { Note } from "@fedify/vocab";
import { rememberObject } from "../remote/objects.ts";
import { lookupSigned } from "../remote/actors.ts";
import { idOf, isObject, types, type Json } from "../remote/json.ts";
import { objectJson } from "../remote/objects.ts";
import { RELAY_ACTOR } from "../service-actors.ts";
import { statusAt, trustedObject, type Inbound, type InboxCtx } from "./inbound.ts";

/** Our relay actor's id (`/relay`). */
export const relayActorId = (fctx: InboxCtx) => fctx.getActorUri(RELAY_ACTOR).href;

/** The id of the relay actor's Follow of relay row `relayId` (render side: outbox/relays.ts). */
export const relayFollowId = (relayActorApId: string, relayId: string) => `${relayActorApId}#follows/${relayId}`;

/** An Accept/Reject of the relay actor's Follow; answers whether it was one (then nothing else applies). */
export async function relayAnswer(inb: Inbound, answer: "accept" | "reject"): Promise<boolean> {
  const relay = await relayByActor(inb.ctx, inb.actor.apId);
  if (!relay) return false;
  const object = inb.raw.object;
  const own = relayActorId(inb.fctx);
  const named = idOf(object) === relayFollowId(own, relay.id) || (isObject(object) && idOf(object.actor) === own);
  if (!named) return false;
  await relayAnswered(inb.ctx, relay.id, answer);
  return true;
}

/** A Follow of the relay actor: accepted from relays we follow (they "follow back"), ignored otherwise. */
export async function relayFollow(inb: Inbound, followApId: string, objectId: string | null): Promise<boolean> {
  if (objectId !== relayActorId(inb.fctx)) return false;
  const relay = await relayByActor(inb.ctx, inb.actor.apId);
  if (!relay) return true;
  await relayFollowedBack(inb.ctx, relay.id, true);
  await federate(inb.ctx, { type: "relay.accept", actor: inb.actor.apId, followApId });
  return true;
}

/** Undo of a relay's Follow of the relay actor. */
export async function relayUndoFollow(inb: Inbound, object: unknown): Promise<boolean> {
  if (!isObject(object) || idOf(object.object) !== relayActorId(inb.fctx)) return false;
  const relay = await relayByActor(inb.ctx, inb.actor.apId);
  if (relay) await relayFollowedBack(inb.ctx, relay.id, false);
  return true;
}

/**
 * An Announce by a relay we follow: the announced status (or the object of an announced Create, as
 * some relays send the activity) is stored from its own server; answers whether the actor is a relay.
 */
export async function relayAnnounce(inb: Inbound): Promise<boolean> {
  const relay = await relayByActor(inb.ctx, inb.actor.apId);
  if (!relay) return false;
  let object: Json | null = await trustedObject(inb);
  if (object && (types(object).includes("Create") || types(object).includes("Update"))) {
    const inner = idOf(object.object);
    if (!inner || (await statusAt(inb.ctx, inner))) return true;
    const fetched = await lookupSigned(inb.fctx, inner, { retry: true });
    object = fetched && fetched.id?.href === inner ? await objectJson(inb.fctx, fetched) : null;
  }
  const id = object ? idOf(object) : null;
  if (!object || !id || (await statusAt(inb.ctx, id))) return true;
  await rememberObject(inb.fctx, new Note({ id: new URL(id) }), { raw: object });
  return true;
}
