// Runs `prisma generate` only when prisma/schema.prisma changed since the last run,
// so `npm start`, `npm test` and `npm run ctl` can all depend on a generated client cheaply.
import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import fs from "node:fs";

const schema = fs.readFileSync("prisma/schema.prisma");
const hash = createHash("sha256").update(schema).digest("hex");
const stamp = "src/generated/.schema-hash";
if (fs.existsSync(stamp) && fs.readFileSync(stamp, "utf8") === hash && !process.argv.includes("--force")) process.exit(0);
execFileSync("npx", ["prisma", "generate"], {
  stdio: ["ignore", "ignore", "inherit"],
  env: { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? "./scripts/no-schema-engine.sh", PRISMA_HIDE_UPDATE_MESSAGE: "1" },
});
fs.writeFileSync(stamp, hash);
