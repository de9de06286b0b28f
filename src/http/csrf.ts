// CSRF protection for the cookie session (the admin UI's) on the two APIs a browser page calls with it:
// POST /graphql and POST /trpc. The session cookie is SameSite=Lax already; on top of that:
//  - a request whose Origin names another site is refused, whatever it carries;
//  - a request authenticated by the session cookie alone (no Authorization header, no admin token) must
//    carry the custom `X-CSRF-Protection` header, which a cross-site form or simple request cannot send
//    without a CORS preflight that this server never grants (OWASP "custom request header" defence).
// Token clients (Authorization: Bearer) are not affected: a browser never attaches those on its own.
import type { RequestHandler } from "express";
import { parse as parseCookie } from "cookie";
import { sessionCookieName } from "../../compat-rest/credentials.ts";

export const CSRF_HEADER = "x-csrf-protection";

/** Whether `origin` (an Origin header) is this request's own host. */
function sameOrigin(origin: string, host: string | undefined): boolean {
  try {
    return !!host && new URL(origin).host === host;
  } catch {
    return false;
  }
}

export function csrfGuard(namespace: string): RequestHandler {
  const cookieName = sessionCookieName(namespace);
  return (req, res, next) => {
    if (req.method === "GET" || req.method === "HEAD" || req.method === "OPTIONS") return next();
    const origin = req.get("origin");
    if (origin && origin !== "null" && !sameOrigin(origin, req.get("host"))) return void res.status(403).json({ error: "Cross-site request refused." });
    const cookieSession = !!parseCookie(req.get("cookie") ?? "")[cookieName];
    const otherCredentials = !!req.get("authorization") || !!req.get("x-admin-token") || !!req.get("x-ctl-secret");
    if (cookieSession && !otherCredentials && !req.get(CSRF_HEADER)) return void res.status(403).json({ error: `Missing ${CSRF_HEADER} header (CSRF protection).` });
    next();
  };
}

/** Whether a form post comes from a page of another site (its Origin names another host): such posts are refused. */
export function crossSiteForm(origin: string | undefined, host: string | undefined): boolean {
  return !!origin && origin !== "null" && !sameOrigin(origin, host);
}

/** Whether a WebSocket upgrade may use the session cookie: only from a page of this origin. */
export function sameOriginUpgrade(origin: string | undefined, host: string | undefined): boolean {
  return !origin || sameOrigin(origin, host);
}
