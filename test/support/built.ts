// What `npm start` and `npm run ctl` run: the server and the CLI built ahead of time into dist/ by
// scripts/build-server.mjs (test/support/build-once.ts runs it before the first test file). Tests that
// start real processes start these, so they test what operators run, not the TypeScript sources.
import path from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
/** `node <serverEntry>` is `npm start` without its build step */
export const serverEntry = path.join(ROOT, "dist/main.js");
/** `node <ctlEntry> …` is `npm run ctl -- …` without its build step */
export const ctlEntry = path.join(ROOT, "dist/ctl.js");
