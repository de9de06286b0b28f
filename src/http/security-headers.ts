// Security headers on everything the server answers (docs/security.md): no MIME sniffing, no referrer
// leaving the site (reset and confirmation links carry tokens in their paths), no framing of our pages
// (the OAuth consent page must not be clickjacked); a strict Content-Security-Policy for the admin UI,
// and a sandbox for served user files.
import type { RequestHandler } from "express";

/** The admin UI (a built single-page app): its own scripts and styles, the API on the same origin. */
export const ADMIN_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https:",
  "media-src 'self' https:",
  "font-src 'self' data:",
  "connect-src 'self' ws: wss:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

/** Uploaded files and emoji: never run as a document of our origin, even if a browser renders one. */
export const USER_FILE_CSP = "default-src 'none'; sandbox";

export const securityHeaders: RequestHandler = (req, res, next) => {
  res.set({ "X-Content-Type-Options": "nosniff", "Referrer-Policy": "same-origin", "X-Frame-Options": "DENY" });
  if (req.path === "/admin" || req.path.startsWith("/admin/")) res.set("Content-Security-Policy", ADMIN_CSP);
  else if (/^\/(media|emoji\/packs)\//.test(req.path)) res.set("Content-Security-Policy", USER_FILE_CSP);
  else res.set("Content-Security-Policy", "frame-ancestors 'none'");
  next();
};
