// Builds the admin UI (web-admin/ → web-admin/dist) when the build is missing or older than its inputs,
// so `npm start` and `npm test` always serve the UI of the checked-out sources without rebuilding each time.
// The stamp is a hash of the inputs (sources, the GraphQL schema the documents are typed against, the
// lock file); `--force` rebuilds anyway.
import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const web = path.join(root, "web-admin");
const stamp = path.join(web, "dist", ".build-hash");

function files(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return files(p);
    return e.name === "graphql-env.d.ts" ? [] : [p];
  });
}

const inputs = [
  ...files(path.join(web, "src")),
  ...["index.html", "package.json", "tsconfig.json", "vite.config.ts"].map((f) => path.join(web, f)),
  path.join(root, "schema/schema.graphql"),
  path.join(root, "package-lock.json"),
].sort();
const hash = createHash("sha256");
for (const f of inputs) hash.update(path.relative(root, f)).update("\0").update(fs.readFileSync(f));
const digest = hash.digest("hex");

if (!process.argv.includes("--force") && fs.existsSync(stamp) && fs.readFileSync(stamp, "utf8") === digest && fs.existsSync(path.join(web, "dist/index.html"))) process.exit(0);
console.log("building the admin UI (web-admin/dist)…");
execFileSync("npm", ["run", "build", "--workspace", "web-admin", "--silent"], { cwd: root, stdio: "inherit" });
fs.writeFileSync(stamp, digest);
