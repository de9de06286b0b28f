// The explicit context every domain operation receives, as types only: infrastructure, views, HTTP and the
// surfaces name `Ctx` without loading the domain. Surfaces build one per request with makeCtx
// (src/domain/context.ts); tests build it directly.
import type { Settings } from "../config/env.ts";
import type { RuntimeConfig } from "../config/runtime.ts";
import type { Database, Db } from "../db/client.ts";
import type { FederationPort } from "../domain/federation/port.ts";
import type { Loaders } from "../domain/loaders.ts";
import type { Account, OAuthApp } from "../generated/prisma/client.ts";
import type { JobQueue } from "../jobs/queue.ts";
import type { Mailer } from "../mail/mailer.ts";
import type { RateLimiter } from "../http/rate-limit.ts";
import type { Bus } from "../realtime/bus.ts";

export interface Viewer {
  account: Account | null;
  /** the OAuth app of the token, when authenticated by token */
  app: OAuthApp | null;
  /** granted scopes; cookie, Basic and admin-token credentials carry every scope */
  scopes: readonly string[];
  via: "anonymous" | "token" | "session" | "basic" | "admin_token";
  tokenId?: number;
  sessionId?: string;
}

export const anonymous: Viewer = { account: null, app: null, scopes: [], via: "anonymous" };
export const ALL_SCOPES = ["read", "write", "follow", "push", "admin"] as const;

/** Long-lived services, built once at start-up. */
export interface Services {
  db: Db;
  /** what the healthcheck reports about the database */
  database: Pick<Database, "kind" | "poolStats">;
  settings: Settings;
  /** runtime settings (defaults, overridden from the database when configurable) */
  config: RuntimeConfig;
  jobs: JobQueue;
  mailer: Mailer;
  bus: Bus;
  clock: () => Date;
  /** the instance's rate-limit counters (the server's; absent in the CLI, which takes no passwords) */
  rateLimiter?: RateLimiter;
  /** remote resolution (WebFinger, signed fetches); absent where no server runs (the CLI): callers answer from what is stored */
  federation?: FederationPort;
}

export interface Ctx extends Services {
  viewer: Viewer;
  /** per-request DataLoaders, created on first use (src/domain/loaders.ts) */
  loaders: Loaders;
  /** the request's client address, where a request has one (IP blocks at sign-up and sign-in) */
  clientIp?: string;
}
