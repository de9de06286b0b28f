// Composition root: database, jobs, bus → express app with REST, GraphQL (+graphql-ws), tRPC, OpenAPI.
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import type { AddressInfo } from "node:net";
import express from "express";
import * as trpcExpress from "@trpc/server/adapters/express";
import { allRoutes } from "./routes.ts";
import { credentialsOf, sessionCookie } from "./http/credentials.ts";
import { mountRoutes, sendError } from "./http/routes/mount.ts";
import { mediaProxyRoute } from "./http/media-proxy.ts";
import { loadMediaProxyKey } from "./domain/media/proxy-url.ts";
import { openApiDocument } from "./http/routes/openapi.ts";
import { createStreamingServer } from "../compat-rest/streaming/index.ts";
import type { Settings } from "./config/env.ts";
import { followConfigChanges, loadRuntimeConfig } from "./config/runtime.ts";
import { openDatabase, type Database } from "./db/client.ts";
import { authenticatedCtx, type Credentials } from "./domain/auth/authenticate.ts";
import { safeEqual, newSecret } from "./domain/auth/secrets.ts";
import { systemCtx, type Ctx, type Services } from "./domain/context.ts";
import { packsDir } from "./domain/emoji/pack-store.ts";
import { followEmojiChanges, loadEmojiRegistry } from "./domain/emoji/registry.ts";
import { DomainError } from "./kernel/errors.ts";
import { federationMiddleware } from "./federation/mount.ts";
import { lazyFederationPort } from "./federation/lazy.ts";
import { applyRateDecision, RateLimiter } from "./http/rate-limit.ts";
import { securityHeaders } from "./http/security-headers.ts";
import { answerClientErrors, boundaryErrorHandler, parseQueryString, requestBoundary } from "./http/boundary.ts";
import { surfaceBodies } from "./http/surface-bodies.ts";
import { instanceKey } from "./config/instance-key.ts";
import { adminUi } from "./http/admin-ui.ts";
import { installedFrontend } from "./http/frontends.ts";
import { csrfGuard, sessionCsrfGuard } from "./http/csrf.ts";
import { countResponses } from "./http/request-counts.ts";
import type { GraphqlServer } from "./graphql/serve.ts";
import { allJobs } from "./jobs/all.ts";
import { createJobQueue, jobsPrefix } from "./jobs/index.ts";
import { registerJobs } from "./jobs/registry.ts";
import { createMailer } from "./mail/mailer.ts";
import { uploadsDir } from "./media/storage.ts";
import { projectRoot } from "./project-root.ts";
import { createBus } from "./realtime/bus.ts";
import { channelPrefix } from "./realtime/redis-bus.ts";
import { closeStreamHub } from "./domain/streams/hub.ts";
import { closeCredentialWatch, credentialWatch } from "./domain/auth/credential-watch.ts";
import { followRowWrites } from "./domain/row-caches.ts";
import { installPageCache } from "./http/routes/page-cache.ts";
import { keptGraphqlAnswers } from "./http/kept-graphql.ts";
import { appRouter, type TrpcContext } from "./trpc/router.ts";
import { prepareDataDir, holdDataDir } from "./kernel/data-dir.ts";
import { isPostgres } from "./db/pglite-open.ts";
import { ensurePortFree, listenFailure } from "./net/port-free.ts";
import { checkMigrationsPresent, databaseStartupFailure, probePostgres } from "./db/startup-errors.ts";

export interface RunningServer {
  url: string;
  services: Services;
  database: Database;
  close(): Promise<void>;
  /** the step of close() under way (logged when shutdown runs out of time) */
  pendingShutdown(): string;
}

/**
 * Of SHUTDOWN_GRACE_MS, the part kept for what follows the requests in flight (stopping jobs, closing
 * the Redis and database connections), so that shutdown ends within the grace even when requests used it all.
 */
const CLOSING_RESERVE_MS = 1_000;

const assetsDir = path.join(projectRoot, "src/media/assets");

/** Rate-limit counters of one instance in a shared Redis (like the bus's channels and the job queue's keys). */
const rateLimitPrefix = (settings: Settings) => `ext-rl:${instanceKey(settings)}:`;

export function buildApp(services: Services, ctlSecret: string) {
  const { settings } = services;
  const ns = settings.namespace;
  const app = express();
  app.disable("x-powered-by");
  // no ETag of every body: hashing a 50 KB timeline page cost more than any client saved with it (the
  // family's servers send none on the API); static files keep theirs (express.static sets its own)
  app.set("etag", false);
  // ids[]=1&ids[]=2 as the family's clients send arrays, under the boundary's limits
  app.set("query parser", parseQueryString);
  app.set("trust proxy", "loopback");

  app.use(securityHeaders);
  // responses by status class, for the Prometheus scrape (src/http/request-counts.ts)
  app.use(countResponses);
  // the input boundary (src/http/boundary.ts): request target, path encoding, query string, text rule
  app.use(requestBoundary());

  const viewerCtx = async (creds: Credentials, clientIp?: string): Promise<Ctx> => {
    return authenticatedCtx(services, creds, { clientIp });
  };

  // ActivityPub first: inbox bodies must reach signature checks unparsed
  app.use(federationMiddleware(services));
  // every surface below accepts the session cookie: cross-origin unsafe requests made with it are refused
  app.use(sessionCsrfGuard(ns, settings.baseUrl));

  // GraphQL (src/graphql/serve.ts) is loaded at its first request or upgrade, not at start-up
  let graphqlLoading: Promise<GraphqlServer> | undefined;
  const graphql = {
    load: () => (graphqlLoading ??= import("./graphql/serve.ts").then((m) => m.graphqlServer(services, viewerCtx, (req) => credentialsOf(req, ns)))),
    /** the server if it was loaded (shutdown closes its subscriptions) */
    loaded: () => graphqlLoading,
  };

  // bodies read here, counted as they arrive (413 past the limit), before yoga or tRPC sees them; GraphQL
  // uploads only from a signed-in viewer, up to the instance's largest upload limit (src/http/surface-bodies.ts)
  const uploadLimits = ["upload_limit", "avatar_upload_limit", "banner_upload_limit", "background_upload_limit"] as const;
  const uploads = {
    uploadBytes: () => Math.max(...uploadLimits.map((key) => services.config.get("instance", key))),
    signedIn: (req: express.Request) => authenticatedCtx(services, credentialsOf(req, ns), { lenient: true }).then((ctx) => ctx.viewer.via !== "anonymous"),
  };
  app.use("/graphql", surfaceBodies(uploads));
  app.use("/trpc", surfaceBodies());
  // the admin UI's cookie session: cross-site requests and header-less cookie requests are refused
  app.use(["/graphql", "/trpc"], csrfGuard(ns));
  app.use("/graphql", keptGraphqlAnswers(services, ns, viewerCtx));
  app.use("/graphql", (req, res, next) => void graphql.load().then((g) => g.http(req, res, next), next));

  // the admin UI's sign-in counts against the same `authentication` limit as the token endpoint; the
  // services carry the counters for the password throttle (src/domain/auth/password-throttle.ts)
  const limiter = (services.rateLimiter ??= new RateLimiter(settings.redisUrl ? { redis: { url: settings.redisUrl, prefix: `${rateLimitPrefix(settings)}` } } : {}));
  app.use("/trpc", async (req, res, next) => {
    if (req.method !== "POST" || !req.path.includes("session.signIn")) return next();
    if (applyRateDecision(res, await limiter.hit(services.config, "authentication", { ip: req.ip ?? "" }))) next();
  });
  app.use(
    "/trpc",
    trpcExpress.createExpressMiddleware({
      router: appRouter,
      createContext: async ({ req, res }): Promise<TrpcContext> => {
        const creds = credentialsOf(req, ns);
        const secret = req.get("x-ctl-secret");
        const isCtl = secret !== undefined && safeEqual(secret, ctlSecret);
        return {
          ctx: await viewerCtx(isCtl ? {} : creds, req.ip),
          system: isCtl || creds.adminToken !== undefined ? systemCtx(services) : null,
          sessionToken: creds.sessionToken,
          setCookie: (token) => res.append("Set-Cookie", sessionCookie(settings, token)),
          clearCookie: () => res.append("Set-Cookie", sessionCookie(settings, "", 0)),
        };
      },
      onError: ({ error }) => {
        if (error.code === "INTERNAL_SERVER_ERROR" && !(error.cause instanceof DomainError)) console.error("trpc error:", error.cause ?? error);
      },
    }),
  );

  // REST bodies are parsed per route, under each route's body limit (src/http/routes/mount.ts)
  const rest = express.Router();
  mountRoutes(rest, allRoutes, services, limiter);
  // `/` is the landing page (src/federation/pages) until an admin installs a primary frontend, which then wins
  app.get("/", installedFrontend(services, "primary"));
  app.use(rest);

  // built at the first request, not at start-up: about a second of CPU and its memory (zod-openapi's
  // schema walk) that most processes never need (docs/performance.md, "Start-up and idle memory")
  let openapi: string | undefined;
  app.get("/api/openapi", (_req, res) => void res.type("application/json").send((openapi ??= JSON.stringify(openApiDocument(allRoutes, settings)))));
  app.use("/admin", adminUi());
  // uploads: stored names carry a checked image extension; nosniff keeps browsers from guessing otherwise
  app.use("/media", express.static(uploadsDir(services), { index: false, setHeaders: (res) => res.set("X-Content-Type-Options", "nosniff") }));
  app.use("/images", express.static(assetsDir, { index: false }));
  // the instance thumbnail `/api/v1/instance` advertises by default: an operator's file in
  // DATA_DIR/instance/ first, else the bundled one (docs/media.md)
  app.use("/instance", express.static(path.join(settings.dataDir, "instance"), { index: false, dotfiles: "deny", setHeaders: (res) => res.set("X-Content-Type-Options", "nosniff") }));
  app.get("/instance/thumbnail.jpeg", (_req, res) => res.sendFile(path.join(assetsDir, "thumbnail.jpeg")));
  // the media proxy (src/domain/media/media-proxy.ts): remote files behind signed URLs
  // (previews first: "/proxy/preview/<sig>/<url>" would otherwise read as a signature "preview")
  app.get(["/proxy/preview/:signature/:url", "/proxy/preview/:signature/:url/:filename"], mediaProxyRoute(services, (res, err) => sendError(res, err), { preview: true }));
  app.get(["/proxy/:signature/:url", "/proxy/:signature/:url/:filename"], mediaProxyRoute(services, (res, err) => sendError(res, err)));
  // custom emoji: pack file names are checked when written; static serving never leaves the folder
  app.use("/emoji/packs", express.static(packsDir(settings), { index: false, dotfiles: "deny", setHeaders: (res) => res.set({ "X-Content-Type-Options": "nosniff", "Content-Security-Policy": "default-src 'none'; sandbox" }) }));

  // installed frontends (admin frontends install): the primary at /, the admin one at /<ns>/admin
  app.use(`/${ns}/admin`, installedFrontend(services, "admin"));
  app.use(installedFrontend(services, "primary"));

  app.use((_req: express.Request, res: express.Response) => void res.status(404).json({ error: "Not found" }));
  // body-parser, multipart and URL-decoding failures answer 400/413/415 in the family's shape
  app.use(boundaryErrorHandler((res, err) => sendError(res, err)));
  return { app, graphql, limiter };
}

/**
 * Starts the server on `settings`. Start-up mistakes (data directory, port, migrations, database) are
 * StartupErrors with one line for the operator, found before slow work where they can be: the data
 * directory is held first (one process per DATA_DIR: src/kernel/data-dir.ts), the port checked before the
 * database is opened and migrated.
 */
export async function startServer(settings: Settings): Promise<RunningServer> {
  prepareDataDir(settings.dataDir);
  // the embedded database is this process's alone; with PostgreSQL several processes may share DATA_DIR
  const releaseDataDir = isPostgres(settings.databaseUrl) ? () => {} : holdDataDir(settings.dataDir, "server");
  try {
    return await startHolding(settings, releaseDataDir);
  } catch (error) {
    releaseDataDir();
    throw error;
  }
}

async function startHolding(settings: Settings, releaseDataDir: () => void): Promise<RunningServer> {
  await ensurePortFree(settings.host, settings.port);
  checkMigrationsPresent();
  await probePostgres(settings.databaseUrl);
  const database = await openDatabase(settings.databaseUrl, { statementTimeoutMs: settings.databaseStatementTimeoutMs, lockTimeoutMs: settings.databaseLockTimeoutMs }).catch((error) => {
    throw databaseStartupFailure(error, settings.databaseUrl);
  });
  const applied = await database.migrate().catch(async (error) => {
    await database.close().catch(() => {});
    throw databaseStartupFailure(error, settings.databaseUrl);
  });
  if (applied.length) log(settings, `applied migrations: ${applied.join(", ")}`);

  const jobs = createJobQueue({
    prisma: database.prisma,
    redisUrl: settings.redisUrl,
    database: { concurrency: settings.jobsConcurrency },
    redis: { prefix: jobsPrefix(settings), concurrency: settings.jobsConcurrency },
  });
  const config = await loadRuntimeConfig(database.prisma, settings);
  loadEmojiRegistry(settings);
  const services: Services = { db: database.prisma, database, settings, config, jobs, mailer: createMailer(settings, config), bus: createBus(settings.redisUrl ? { url: settings.redisUrl, prefix: channelPrefix(settings) } : undefined), clock: () => new Date() };
  services.federation = lazyFederationPort(services); // remote resolution for domain operations and jobs
  await loadMediaProxyKey(services); // proxy URLs are signed while rendering, synchronously
  registerJobs(jobs, services, allJobs);
  const stopFollowingConfig = followConfigChanges(services.bus, config);
  const stopFollowingEmoji = followEmojiChanges(services.bus, settings);
  const stopFollowingRowWrites = followRowWrites(services, [installPageCache(services)]);
  const ctlSecret = newSecret(32);
  const { app, graphql, limiter } = buildApp(services, ctlSecret);

  const server = http.createServer(app);
  answerClientErrors(server);
  const inFlight = trackInFlight(server);
  // two path-bound WebSocketServers on one HTTP server abort each other's upgrades: route by path
  // the credentials of open sockets (streaming and graphql-ws) are watched from the start: revoked, they close
  credentialWatch(services);
  const streaming = createStreamingServer(services);
  server.on("upgrade", (req, socket, head) => {
    const pathname = new URL(req.url ?? "/", "http://localhost").pathname;
    if (pathname === "/graphql") return void graphql.load().then((g) => g.handleUpgrade(req, socket, head), () => socket.destroy());
    if (streaming.handles(pathname)) return streaming.handleUpgrade(req, socket, head);
    socket.end("HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n");
  });

  if (settings.jobsEnabled) await jobs.start();
  await new Promise<void>((resolve, reject) => {
    server.once("error", (error) => reject(listenFailure(error, settings.host, settings.port)));
    server.listen(settings.port, settings.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${settings.host.includes(":") ? `[${settings.host}]` : settings.host}:${port}`;
  const runtimeFile = path.join(settings.dataDir, "server.json");
  // lets `ctl` on this machine find and authenticate to the running server (0600: only our user reads it)
  fs.writeFileSync(runtimeFile, JSON.stringify({ url, pid: process.pid, ctlSecret }), { mode: 0o600 });
  log(settings, `listening on ${url} (public URL ${settings.baseUrl}, database ${database.kind}, jobs ${jobs.engine})`);

  let closed = false;
  let step = "nothing";
  const stepping = async (name: string, work: () => Promise<unknown>) => {
    step = name;
    await work();
  };
  return {
    url,
    services,
    database,
    pendingShutdown: () => step,
    async close() {
      if (closed) return;
      closed = true;
      try {
        const data = JSON.parse(fs.readFileSync(runtimeFile, "utf8"));
        if (data.pid === process.pid && data.ctlSecret === ctlSecret) fs.rmSync(runtimeFile);
      } catch {
        /* already gone */
      }
      // graceful: stop accepting, close idle keep-alive connections, close WebSockets with 1001 and a
      // reason, let the requests in flight finish (up to SHUTDOWN_GRACE_MS), then cut what is left
      const listening = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      await stopFollowingConfig();
      await stopFollowingEmoji();
      await streaming.close();
      await closeStreamHub(services);
      await closeCredentialWatch(services);
      await (await graphql.loaded())?.close(); // graphql-ws closes with 1001 "Going away"
      const grace = settings.shutdownGraceMs;
      await stepping("requests in flight", () => inFlight.drained(Math.max(grace - Math.min(CLOSING_RESERVE_MS, grace / 2), 0)));
      server.closeAllConnections();
      await listening;
      await stepping("the job queue to stop", () => jobs.stop());
      await stepping("the rate limiter's Redis connection", () => limiter.close());
      stopFollowingRowWrites();
      await stepping("the event bus to close", () => services.bus.close()); // after the jobs: a job finishing during stop may still publish
      await stepping("the database connections to close", () => database.close());
      releaseDataDir();
      step = "nothing";
    },
  };
}

/** Counts the requests being answered, so shutdown can wait for them; answers after close carry `Connection: close`. */
function trackInFlight(server: http.Server) {
  let active = 0;
  let closing = false;
  const waiters = new Set<() => void>();
  server.on("request", (_req: http.IncomingMessage, res: http.ServerResponse) => {
    active++;
    if (closing) res.shouldKeepAlive = false;
    res.once("close", () => {
      active--;
      if (active === 0) for (const w of waiters) w();
    });
  });
  return {
    async drained(timeoutMs: number) {
      closing = true;
      if (active === 0) return;
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          waiters.delete(done);
          resolve();
        };
        const timer = setTimeout(done, timeoutMs);
        waiters.add(done);
      });
    },
  };
}

function log(settings: Settings, message: string) {
  if (settings.logLevel !== "silent" && settings.logLevel !== "error") console.log(message);
}
