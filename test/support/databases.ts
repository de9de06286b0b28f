// Fresh databases for tests: an in-memory PGlite, or a new database on the local PostgreSQL.
import { randomBytes } from "node:crypto";
import pg from "pg";

export const PG_ADMIN_URL = process.env.TEST_PG_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
export const DB_KINDS = ["pglite", "postgres"] as const;
export type DbKind = (typeof DB_KINDS)[number];

/** Creates an empty database and returns its URL with a function that drops it. */
export async function freshDatabase(kind: DbKind): Promise<{ url: string; drop: () => Promise<void> }> {
  if (kind === "pglite") return { url: "pglite:memory://", drop: async () => {} };
  const name = `test_${Date.now()}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = PG_ADMIN_URL.replace(/\/[^/?]*(\?|$)/, `/${name}$1`);
  return {
    url,
    async drop() {
      const c = new pg.Client({ connectionString: PG_ADMIN_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await c.end();
    },
  };
}
