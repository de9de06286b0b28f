// Runs `prisma generate` only when prisma/schema.prisma changed since the last run,
// so `npm start`, `npm test` and `npm run ctl` can all depend on a generated client cheaply.
// `node scripts/generate.mjs [--force]`, or `generate()` from scripts/prestart.mjs.
import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Generates the client when the schema changed (or with `force`); returns whether it ran. */
export function generate({ force = false } = {}) {
  const schema = fs.readFileSync(path.join(root, "prisma/schema.prisma"));
  const hash = createHash("sha256").update(schema).digest("hex");
  const stamp = path.join(root, "src/generated/.schema-hash");
  if (!force && fs.existsSync(stamp) && fs.readFileSync(stamp, "utf8") === hash) return false;
  execFileSync("npx", ["prisma", "generate"], {
    cwd: root,
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? "./scripts/no-schema-engine.sh", PRISMA_HIDE_UPDATE_MESSAGE: "1" },
  });
  fs.writeFileSync(stamp, hash);
  return true;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) generate({ force: process.argv.includes("--force") });
