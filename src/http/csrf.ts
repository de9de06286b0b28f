// CSRF protection for the cookie session (the admin UI's) on the two APIs a browser page calls with it:
// POST /graphql and POST /trpc. The session cookie is SameSite=Lax already; on top of that:
//  - a request whose Origin names another site is refused, whatever it carries;
//  - a request authenticated by the session cookie alone (no Authorization header, no admin token) must
//    carry the custom `X-CSRF-Protection` header, which a cross-site form or simple request cannot send
//    without a CORS preflight that this server never grants (OWASP "custom request header" defence).
// Token clients (Authorization: Bearer) are not affected: a browser never attaches those on its own.
import crypto from "node:crypto";
import type { Request, RequestHandler, Response } from "express";
import { parse as parseCookie, serialize } from "cookie";
import { credentialsOf, sessionCookieName } from "./credentials.ts";
import { safeEqual } from "../domain/auth/secrets.ts";

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

/**
 * Every other surface (REST, the OAuth and account forms, the admin UI's REST calls) accepts the session
 * cookie too: an unsafe request (POST, PUT, PATCH, DELETE) that the cookie alone authenticates must come
 * from this origin. A browser says where a request comes from: `Origin` (every current browser sends it on
 * cross-origin form posts and fetches), else `Sec-Fetch-Site`. Refused with 403: an `Origin` of another
 * origin (or `null`: sandboxed frames, data: pages), or `Sec-Fetch-Site` other than `same-origin` / `none`.
 * A request with neither header is not a current browser's (the family's choice: Pleroma and Akkoma check
 * nothing on their API and rely on the SameSite=Lax cookie, which browsers too old to send `Origin` honour
 * too), so it passes. Requests with a token, Basic or the admin token are not affected: a browser never
 * attaches those on its own. docs/security.md "CSRF".
 */
export function sessionCsrfGuard(namespace: string, baseUrl: string): RequestHandler {
  const publicHost = new URL(baseUrl).host;
  return (req, res, next) => {
    if (req.method === "GET" || req.method === "HEAD" || req.method === "OPTIONS") return next();
    const creds = credentialsOf(req, namespace);
    if (!creds.sessionToken || creds.bearer || creds.basic || creds.adminToken !== undefined) return next();
    const origin = req.get("origin");
    const site = req.get("sec-fetch-site");
    const allowed =
      origin !== undefined
        ? sameOrigin(origin, req.get("host")) || sameOrigin(origin, publicHost)
        : site !== undefined
          ? site === "same-origin" || site === "none"
          : true;
    if (!allowed) return void res.status(403).json({ error: "Cross-site request refused." });
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

// HTML forms of server-rendered pages that change what a browser is given (the frontend switcher):
// a double-submit token. The page sets a random `form_csrf` cookie (HttpOnly, SameSite=Strict) and puts
// the same value in a hidden field; the POST must carry both, equal, and no foreign Origin. Another
// site can make a browser post the form but can neither read the cookie nor set it for this host.
export const FORM_CSRF_COOKIE = "form_csrf";
export const FORM_CSRF_FIELD = "_csrf_token";

/** The browser's form token, minted and set as a cookie when it has none yet. */
export function formCsrfToken(req: Request, res: Response, secure: boolean): string {
  const existing = parseCookie(req.get("cookie") ?? "")[FORM_CSRF_COOKIE];
  if (existing && /^[A-Za-z0-9_-]{32,}$/.test(existing)) return existing;
  const token = crypto.randomBytes(24).toString("base64url");
  res.append("Set-Cookie", serialize(FORM_CSRF_COOKIE, token, { httpOnly: true, sameSite: "strict", path: "/", secure }));
  return token;
}

/** Whether a form POST carries the token its cookie holds and comes from no other origin. */
export function formCsrfValid(req: Request, submitted: unknown): boolean {
  const origin = req.get("origin");
  if (origin && origin !== "null" && !sameOrigin(origin, req.get("host"))) return false;
  const cookie = parseCookie(req.get("cookie") ?? "")[FORM_CSRF_COOKIE];
  return typeof submitted === "string" && !!cookie && submitted.length > 0 && safeEqual(submitted, cookie);
}
