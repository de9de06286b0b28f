// vitest globalSetup: brings dist/ up to date with the sources (a no-op when it is), so the processes
// tests spawn run the code under test as `npm start` would (test/support/built.ts); and builds the migrated
// template database and PGlite snapshot the test databases start from (databases.ts), once per change of
// the migrations, before the workers that would otherwise queue for them.
import { execFileSync } from "node:child_process";
import { ROOT } from "./built.ts";
import { prepareTestDatabases } from "./databases.ts";

export default async function setup() {
  execFileSync(process.execPath, ["scripts/prestart.mjs", "--no-admin"], { cwd: ROOT, stdio: "inherit" });
  await prepareTestDatabases();
}
