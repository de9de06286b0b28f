// `npm start`: serve the instance with settings from the environment.
import { restoreNativeBuiltins } from "./kernel/native-builtins.ts"; // first: see there
// Everything else is imported dynamically, after native-builtins.ts has run: in the bundle that `npm start`
// runs (scripts/build-server.mjs) the packages a static import reaches are loaded before any of our
// own module bodies, so a static import here would let jsonld's polyfills in before native-builtins.ts saw
// the engine's functions.
const { loadSettings } = await import("./config/env.ts");
const settings = loadSettings();
// the embedded database starts while the server's modules load (src/db/pglite-open.ts)
(await import("./db/pglite-open.ts")).startEmbeddedDatabase(settings.databaseUrl);
const { startServer } = await import("./server.ts");
const { releaseMemoryWhenIdle } = await import("./kernel/idle-memory.ts");

restoreNativeBuiltins();
const server = await startServer(settings);
// the heap a burst of load grew is given back once the process is quiet (src/kernel/idle-memory.ts). What the
// start-up left is not compacted: that cost 0.1–0.4 s before the first answer, and on Node 24 it left the
// RSS ~30 MB higher, not lower (docs/performance.md, "Cold start, third round")
releaseMemoryWhenIdle();
let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, async () => {
    if (stopping) process.exit(1);
    stopping = true;
    // the whole shutdown takes at most SHUTDOWN_GRACE_MS, whatever the database and Redis are doing: what
    // still waits on them then (a statement on a half-open connection, a Redis that does not answer) is
    // abandoned. Nothing is lost by it: an answered write was committed before its answer, jobs are leased
    exitWithin(settings.shutdownGraceMs, () => server.pendingShutdown());
    await server.close();
    process.exit(0);
  });
}

function exitWithin(ms: number, pending: () => string) {
  setTimeout(() => {
    console.error(`shutdown: still waiting for ${pending()} after ${ms} ms (SHUTDOWN_GRACE_MS); exiting`);
    process.exit(0);
  }, ms).unref();
}
