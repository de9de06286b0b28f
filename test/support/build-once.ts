// vitest globalSetup: brings dist/ up to date with the sources (a no-op when it is), so the processes
// tests spawn run the code under test as `npm start` would (test/support/built.ts).
import { execFileSync } from "node:child_process";
import { ROOT } from "./built.ts";

export default function setup() {
  execFileSync(process.execPath, ["scripts/prestart.mjs", "--no-admin"], { cwd: ROOT, stdio: "inherit" });
}
