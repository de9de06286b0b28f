// The OpenAPI description, printed from the same route declarations that validate requests.
import { createDocument } from "zod-openapi";
import { z } from "zod";
import type { Settings } from "../../config/env.ts";
import { SOFTWARE_VERSION } from "../../domain/instance/instance.ops.ts";
import { withLengthLimits } from "../../domain/input-limits.ts";
import { HTTP_LIMITS } from "../boundary.ts";
import { authOf, resolveRoute, type RouteDef } from "./route.ts";
import type { Words } from "../../views/schemas/view.ts";

const FORM_TYPES = ["application/json", "application/x-www-form-urlencoded", "multipart/form-data"] as const;

function securityOf(def: RouteDef) {
  const auth = authOf(def);
  if (auth === "public") return [];
  const scopes = auth.scopes === "any" ? [] : [...auth.scopes];
  const required = [{ oauth: scopes }, { bearer: [] }, { basic: [] }, { session: [] }];
  return auth.optional ? [{}, ...required] : required;
}

function bodySchema(def: ReturnType<typeof resolveRoute>) {
  if (!def.files?.length) return def.body!;
  const files = Object.fromEntries(def.files.map((f) => [f, z.string().meta({ format: "binary" })]));
  return def.body ? z.object(files).partial().and(def.body) : z.object(files).partial();
}

export function openApiDocument(routes: readonly RouteDef[], settings: Pick<Settings, "namespace" | "family" | "baseUrl">) {
  const paths: Record<string, Record<string, unknown>> = {};
  const words: Words = { namespace: settings.namespace, family: settings.family };
  for (const declared of routes) {
    const resolved = resolveRoute(declared, settings.namespace, settings.family);
    // the length caps the mounted route applies (src/http/routes/mount.ts) are part of the contract
    const limited = <S extends z.ZodType | undefined>(s: S) => (s ? withLengthLimits(s) : s) as S;
    const def = { ...resolved, params: limited(resolved.params), query: limited(resolved.query), body: limited(resolved.body) };
    const success = def.view ? def.view(words) : def.response?.schema;
    for (const path of def.paths) {
      const oaPath = path.replace(/:([A-Za-z_]+)/g, "{$1}");
      const operation: Record<string, unknown> = {
        summary: def.summary,
        tags: def.tags,
        security: securityOf(def),
        requestParams: { ...(def.params ? { path: def.params } : {}), ...(def.query ? { query: def.query } : {}) },
        responses: {
          [String(def.status ?? 200)]: {
            description: def.response?.description ?? "Success",
            // a view in another JSON media type (a JRD, the web manifest) is described under that type
            ...(success ? { content: { [def.produces ?? "application/json"]: { schema: success } } } : {}),
            ...(def.produces && !success ? { content: { [def.produces]: { schema: { type: "string", ...(/^(text|application\/(xml|atom|rss|xrd))/.test(def.produces) ? {} : { format: "binary" }) } } } } : {}),
            ...(def.paged ? { headers: { Link: { $ref: `#/components/headers/${LINK_HEADER_IDS[def.paged]}` } } } : {}),
            ...(def.response?.schema ? { content: { "application/json": { schema: def.response.schema } } } : {}),
          },
          ...(def.rateLimit ? { "429": { description: `Rate limited (runtime setting rate_limit.${def.rateLimit}); Retry-After says when to retry`, content: { "application/json": { schema: errorSchema } } } } : {}),
          default: { description: "Error", content: { "application/json": { schema: errorSchema } } },
        },
      };
      if (def.body || def.files?.length) {
        const schema = bodySchema(def);
        operation.requestBody = { content: Object.fromEntries(FORM_TYPES.map((t) => [t, { schema }])) };
        // the route's body limit (JSON and urlencoded, after decompression), for clients and the fuzz test
        operation["x-body-limit"] = Math.min(def.bodyLimit ?? HTTP_LIMITS.bodyBytes, HTTP_LIMITS.maxBodyBytes);
      }
      (paths[oaPath] ??= {})[def.method.toLowerCase()] = operation;
    }
  }
  return createDocument(
    {
      openapi: "3.1.0",
      info: { title: "Client, own and admin API", version: SOFTWARE_VERSION },
      servers: [{ url: settings.baseUrl }],
      components: {
        headers: LINK_HEADERS,
        securitySchemes: {
          oauth: {
            type: "oauth2",
            flows: {
              authorizationCode: { authorizationUrl: "/oauth/authorize", tokenUrl: "/oauth/token", scopes: { read: "read", write: "write", follow: "follow", push: "push", admin: "admin" } },
              password: { tokenUrl: "/oauth/token", scopes: {} },
            },
          },
          bearer: { type: "http", scheme: "bearer" },
          basic: { type: "http", scheme: "basic" },
          session: { type: "apiKey", in: "cookie", name: `_${settings.namespace}_key` },
        },
      },
      paths: paths as any,
    },
    { reused: "ref", allowEmptySchema: { transform: true, pipe: true } as any },
  );
}

/** The Link header of paged routes (src/http/routes/pagination.ts); the paging parameters are in each route's query. */
const LINK_HEADER_IDS = { id: "KeysetLink", offset: "OffsetLink" } as const;
const LINK_HEADERS = {
  KeysetLink: {
    description: 'Keyset paging: `<…max_id=…>; rel="next"` (older items), `<…min_id=…>; rel="prev"` (newer ones); absent on an empty page. The other query parameters carry over.',
    schema: { type: "string" },
  },
  OffsetLink: {
    description: 'Offset paging: `<…offset=…>; rel="next"` when the page was full. The other query parameters carry over.',
    schema: { type: "string" },
  },
} as const;

const errorSchema = z.object({ error: z.string() }).meta({ id: "Error" });
