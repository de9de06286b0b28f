// Serves the frontends an admin installed (`POST {ns}/admin/frontends/install` unpacks them into
// DATA_DIR/frontends/<name>/<ref>) as the family does: `frontends.primary` at `/`, `frontends.admin`
// at `/<ns>/admin`. Files are served as they are; any other GET a browser makes that no route took
// (the single-page app's own paths, `/registration/<token>`, `/@alice`) gets the frontend's index.html.
// Mounted after every API route, so nothing the server answers is shadowed. A browser whose
// `preferred_frontend` cookie names another installed frontend ("name/ref", the later family's
// frontend switcher) is served that one instead of the primary.
import fs from "node:fs";
import path from "node:path";
import express, { type RequestHandler } from "express";
import { parse as parseCookie } from "cookie";
import type { Services } from "../domain/context.ts";
import { pickableFrontendDir, PREFERRED_FRONTEND_COOKIE } from "../domain/frontends/preferred-frontend.ops.ts";

const SAFE_SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** The folder of the configured frontend, when it is configured and installed. */
export function frontendDir(services: Pick<Services, "settings" | "config">, which: "primary" | "admin"): string | null {
  const chosen = services.config.get("frontends", which);
  const name = typeof chosen.name === "string" ? chosen.name : "";
  const ref = typeof chosen.ref === "string" ? chosen.ref : "";
  if (!SAFE_SEGMENT.test(name) || !SAFE_SEGMENT.test(ref)) return null;
  const dir = path.join(services.settings.dataDir, "frontends", name, ref);
  return fs.existsSync(path.join(dir, "index.html")) ? dir : null;
}

export function installedFrontend(services: Services, which: "primary" | "admin"): RequestHandler {
  const statics = new Map<string, RequestHandler>();
  return (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const preferred = which === "primary" ? pickableFrontendDir(services, parseCookie(req.get("cookie") ?? "")[PREFERRED_FRONTEND_COOKIE]) : null;
    const dir = preferred ?? frontendDir(services, which);
    if (!dir) return next();
    // what is served depends on the cookie: caches must not hand one browser's choice to another
    if (which === "primary") res.vary("Cookie");
    let serve = statics.get(dir);
    if (!serve) statics.set(dir, (serve = express.static(dir, { index: false, dotfiles: "deny" })));
    serve(req, res, () => {
      if (req.accepts(["html", "json"]) !== "html") return next();
      res.set("Cache-Control", "no-cache").sendFile(path.join(dir, "index.html"));
    });
  };
}
