// What an operator reads when the database cannot be used at start-up: one line naming the database
// (without its password) and what to check, instead of a driver's stack trace.
import fs from "node:fs";
import { StartupError } from "../kernel/startup-error.ts";
import { migrationsDir } from "./migrate.ts";
import { isPostgres } from "./pglite-open.ts";

/** The migrations must ship with the server: without them it would start on an empty schema. */
export function checkMigrationsPresent(): void {
  const present = fs.existsSync(migrationsDir) && fs.readdirSync(migrationsDir, { withFileTypes: true }).some((d) => d.isDirectory());
  if (!present) throw new StartupError(`no database migrations in ${migrationsDir}: the server's files are incomplete; run it from a complete checkout or release`);
}

const redacted = (url: string) => {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return url;
  }
};

/**
 * Connects to PostgreSQL once before anything else uses it: the driver's error codes say what is wrong
 * (the migrations' engine reports only "Can't reach database server").
 */
export async function probePostgres(url: string): Promise<void> {
  if (!isPostgres(url)) return;
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  client.on("error", () => {}); // a connection lost after the probe is not the probe's
  try {
    await client.connect();
  } catch (error) {
    throw databaseStartupFailure(error, url);
  } finally {
    await client.end().catch(() => {});
  }
}

/** `error` of opening or migrating `url` as a StartupError when it is a known start-up mistake. */
export function databaseStartupFailure(error: unknown, url: string): Error {
  const causes: any[] = [];
  for (let e: any = error; e && typeof e === "object" && causes.length < 8; e = e.cause ?? e.originalError ?? e.meta?.driverAdapterError) causes.push(e);
  const code = causes.map((e) => e.code ?? e.originalCode).find((c) => typeof c === "string" && !/^P\d{4}$/.test(c));
  const text = causes.map((e) => e.originalMessage ?? e.message).find((m) => typeof m === "string" && m) ?? String(error);
  if (!isPostgres(url)) return new StartupError(`the embedded database (${url}) cannot be opened: ${text.split("\n")[0]}; is DATA_DIR complete and writable?`);
  const db = redacted(url);
  const fix: Record<string, string> = {
    ECONNREFUSED: "nothing listens there; is PostgreSQL running, and are DATABASE_URL's host and port right?",
    ENOTFOUND: "the host name does not resolve; check DATABASE_URL's host",
    EAI_AGAIN: "the host name does not resolve; check DATABASE_URL's host",
    ETIMEDOUT: "no answer; is the host reachable (firewall, address)?",
    EHOSTUNREACH: "the host is unreachable; check DATABASE_URL's host",
    "28P01": "the password was refused; check DATABASE_URL's user and password",
    "28000": "the user may not connect (pg_hba.conf); check DATABASE_URL's user",
    "3D000": "the database does not exist; create it (createdb) or fix DATABASE_URL's database name",
    "57P03": "PostgreSQL is starting up or not accepting connections; try again shortly",
    "53300": "PostgreSQL has no free connections; raise max_connections or stop other clients",
  };
  const hint =
    (code && fix[code]) ??
    (/password authentication failed/i.test(text) ? fix["28P01"] : /does not exist/i.test(text) && /database/i.test(text) ? fix["3D000"] : /can't reach database server|timeout expired|connection terminated/i.test(text) ? "it cannot be reached; is PostgreSQL running, and are DATABASE_URL's host and port right?" : undefined);
  if (hint) return new StartupError(`cannot use the database ${db}: ${hint}`);
  return error instanceof Error ? error : new Error(String(error));
}
