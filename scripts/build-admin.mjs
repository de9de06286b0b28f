// Builds the admin UI (web-admin/ → web-admin/dist) when the build is missing or older than its inputs,
// so `npm start` and `npm test` always serve the UI of the checked-out sources without rebuilding each time.
// The stamp is a hash of the inputs (sources, the GraphQL schema the documents are typed against, the
// lock file); `--force` rebuilds anyway. `node scripts/build-admin.mjs [--force]`, or `buildAdmin()` from
// scripts/prestart.mjs.
import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const web = path.join(root, "web-admin");
const stamp = path.join(web, "dist", ".build-hash");

function files(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return files(p);
    return e.name === "graphql-env.d.ts" ? [] : [p];
  });
}

/** Builds the UI when its inputs changed (or with `force`); returns whether it ran. */
export function buildAdmin({ force = false } = {}) {
  const inputs = [
    ...files(path.join(web, "src")),
    ...["index.html", "package.json", "tsconfig.json", "vite.config.ts"].map((f) => path.join(web, f)),
    path.join(root, "schema/schema.graphql"),
    path.join(root, "package-lock.json"),
  ].sort();
  const hash = createHash("sha256");
  for (const f of inputs) hash.update(path.relative(root, f)).update("\0").update(fs.readFileSync(f));
  const digest = hash.digest("hex");

  if (!force && fs.existsSync(stamp) && fs.readFileSync(stamp, "utf8") === digest && fs.existsSync(path.join(web, "dist/index.html"))) return false;
  console.log("building the admin UI (web-admin/dist)…");
  execFileSync("npm", ["run", "build", "--workspace", "web-admin", "--silent"], { cwd: root, stdio: "inherit" });
  fs.writeFileSync(stamp, digest);
  return true;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) buildAdmin({ force: process.argv.includes("--force") });
