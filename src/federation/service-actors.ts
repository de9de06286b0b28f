// The instance's own actors, which are not accounts: the instance actor, which signs fetches made for
// the server itself (authorized fetch peers require a signature), and the relay actor, which follows
// relays. Their key pairs are instance secrets, shared by every process.
import type { Services } from "../domain/context.ts";
import { instanceSecret } from "../domain/instance/secrets.ts";
import { generatePemKeyPairs, type PemKeyPairs } from "./keys.ts";

/** Identifiers in the actor path (/users/{identifier}); a dot is never in a local nickname, so no account can take them. */
export const INSTANCE_ACTOR = "internal.fetch";
export const RELAY_ACTOR = "internal.relay";
/** The family's ids of its instance actor and relay actor; ours are the same (see registerActors in actors.ts). */
export const SERVICE_ACTOR_PATHS = { [INSTANCE_ACTOR]: "/internal/fetch", [RELAY_ACTOR]: "/relay" } as const;
export const SERVICE_ACTORS = [INSTANCE_ACTOR, RELAY_ACTOR] as const;
export type ServiceActor = (typeof SERVICE_ACTORS)[number];

export const isServiceActor = (identifier: string): identifier is ServiceActor => (SERVICE_ACTORS as readonly string[]).includes(identifier);

/**
 * Read once per process and database: the pairs never change once stored (nothing rotates them), and
 * Fedify asks for the instance actor's keys on every inbox request (its shared key for fetches).
 */
const known = new WeakMap<object, Map<ServiceActor, PemKeyPairs>>();

export async function serviceActorKeys(services: Pick<Services, "db">, identifier: ServiceActor): Promise<PemKeyPairs> {
  let forDb = known.get(services.db);
  if (!forDb) known.set(services.db, (forDb = new Map()));
  const hit = forDb.get(identifier);
  if (hit) return hit;
  const keys = await storedServiceActorKeys(services, identifier);
  forDb.set(identifier, keys);
  return keys;
}

async function storedServiceActorKeys(services: Pick<Services, "db">, identifier: ServiceActor): Promise<PemKeyPairs> {
  const name = `federation.keys.${identifier}`;
  const stored = await services.db.instanceSecret.findUnique({ where: { name } });
  if (stored) return JSON.parse(stored.value) as PemKeyPairs;
  // generating is slow, so only when missing; a process racing us may still win the insert
  const fresh = JSON.stringify(await generatePemKeyPairs());
  return JSON.parse(await instanceSecret(services, name, () => fresh)) as PemKeyPairs;
}
