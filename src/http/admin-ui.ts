// Serves the built admin UI (web-admin/dist) at /admin: hashed assets cached for a year, index.html
// never cached (so a new build is picked up at once), and every other path under /admin answered with
// index.html so the single-page app's history-API routes survive a reload. No dev server at runtime.
import fs from "node:fs";
import path from "node:path";
import express, { type Router } from "express";
import { projectRoot } from "../project-root.ts";

export const adminUiDir = path.join(projectRoot, "web-admin/dist");

export function adminUi(dir = adminUiDir): Router {
  const router = express.Router();
  const index = path.join(dir, "index.html");
  router.use(
    "/assets",
    express.static(path.join(dir, "assets"), { index: false, fallthrough: false, immutable: true, maxAge: "365d" }),
  );
  router.use(express.static(dir, { index: false, setHeaders: (res) => res.set("Cache-Control", "no-cache") }));
  router.get(/.*/, (_req, res) => {
    if (!fs.existsSync(index)) return void res.status(503).type("text/plain").send("The admin UI is not built: run `npm run build:admin` (npm start does it).");
    res.set("Cache-Control", "no-cache");
    res.sendFile(index);
  });
  return router;
}
