// The kept answers of GraphQL queries (src/graphql/kept-queries.ts keeps them in the page cache), sent before
// GraphQL is even reached: a query whose exact text, variables and viewer (with its token's scopes) were answered
// and kept is answered again from the bytes kept. Yoga's own work on a request (its request adaptation, the
// parser cache, validation, the plugins' hooks, the result's serialisation) cost five times a REST page's
// (issue 17: GraphQL home within 1.5× of REST home). Anything else (a miss, a GET, an `Accept` that asks for
// `application/graphql-response+json`, a credential that does not authenticate) goes on to yoga unchanged.
import type { RequestHandler } from "express";
import type { Ctx, Services } from "../domain/context.ts";
import type { Credentials } from "../domain/auth/authenticate.ts";
import { credentialsOf } from "./credentials.ts";
import { pageCacheOf } from "./routes/page-cache.ts";

/** The key of a query sent as this JSON body by this viewer (fields check the token's scopes). */
export function graphqlKey(ctx: Pick<Ctx, "viewer">, body: string): string {
  return `graphql\u0000${ctx.viewer.scopes.join(" ")}\u0000${body}`;
}

/** Whether yoga would answer `application/json` for this Accept header (it prefers graphql-response+json when named). */
const answersJson = (accept: string | undefined) => !accept || !accept.includes("application/graphql-response+json");

export function keptGraphqlAnswers(services: Services, namespace: string, viewerCtx: (creds: Credentials, clientIp?: string) => Promise<Ctx>): RequestHandler {
  return (req, res, next) => {
    const pages = pageCacheOf(services);
    const json = String(req.headers["content-type"] ?? "").startsWith("application/json");
    if (!pages?.enabled || req.method !== "POST" || typeof req.body !== "string" || !json || !answersJson(req.headers.accept)) return next();
    viewerCtx(credentialsOf(req, namespace), req.ip).then(
      (ctx) => {
        const kept = pages.get(ctx, graphqlKey(ctx, req.body));
        if (!kept) return next();
        res.status(200).set("Content-Type", "application/json; charset=utf-8").send(kept.body);
      },
      () => next(), // yoga answers a credential that fails in its own words
    );
  };
}
