// What names one instance on shared infrastructure (a Redis used by several instances or test runs):
// its domain and its database. Processes of one instance agree on it; other instances differ.
import type { Settings } from "./env.ts";

export function instanceKey(settings: Pick<Settings, "domain" | "databaseUrl">): string {
  const url = settings.databaseUrl;
  let database: string;
  if (url.startsWith("pglite:")) {
    const dir = url.slice("pglite:".length);
    // an in-memory database belongs to this process alone
    database = dir.startsWith("memory:") ? `memory-${process.pid}-${Math.random().toString(36).slice(2, 10)}` : dir;
  } else {
    // the database name, not the whole URL: processes may reach the same database through different hosts
    database = decodeURIComponent(new URL(url).pathname.replace(/^\//, "")) || "postgres";
  }
  return `${settings.domain}:${database}`;
}
