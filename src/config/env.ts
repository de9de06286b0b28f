// Static settings read from the environment: the runtime contract operators and outside test suites rely on.
// Extend it, never change the meaning of an existing variable.
import path from "node:path";
import { z } from "zod";
import { StartupError } from "../kernel/startup-error.ts";

const bool = z.enum(["true", "false", "1", "0", "yes", "no", ""]).transform((v) => v === "true" || v === "1" || v === "yes");
const word = z.string().regex(/^[a-z][a-z0-9_]*$/, "must be a lowercase word");

const EnvSchema = z.object({
  HOST: z.string().default("127.0.0.1"),
  PORT: z.coerce.number().int().min(0).max(65535).default(4000),
  BASE_URL: z.url().optional(),
  DATA_DIR: z.string().default("./data"),
  // a typo must not become an embedded database in a directory named after it
  DATABASE_URL: z
    .string()
    .refine((url) => (/^postgres(ql)?:\/\//.test(url) && URL.canParse(url)) || /^pglite:./.test(url), "must be a postgresql:// URL, or pglite:<directory> for the embedded database (unset: the embedded database in DATA_DIR)")
    .optional(),
  REDIS_URL: z.string().optional(),
  CONFIGURABLE_FROM_DATABASE: bool.default(false),
  ADMIN_TOKEN: z.string().optional(),
  API_NAMESPACE: word.default("ext"),
  API_FAMILY: word.default("own"),
  /** which clients' shapes win where the spec and the family's clients differ; default: `pleroma` when API_NAMESPACE=pleroma, else `spec` */
  API_PROFILE: z.enum(["spec", "pleroma"]).optional(),
  INSTANCE_NAME: z.string().default("ext"),
  INSTANCE_EMAIL: z.string().default(""),
  REGISTRATIONS_OPEN: bool.default(true),
  /** smtp://user:password@host:port (smtps:// for TLS); unset = mail is written to DATA_DIR/mail */
  SMTP_URL: z.string().regex(/^smtps?:\/\//, "must start with smtp:// or smtps://").optional(),
  MAIL_FROM: z.string().optional(),
  LOG_LEVEL: z.enum(["silent", "error", "warn", "info", "debug"]).default("info"),
  /** Jobs are processed by this process; set false on web-only nodes. */
  JOBS_ENABLED: bool.default(true),
  /** on SIGTERM, how long requests in flight may take to finish before their connections are cut */
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).default(10_000),
  /** PostgreSQL's statement_timeout for the server's connections; a connection silent 5 s past it with a statement outstanding is dropped (src/db/pg-pool.ts) */
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(1000).default(15_000),
  /** PostgreSQL's lock_timeout for the server's connections (0: wait as long as the statement timeout allows) */
  DATABASE_LOCK_TIMEOUT_MS: z.coerce.number().int().min(0).default(5_000),
  /** the guarded fetcher may reach private and loopback addresses (tests, closed networks) */
  ALLOW_PRIVATE_FETCH: bool.default(false),
  /** first delay of the delivery retries (doubling up to 6 hours); 30 s unless shortened (tests) */
  FEDERATION_RETRY_INITIAL_SECONDS: z.coerce.number().positive().optional(),
  /**
   * job handlers running at once in this process (default 16): deliveries wait on the network, so a
   * fan-out to 500 instances takes 13 s at 16 and 51 s at 5 (docs/performance.md, "Federation")
   */
  JOBS_CONCURRENCY: z.coerce.number().int().min(1).max(200).default(16),
  /** the default of the runtime setting `rate_limit.enabled` (docs/security.md) */
  RATE_LIMITS_ENABLED: bool.default(true),
  /** statuses whose shared part this process keeps in memory (src/domain/statuses/status-cache.ts); 0 turns the cache off */
  STATUS_CACHE_ENTRIES: z.coerce.number().int().min(0).max(10_000_000).optional(),
  PAGE_CACHE_ENTRIES: z.coerce.number().int().min(0).max(1_000_000).optional(),
  /** bearer tokens whose viewer (token, app, account row) this process keeps in memory (src/domain/auth/token-cache.ts); 0 turns the cache off */
  TOKEN_CACHE_ENTRIES: z.coerce.number().int().min(0).max(10_000_000).optional(),
  ACCOUNT_CACHE_ENTRIES: z.coerce.number().int().min(0).max(10_000_000).optional(),
  /** "development" serves the GraphQL explorer at /graphql without the `graphql.explorer` setting */
  NODE_ENV: z.string().optional(),
});

export interface Settings {
  /** NODE_ENV=development */
  development: boolean;
  host: string;
  port: number;
  baseUrl: string;
  /** host[:port] of BASE_URL: the domain in acct handles and ActivityPub ids */
  domain: string;
  dataDir: string;
  /** postgresql://… or pglite:<dir> */
  databaseUrl: string;
  redisUrl?: string;
  configurableFromDatabase: boolean;
  adminToken?: string;
  /** the word in /api/v1/<ns>/…, the JSON object key and the cookie name */
  namespace: string;
  /** the name of the software-family object (`own` in the spec) */
  family: string;
  /**
   * `pleroma`: answer the shapes the family's real clients read where they differ from the spec
   * (docs/compatibility.md, "The pleroma profile"); `spec`: the spec's shapes.
   */
  profile: "spec" | "pleroma";
  instanceName: string;
  instanceEmail: string;
  registrationsOpen: boolean;
  smtpUrl?: string;
  mailFrom?: string;
  logLevel: "silent" | "error" | "warn" | "info" | "debug";
  jobsEnabled: boolean;
  /** remote fetches may reach private addresses (the default of the runtime setting http.allow_private_addresses) */
  allowPrivateFetch: boolean;
  /** first delay of the delivery retries in seconds (default 30) */
  federationRetryInitialSeconds?: number;
  /** job handlers running at once in this process (absent in settings built by hand: the queue's default) */
  jobsConcurrency?: number;
  /** the status cache's size in entries (absent in settings built by hand: its default) */
  statusCacheEntries?: number;
  /** rendered timeline pages each process keeps (src/http/routes/page-cache.ts); 0: none */
  pageCacheEntries?: number;
  /** the token cache's size in entries (absent in settings built by hand: its default) */
  tokenCacheEntries?: number;
  accountCacheEntries?: number;
  shutdownGraceMs: number;
  /** PostgreSQL statement and lock timeouts (absent in settings built by hand: none) */
  databaseStatementTimeoutMs?: number;
  databaseLockTimeoutMs?: number;
  rateLimitsEnabled: boolean;
}

export function loadSettings(env: Record<string, string | undefined> = process.env): Settings {
  const parsed = EnvSchema.safeParse(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== "")));
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new StartupError(`invalid environment: ${issues}`);
  }
  const e = parsed.data;
  const baseUrl = (e.BASE_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, "");
  const dataDir = path.resolve(e.DATA_DIR);
  return {
    host: e.HOST,
    port: e.PORT,
    baseUrl,
    domain: new URL(baseUrl).host,
    dataDir,
    databaseUrl: e.DATABASE_URL ?? `pglite:${path.join(dataDir, "pglite")}`,
    redisUrl: e.REDIS_URL,
    configurableFromDatabase: e.CONFIGURABLE_FROM_DATABASE,
    adminToken: e.ADMIN_TOKEN,
    namespace: e.API_NAMESPACE,
    family: e.API_FAMILY,
    profile: e.API_PROFILE ?? (e.API_NAMESPACE === "pleroma" ? "pleroma" : "spec"),
    instanceName: e.INSTANCE_NAME,
    instanceEmail: e.INSTANCE_EMAIL,
    registrationsOpen: e.REGISTRATIONS_OPEN,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    logLevel: e.LOG_LEVEL,
    jobsEnabled: e.JOBS_ENABLED,
    allowPrivateFetch: e.ALLOW_PRIVATE_FETCH,
    federationRetryInitialSeconds: e.FEDERATION_RETRY_INITIAL_SECONDS,
    jobsConcurrency: e.JOBS_CONCURRENCY,
    statusCacheEntries: e.STATUS_CACHE_ENTRIES,
    pageCacheEntries: e.PAGE_CACHE_ENTRIES,
    tokenCacheEntries: e.TOKEN_CACHE_ENTRIES,
    accountCacheEntries: e.ACCOUNT_CACHE_ENTRIES,
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    databaseStatementTimeoutMs: e.DATABASE_STATEMENT_TIMEOUT_MS,
    databaseLockTimeoutMs: e.DATABASE_LOCK_TIMEOUT_MS,
    rateLimitsEnabled: e.RATE_LIMITS_ENABLED,
    development: e.NODE_ENV === "development",
  };
}
