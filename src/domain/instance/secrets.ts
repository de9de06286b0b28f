// Server secrets generated once and shared by every process (stored in `instance_secrets`).
import type { Services } from "../context.ts";

const cache = new WeakMap<object, Map<string, string>>();

/**
 * The named secret, created with `generate` by whichever process asks first. `generate` runs only when
 * the secret is not stored yet (it may import what it needs: web-push for the VAPID pair).
 */
export async function instanceSecret(services: Pick<Services, "db">, name: string, generate: () => string | Promise<string>): Promise<string> {
  const known = cache.get(services.db)?.get(name);
  if (known) return known;
  const stored = await services.db.instanceSecret.findUnique({ where: { name } });
  const value = stored ? stored.value : await create(services, name, generate);
  if (!cache.has(services.db)) cache.set(services.db, new Map());
  cache.get(services.db)!.set(name, value);
  return value;
}

async function create(services: Pick<Services, "db">, name: string, generate: () => string | Promise<string>): Promise<string> {
  // a concurrent first request from another process may win the insert: read what was stored
  await services.db.instanceSecret.createMany({ data: [{ name, value: await generate() }], skipDuplicates: true });
  return (await services.db.instanceSecret.findUniqueOrThrow({ where: { name } })).value;
}
