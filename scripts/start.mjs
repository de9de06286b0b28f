// `npm start`: the checks of scripts/prestart.mjs (the Prisma client, the admin UI, the server's dist/, each built
// only when its inputs changed), then the built server (dist/main.js), all in this one process. As npm's
// `prestart` the checks were a node process of their own before the server's: about 0.2 s more of every start
// (issue 17: ready in under 3 s; docs/performance.md, "Eleventh round").
//
// Only node's built-in modules are loaded before dist/main.js, which must see the engine's built-ins before any
// package does (src/kernel/native-builtins.ts). The builds themselves run in child processes (the Prisma
// generator and Vite already did; the server's build here too), so that esbuild is never loaded into the server.
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { buildAdmin } from "./build-admin.mjs";
import { serverBuildIsFresh } from "./build-server.mjs";
import { generate } from "./generate.mjs";

generate(); // first: the server's build reads the generated client
buildAdmin();
if (!serverBuildIsFresh()) execFileSync(process.execPath, [fileURLToPath(new URL("./build-server.mjs", import.meta.url))], { stdio: "inherit" });
await import("../dist/main.js");
