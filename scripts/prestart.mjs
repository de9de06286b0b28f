// What `npm test` runs before the tests and `npm run ctl` before the CLI (with --no-admin; `npm start` runs the
// same checks in its own process: scripts/start.mjs): generate the Prisma client, build the admin UI and build the server
// (dist/), each only when its inputs changed. One process for the three checks: as three `node` commands
// they cost about 0.3 s more of every start (a Node process each, with what NODE_OPTIONS preloads), for
// nothing when all is fresh (docs/performance.md, "Cold start, third round"). Each step is still its own
// script (`npm run generate`, `npm run build:admin`, `npm run build:server`).
import { buildAdmin } from "./build-admin.mjs";
import { buildServer } from "./build-server.mjs";
import { generate } from "./generate.mjs";

generate(); // first: the server's build reads the generated client
if (!process.argv.includes("--no-admin")) buildAdmin();
await buildServer();
