// A REST route is declared once: method, paths, auth, input schemas, the work (which calls a domain
// operation and a view), success status and the endpoint's own error shapes. The same declaration
// is validated at start-up, mounted on express and printed into the OpenAPI document.
import type { Request, Response } from "express";
import type { z } from "zod";
import type { Ctx } from "../../domain/context.ts";
import type { DomainError } from "../../kernel/errors.ts";
import type { Access, SurfaceAccess } from "../../domain/auth/access.ts";
import type { AnyOperation } from "../../domain/operation.ts";
import type { RateLimitName } from "../rate-limit.ts";
import type { Settings } from "../../config/env.ts";
import type { ViewSchema } from "../../views/schemas/view.ts";
import type { PageCacheSpec } from "./page-cache.ts";
import { PAGING_PARAMS, type IdPage, type OffsetPage, type Paging } from "./pagination.ts";

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** The vocabulary is the domain's (src/domain/auth/access.ts): a route says it only when it names no operation declaring it. */
export type RouteAuth = Access;

type AnyObject = z.ZodType<Record<string, unknown>, any>;

export interface RouteInput<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  files: Record<string, Express.Multer.File[]>;
  req: Request;
  res: Response;
}

export interface ErrorShape {
  status: number;
  body: unknown;
}

export interface RouteDef<P extends AnyObject = AnyObject, Q extends AnyObject = AnyObject, B extends AnyObject = AnyObject> {
  method: Method;
  /** express-style paths; `$ns` is replaced by the configured namespace word, `$family` by the family word */
  path: string | readonly string[];
  summary: string;
  tags?: string[];
  /** who may call it; with an `operation` that declares its access, only what is about REST requests (`optional`, `appToken`) */
  auth?: RouteAuth | SurfaceAccess;
  /** the domain operation the route runs: its access is the route's auth (`authOf`) */
  operation?: AnyOperation;
  params?: P;
  query?: Q;
  /** a schema, or a function of the namespace word for bodies whose keys carry it (`ext_settings_store`) */
  body?: B | ((namespace: string) => B);
  /** multipart file fields; `$ns` is replaced like in paths */
  files?: readonly string[];
  /** the largest file of `files` in bytes, from the instance's settings (default `upload_limit`); one larger stops the read */
  fileLimit?: (config: Ctx["config"]) => number;
  /**
   * the largest JSON or urlencoded body this route reads, in bytes after decompression (413 beyond);
   * default `HTTP_LIMITS.bodyBytes` (1 MiB), at most `HTTP_LIMITS.maxBodyBytes`. Multipart uploads are
   * bounded by the multipart limits and the instance's upload limits instead.
   */
  bodyLimit?: number;
  /** the rate limit (runtime settings `rate_limit.<name>`) counted before the handler runs; 429 beyond it */
  rateLimit?: RateLimitName;
  /**
   * a paged list: "id" pages by max_id / since_id / min_id (the handler returns an `IdPage`: the rendered
   * items and the cursors of their rows), "offset" by offset (an `OffsetPage`). The mount code sets the
   * Link header and sends the items; the query declares the paging parameters.
   */
  paged?: Paging;
  /**
   * a GET whose rendered page is kept per viewer (src/http/routes/page-cache.ts): what besides the page's own
   * statuses and accounts can change it (the timelines new statuses enter it by…); null: this request is not
   * kept (parameters the events cannot follow)
   */
  pageCache?: (ctx: Ctx, input: { params: z.output<P>; query: z.output<Q> }) => PageCacheSpec | null;
  /** success status (default 200) */
  status?: number;
  /** what a success sends (a schema of `views/schemas/`, a function of the namespace words): the OpenAPI document's success response */
  view?: ViewSchema;
  /**
   * the media type of a success that is not JSON (an HTML page, CSV, a zip, Prometheus text, a feed):
   * the OpenAPI document's success content, so only JSON answers are left to declare a `view`
   */
  produces?: string;
  /** OpenAPI response descriptions (success schema optional) */
  response?: { description: string; schema?: z.ZodType };
  /** maps a domain error to this endpoint's wire shape (which may depend on the settings' profile); undefined falls back to `{error}` */
  errors?: (error: DomainError, settings: Settings) => ErrorShape | undefined;
  /**
   * Does the work. Returns the JSON body, or `undefined` after writing the response itself
   * (HTML pages, redirects, empty bodies).
   */
  handler: (ctx: Ctx, input: RouteInput<z.output<P>, z.output<Q>, z.output<B>>) => Promise<unknown>;
}

/** A paged route's handler returns its page (src/http/routes/pagination.ts), checked where it is declared. */
type PagedHandler<P extends AnyObject, Q extends AnyObject, B extends AnyObject> =
  | { paged?: undefined }
  | { paged: "id"; handler: (ctx: Ctx, input: RouteInput<z.output<P>, z.output<Q>, z.output<B>>) => Promise<IdPage> }
  | { paged: "offset"; handler: (ctx: Ctx, input: RouteInput<z.output<P>, z.output<Q>, z.output<B>>) => Promise<OffsetPage> };

/** Keeps declarations typed per route while collecting them in plain arrays. */
export function route<P extends AnyObject, Q extends AnyObject, B extends AnyObject>(def: RouteDef<P, Q, B> & PagedHandler<P, Q, B>): RouteDef {
  return def as unknown as RouteDef;
}

export function pathsOf(def: RouteDef, namespace: string, family = "own"): string[] {
  return (typeof def.path === "string" ? [def.path] : [...def.path]).map((p) => p.replaceAll("$ns", namespace).replaceAll("$family", family));
}

/** A declaration with the namespace and family words filled in: what is mounted and described. */
export function resolveRoute(def: RouteDef, namespace: string, family = "own") {
  return {
    ...def,
    paths: pathsOf(def, namespace, family),
    files: def.files?.map((f) => f.replaceAll("$ns", namespace)),
    body: typeof def.body === "function" ? def.body(namespace) : def.body,
  };
}

/**
 * The route's auth: its operation's access (with what the route adds about REST requests) when it names
 * an operation declaring one, else its own declaration.
 */
export function authOf(def: Pick<RouteDef, "auth" | "operation">): RouteAuth {
  const access = def.operation?.access;
  if (!access) return def.auth as RouteAuth;
  if (access === "public" || !def.auth) return access;
  return { ...access, ...(def.auth as SurfaceAccess) };
}

/** Whether the route's auth comes from its operation (for the count in scripts/dev/access-count.ts). */
export const derivesAuth = (def: Pick<RouteDef, "operation">) => !!def.operation?.access;

/** The start-up guard: an authenticated route must say which scopes it checks, once. */
export function assertRouteDeclared(def: RouteDef): void {
  const where = `${def.method} ${pathsOf(def, "$ns").join(", ")}`;
  if (def.paged) assertPagingDeclared(def, where);
  if (def.operation?.access && def.auth !== undefined) {
    // declared twice, the two could drift: the route may add only the REST switches
    const extra = def.auth === "public" ? ["public"] : Object.keys(def.auth).filter((k) => k !== "optional" && k !== "appToken");
    if (extra.length) throw new Error(`route ${where}: its operation declares the access; the route may add only optional/appToken, not ${extra.join(", ")}`);
  }
  const auth = authOf(def);
  if (auth === "public") return;
  if (typeof auth !== "object" || auth === null) throw new Error(`route ${where}: auth must be "public" or {scopes}, or its operation must declare its access`);
  const { scopes } = auth;
  if (scopes !== "any" && (!Array.isArray(scopes) || scopes.length === 0)) throw new Error(`route ${where} is authenticated but declares no scope check`);
}

/** A paged route's query declares the parameters its paging reads, so they are validated and described. */
function assertPagingDeclared(def: RouteDef, where: string): void {
  const shape = (def.query as { shape?: Record<string, unknown> } | undefined)?.shape ?? {};
  const missing = PAGING_PARAMS[def.paged!].filter((name) => !(name in shape));
  if (missing.length) throw new Error(`route ${where} is paged by ${def.paged} but its query does not declare ${missing.join(", ")}`);
}
