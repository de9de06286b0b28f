// Deliveries of the instance's service actors: the relay actor's Follow / Undo of a relay and its
// Accept of a relay's follow-back, and the followed relays as extra recipients of public posts (as
// Mastodon sends them: the author's own Create, which the relay re-announces to its other subscribers).
import type { Recipient } from "@fedify/vocab";
import type { Services } from "../../domain/context.ts";
import type { Db } from "../../db/client.ts";
import type { FederationContext } from "../federation.ts";
import { accountForActorUri } from "../remote/actors.ts";
import { renderFollow, renderFollowAnswer, renderUndo } from "../render/activities.ts";
import { relayFollowId } from "../inbox/relay.ts";
import { RELAY_ACTOR } from "../service-actors.ts";
import { recipients, remoteByApId } from "./recipients.ts";

const fromRelayActor = { identifier: RELAY_ACTOR };

/** The relay's account (its actor fetched and stored when new); null when it cannot be reached. */
async function relayAccount(fctx: FederationContext, actor: string) {
  return accountForActorUri(fctx, actor).catch(() => null);
}

/** Follow of a relay by the relay actor; the relay's Accept names its id (inbox/relay.ts). */
export async function sendRelayFollow(services: Services, fctx: FederationContext, relayId: string, actor: string): Promise<void> {
  const relay = await services.db.relay.findUnique({ where: { id: relayId } });
  if (!relay) return; // unfollowed before the job ran
  const target = await relayAccount(fctx, actor);
  if (!target) throw new Error(`relay ${actor} could not be fetched`); // the job is retried; the row stays pending
  const own = fctx.getActorUri(RELAY_ACTOR).href;
  const to = await recipients(services.db, [target]);
  if (to.length) await fctx.sendActivity(fromRelayActor, to, renderFollow(relayFollowId(own, relayId), own, target.apId));
}

/** Undo of the relay actor's Follow; nothing when the relay was never reached (it never knew of us). */
export async function sendRelayUndo(services: Services, fctx: FederationContext, relayId: string, actor: string): Promise<void> {
  const target = await services.db.account.findFirst({ where: { apId: actor, local: false } });
  if (!target) return;
  const own = fctx.getActorUri(RELAY_ACTOR).href;
  const to = await recipients(services.db, [target]);
  if (to.length) await fctx.sendActivity(fromRelayActor, to, renderUndo(renderFollow(relayFollowId(own, relayId), own, target.apId), own));
}

/** Accept of a relay's Follow of the relay actor. */
export async function sendRelayAccept(services: Services, fctx: FederationContext, actor: string, followApId: string): Promise<void> {
  const follower = await services.db.account.findFirst({ where: { apId: actor, local: false } });
  if (!follower) return;
  const own = fctx.getActorUri(RELAY_ACTOR).href;
  const to = await recipients(services.db, [follower]);
  const accept = renderFollowAnswer("accept", encodeURIComponent(followApId), followApId, follower.apId, own);
  if (to.length) await fctx.sendActivity(fromRelayActor, to, accept);
}

/** The accounts of the relays that accepted our Follow: extra recipients of public posts. */
export async function followedRelays(db: Db): Promise<Recipient[]> {
  const relays = await db.relay.findMany({ where: { state: "accepted" }, select: { actor: true } });
  return relays.length ? recipients(db, await remoteByApId(db, relays.map((r) => r.actor))) : [];
}
