// MINIMAL Create and Announce wrappers around C's status renderer (render/status.ts), used by the
// object dispatchers (objects.ts) and the outbox (collections.ts) until C's activity renderers exist.
// C: replace the calls of `fallbackCreate` / `fallbackAnnounce` with yours, then delete this file.
import { Announce, Create } from "@fedify/vocab";
import { Temporal } from "@js-temporal/polyfill";
import type { Account, Status } from "../generated/prisma/client.ts";
import { addressing } from "./activitystreams.ts";
import { renderStatusObject, statusAddressing, type StatusParts } from "./render/status.ts";

const instant = (d: Date) => Temporal.Instant.fromEpochMilliseconds(d.getTime());

/** The Create of a local status: its id is the object's id + `/activity`, as the family's. */
export function fallbackCreate(parts: StatusParts, baseUrl: string): Create {
  return new Create({
    id: new URL(`${parts.status.uri}/activity`),
    actor: new URL(parts.author.apId),
    ...statusAddressing(parts),
    published: instant(parts.status.createdAt),
    object: renderStatusObject(parts, baseUrl),
  });
}

/** A reblog's Announce: the reblog's uri is the Announce's id. */
export function fallbackAnnounce(reblog: Pick<Status, "uri" | "visibility" | "createdAt">, author: Pick<Account, "apId">, objectUri: string): Announce {
  const { to, cc } = addressing(reblog, author, []);
  return new Announce({
    id: new URL(reblog.uri),
    actor: new URL(author.apId),
    tos: to.map((u) => new URL(u)),
    ccs: cc.map((u) => new URL(u)),
    published: instant(reblog.createdAt),
    object: new URL(objectUri),
  });
}
