// Reads the credentials an HTTP request carries: Bearer token (header or `access_token`), Basic,
// the `_<ns>_key` session cookie, and the admin token (`admin_token` or X-Admin-Token).
import type { Request } from "express";
import { parse as parseCookie, serialize } from "cookie";
import type { Settings } from "../config/env.ts";
import { SESSION_TTL_MS } from "../domain/auth/sessions.ts";
import type { Credentials } from "../domain/auth/authenticate.ts";

export const sessionCookieName = (namespace: string) => `_${namespace}_key`;

/** Set-Cookie value for a session token (an empty token with maxAge 0 clears it). */
export function sessionCookie(settings: Pick<Settings, "namespace" | "baseUrl">, token: string, maxAgeMs = SESSION_TTL_MS) {
  return serialize(sessionCookieName(settings.namespace), token, {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    secure: settings.baseUrl.startsWith("https:"),
    maxAge: Math.floor(maxAgeMs / 1000),
  });
}

export function credentialsOf(req: Request, namespace: string): Credentials {
  const creds: Credentials = {};
  const header = req.get("authorization") ?? "";
  const [scheme, value] = [header.slice(0, header.indexOf(" ")).toLowerCase(), header.slice(header.indexOf(" ") + 1).trim()];
  if (scheme === "bearer" && value) creds.bearer = value;
  else if (scheme === "basic" && value) {
    const decoded = Buffer.from(value, "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    if (colon > 0) creds.basic = { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
  }
  const queryToken = req.query?.access_token;
  if (!creds.bearer && typeof queryToken === "string" && queryToken) creds.bearer = queryToken;
  const adminToken = req.get("x-admin-token") ?? (typeof req.query?.admin_token === "string" ? req.query.admin_token : undefined);
  if (adminToken !== undefined) creds.adminToken = adminToken;
  const cookies = parseCookie(req.get("cookie") ?? "");
  const session = cookies[sessionCookieName(namespace)];
  if (session) creds.sessionToken = session;
  return creds;
}
