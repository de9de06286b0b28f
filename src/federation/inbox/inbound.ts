// What every inbox listener starts from: the verified actor as an account (fetched and stored when new),
// the activity as its server sent it, and a system context for the domain operations. Activities of
// servers the instance rejects stop here (the middleware refuses most of them earlier, with 403).
import type { InboxContext } from "@fedify/fedify";
import { isActor, type Activity } from "@fedify/vocab";
import type { Account } from "../../generated/prisma/client.ts";
import { systemCtx, type Ctx, type Services } from "../../domain/context.ts";
import { hostOf, rejectedBy } from "../../domain/instance/rejected-domains.ts";
import { accountForActorUri, lookupSigned } from "../remote/actors.ts";
import { idOf, isObject, sameOrigin, types, type Json } from "../remote/json.ts";
import { refusedActivity } from "../../domain/federation/policy/index.ts";
import { objectJson } from "../remote/objects.ts";
import { localActorAccount } from "../actors.ts";
import { markHeardFrom } from "../outbox/health.ts";

export type InboxCtx = InboxContext<Services>;

export interface Inbound {
  fctx: InboxCtx;
  ctx: Ctx;
  actor: Account;
  /** the activity as received (signed payload), or Fedify's compact rendition when there is none */
  raw: Json;
}

export async function inbound(fctx: InboxCtx, activity: Activity): Promise<Inbound | null> {
  const actorId = activity.actorId;
  if (!actorId || rejectedBy(fctx.data, hostOf(actorId))) return null;
  const actor = await accountForActorUri(fctx, actorId);
  if (!actor || actor.local) return null;
  await markHeardFrom(fctx.data.db, actorId.host);
  // Fedify keeps the received payload on the inbox context (also for queued activities)
  const received = (fctx as unknown as { activity?: unknown }).activity;
  const raw = isObject(received) && idOf(received) === activity.id?.href ? received : ((await activity.toJsonLd({ format: "compact", contextLoader: fctx.contextLoader })) as Json);
  // SimplePolicy's activity rules (reject_deletes, report_removal); statuses and profiles are filtered where they are read
  if (refusedActivity(fctx.data.config, types(raw), hostOf(actorId))) return null;
  return { fctx, ctx: systemCtx(fctx.data), actor, raw };
}

/**
 * The activity's object as JSON we can trust: embedded by the actor's own server (same origin as the
 * actor, covered by its signature), else fetched from its id (signed by the instance actor).
 */
export async function trustedObject(inb: Inbound): Promise<Json | null> {
  const embedded = inb.raw.object;
  const id = idOf(embedded);
  if (!id || rejectedBy(inb.fctx.data, hostOf(id))) return null;
  if (isObject(embedded) && Object.keys(embedded).length > 1 && sameOrigin(id, inb.actor.apId)) return embedded;
  const object = await lookupSigned(inb.fctx, id, { retry: true });
  if (!object || isActor(object) || object.id?.href !== id) return null;
  return objectJson(inb.fctx, object);
}

/** The local account an actor URL (ours) names, or null. */
export async function localAccountAt(fctx: InboxCtx, uri: string | URL | null | undefined): Promise<Account | null> {
  if (!uri) return null;
  const parsed = fctx.parseUri(typeof uri === "string" ? new URL(uri) : uri);
  if (parsed?.type !== "actor") return null;
  return localActorAccount(fctx.data, parsed.identifier);
}

/** A stored status by its ActivityPub id (or its page URL), not a reblog. */
export async function statusAt(ctx: Ctx, uri: string | null | undefined) {
  if (!uri) return null;
  return ctx.db.status.findFirst({ where: { OR: [{ uri }, { url: uri }], reblogOfId: null } });
}
