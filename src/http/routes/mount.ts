// Mounts route declarations on express: credentials → scopes/role → input validation → handler → JSON.
import express, { type Request, type Response } from "express";
import type { z } from "zod";
import { authenticatedCtx } from "../../domain/auth/authenticate.ts";
import { requirePrivilege, requireRole, requireScopes } from "../../domain/auth/policy.ts";
import { anonymous, makeCtx, type Ctx, type Services } from "../../domain/context.ts";
import { DomainError, Forbidden, httpStatus, Throttled, UpstreamFailure } from "../../kernel/errors.ts";
import { GuardedFetchError } from "../../net/guarded-fetch.ts";
import { assertSafeInput, withLengthLimits } from "../../domain/input-limits.ts";
import { invalidFromZod } from "../../domain/operation.ts";
import { sendFault } from "../faults.ts";
import { HTTP_LIMITS, inputErrorShape, restBodyParsers, restMediaType } from "../boundary.ts";
import { multipartToDisk, uploadsTempDir } from "./uploads.ts";
import { applyRateDecision, RateLimiter } from "../rate-limit.ts";
import { credentialsOf } from "../credentials.ts";
import { ExactPaths } from "./exact-paths.ts";
import { pageCacheOf, sendPage, viewerWrote } from "./page-cache.ts";
import { pageBody } from "./pagination.ts";
import type { Settings } from "../../config/env.ts";
import { assertRouteDeclared, authOf, resolveRoute, type ErrorShape, type RouteDef } from "./route.ts";

/** The family's default error body for a domain error (routes may declare their own). */
export function defaultErrorShape(error: DomainError): ErrorShape {
  // a fetch made for the request: refused (the client named a forbidden address) 400, failed 502
  if (error instanceof GuardedFetchError) return { status: error.reason === "refused" ? 400 : 502, body: { error: error.message } };
  if (error instanceof UpstreamFailure) return { status: 502, body: { error: error.message } };
  const status = httpStatus[error.kind];
  if (error.kind === "invalid" && error.fields) {
    const errors = Object.entries(error.fields).map(([field, message]) => ({ title: "Invalid value", source: { pointer: `/${field.replaceAll(".", "/")}` }, message }));
    return { status, body: { error: error.message, errors } };
  }
  return { status, body: { error: error.message } };
}

export function sendError(res: Response, error: unknown, def?: Pick<RouteDef, "errors">, settings?: Settings) {
  if (res.headersSent) return;
  // the password throttle: the same 429 and headers as a route's own rate limit, whatever the route's error shapes
  if (error instanceof Throttled) return void applyRateDecision(res, { allowed: false, limit: error.limit, remaining: 0, resetAt: error.resetAt });
  if (error instanceof DomainError) {
    const shape = (settings && def?.errors?.(error, settings)) || defaultErrorShape(error);
    // a handler may have set another type (HTML pages) before failing: the error is JSON
    res.status(shape.status).type("application/json").json(shape.body);
    return;
  }
  // the database away (503) or the disk full (507): not the request's fault, not a 500
  if (sendFault(res, error)) return;
  console.error("unhandled error:", error);
  res.status(500).type("application/json").json({ error: "Internal server error" });
}

/** Form bodies name arrays `ids[]`; multer leaves the brackets in the key. */
function normalizeMultipart(body: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body ?? {})) {
    if (key.endsWith("[]")) out[key.slice(0, -2)] = Array.isArray(value) ? value : [value];
    else out[key] = value;
  }
  return out;
}

/** The family casts leniently: when validation fails, empty-string parameters are dropped and it retries. */
function parseLenient<S extends z.ZodType>(schema: S, raw: Record<string, unknown>): z.output<S> {
  const first = schema.safeParse(raw);
  if (first.success) return first.data;
  const withoutEmpty = Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== ""));
  const second = schema.safeParse(withoutEmpty);
  if (second.success) return second.data;
  throw invalidFromZod(first.error, raw);
}

/** Resolves the viewer and applies the route's auth declaration. */
async function authorize(def: RouteDef, services: Services, req: Request): Promise<Ctx> {
  const creds = credentialsOf(req, services.settings.namespace);
  const auth = authOf(def);
  const lenient = auth === "public" || !!auth.optional;
  // like the family's servers, a dead token on a public or optional route just means "anonymous"
  const ctx = await authenticatedCtx(services, creds, { lenient, clientIp: req.ip });
  if (auth === "public") return ctx;
  const { scopes, optional, role, privilege, appToken } = auth;
  const { viewer } = ctx;
  try {
    if (viewer.via === "anonymous") throw Forbidden("Invalid credentials.");
    // the family checks staff roles in the router pipeline, before the controller's scope check
    if (role) requireRole(viewer, role);
    if (privilege) requirePrivilege(ctx, privilege);
    requireScopes(viewer, scopes === "any" ? [] : scopes);
    if (!viewer.account && viewer.via !== "admin_token" && !(appToken && viewer.app)) throw Forbidden("Invalid credentials.");
    return ctx;
  } catch (error) {
    // the family's "proceed unauthenticated" fallback for optional routes
    if (optional && !role && !privilege) return makeCtx(services, anonymous);
    throw error;
  }
}

export function mountRoutes(router: express.Router, routes: readonly RouteDef[], services: Services, limiter = new RateLimiter()) {
  routes.forEach(assertRouteDeclared);
  const pages = pageCacheOf(services);
  // parameterless paths are found by one lookup, not by Express's walk through every route (exact-paths.ts)
  const exact = new ExactPaths();
  const receiving = uploadsTempDir(services.settings.dataDir);
  router.use(exact.middleware());
  for (const declared of routes) {
    const def = resolveRoute(declared, services.settings.namespace, services.settings.family);
    // every string and array of the route's schemas has a maximum length (src/domain/input-limits.ts); the capped
    // copies are made at the route's first request: all routes' at start-up took ~0.06 s before the first answer
    const limited = <S extends z.ZodType | undefined>(s: S) => (s ? withLengthLimits(s) : s) as S;
    let capped: Pick<typeof def, "params" | "query" | "body"> | undefined;
    const schemas = () => (capped ??= { params: limited(def.params), query: limited(def.query), body: limited(def.body) });
    const bodyParsers = restBodyParsers(Math.min(def.bodyLimit ?? HTTP_LIMITS.bodyBytes, HTTP_LIMITS.maxBodyBytes));
    const multipart = multipartToDisk({
      dir: receiving,
      files: def.files,
      fileBytes: () => def.fileLimit?.(services.config) ?? services.config.get("instance", "upload_limit"),
      fieldBytes: Math.max(def.bodyLimit ?? 0, HTTP_LIMITS.multipart.fieldSize),
    });
    const reads = def.method === "GET";
    const handle = async (req: Request, res: Response) => {
      let ctx: Ctx | undefined;
      try {
        ctx = (res.locals.authorized as Ctx | undefined) ?? (await authorize(declared, services, req));
        ctx.clientIp = req.ip; // the optional routes' anonymous fallback is a new context
        if (def.rateLimit && !applyRateDecision(res, await limiter.hit(services.config, def.rateLimit, { account: ctx.viewer.account?.id, ip: req.ip ?? "" }))) return;
        // a page kept for this viewer and URL was validated when it was read: it is sent before the input is parsed again
        const kept = reads && def.pageCache ? pages : null;
        const hit = kept?.enabled ? kept.get(ctx, req.originalUrl) : undefined;
        if (hit) return sendPage(res, hit);
        const query = (req.query ?? {}) as Record<string, unknown>;
        const body = req.is("multipart/form-data") ? normalizeMultipart(req.body) : ((req.body ?? {}) as Record<string, unknown>);
        // the text rule before the handler reads the input: no NUL, no unpaired surrogate (422)
        assertSafeInput(req.params, "path");
        assertSafeInput(body);
        for (const files of Object.values((req.files ?? {}) as Record<string, Express.Multer.File[]>)) for (const f of files) assertSafeInput(f.originalname, `${f.fieldname}.filename`);
        const schema = schemas();
        const input = {
          params: schema.params ? parseLenient(schema.params, req.params) : req.params,
          query: schema.query ? parseLenient(schema.query, query) : {},
          // clients put body parameters in the query string too; the body wins
          body: schema.body ? parseLenient(schema.body, { ...query, ...(typeof body === "object" && !Array.isArray(body) ? body : {}) }) : {},
          files: (req.files && !Array.isArray(req.files) ? req.files : {}) as Record<string, Express.Multer.File[]>,
          req,
          res,
        };
        // what can change this page, if it is to be kept (page-cache.ts)
        const keep = kept?.enabled ? def.pageCache!(ctx, input as any) : null;
        const since = keep ? kept!.begin(ctx, keep) : 0;
        const handled = await def.handler(ctx, input as any);
        if (!reads) viewerWrote(ctx); // before the answer: the client's next read sees its write
        if (res.headersSent) return;
        // a paged route answers its page: the Link header from its cursors, the items as the body
        const result = def.paged ? pageBody(def.paged, req, res, services.settings.baseUrl, handled) : handled;
        if (result === undefined) res.status(def.status ?? 204).end();
        else if (keep) sendPage(res, kept!.store(since, ctx, req.originalUrl, keep, result, res.get("Link")));
        else res.status(def.status ?? 200).json(result);
      } catch (error) {
        // a write that failed half-way may have changed something: the viewer's pages go all the same
        if (!reads && ctx) viewerWrote(ctx);
        sendError(res, error, def, services.settings);
      }
    };
    const method = def.method.toLowerCase() as "get" | "post" | "put" | "patch" | "delete";
    // A request without a body (every GET, most actions) goes straight to the handler: the media type check,
    // the body parsers and multer each pass such a request on untouched (body-parser's hasBody is the same
    // test); in a Node 20 profile of a kept page, walking them was about 3 % of its CPU. The handler's
    // promise goes back to the caller, which reports a rejection as Express does (docs/performance.md, "Fifteenth round").
    const bodiless: express.RequestHandler = (req, res, next) => (req.headers["transfer-encoding"] === undefined && req.headers["content-length"] === undefined ? handle(req, res) : next());
    // a multipart body is read only once the route's authorization passed (uploads.ts); a refusal, or a file
    // past the route's limit, answers in the route's error shape
    const authorizedMultipart: express.RequestHandler = (req, res, next) => {
      if (!req.is("multipart/form-data")) return next();
      // the route's error shape, the password throttle's 429 and the database's 503 as the handler would send them
      // (a malformed or oversized body is a boundary failure: its 400/413 as the app's error handler answers it)
      const fail = (error: unknown) => {
        const shape = inputErrorShape(error);
        if (shape) return void (res.headersSent || res.status(shape.status).json(shape.body));
        sendError(res, error, def, services.settings);
      };
      authorize(declared, services, req).then((ctx) => {
        res.locals.authorized = ctx;
        multipart(req, res, (error?: unknown) => (error ? fail(error) : next()));
      }, fail);
    };
    const handlers: express.RequestHandler[] = [bodiless, restMediaType, ...bodyParsers, authorizedMultipart, handle];
    for (const path of def.paths) {
      router[method](path, ...handlers);
      exact.add(method, path, handlers);
    }
  }
}
