// Server secrets generated once and shared by every process (stored in `instance_secrets`).
import type { Services } from "../context.ts";

const cache = new WeakMap<object, Map<string, string>>();

/** The named secret, created with `generate` by whichever process asks first. */
export async function instanceSecret(services: Pick<Services, "db">, name: string, generate: () => string): Promise<string> {
  const known = cache.get(services.db)?.get(name);
  if (known) return known;
  // a concurrent first request from another process may win the insert: read what was stored
  await services.db.instanceSecret.createMany({ data: [{ name, value: generate() }], skipDuplicates: true });
  const { value } = await services.db.instanceSecret.findUniqueOrThrow({ where: { name } });
  if (!cache.has(services.db)) cache.set(services.db, new Map());
  cache.get(services.db)!.set(name, value);
  return value;
}
