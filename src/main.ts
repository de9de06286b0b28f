// `npm start`: serve the instance with settings from the environment.
import { restoreNativeBuiltins } from "./kernel/native-builtins.ts"; // first: see there
// Everything else is imported dynamically, after native-builtins.ts has run: in the bundle that `npm start`
// runs (scripts/build-server.mjs) the packages a static import reaches are loaded before any of our
// own module bodies, so a static import here would let jsonld's polyfills in before native-builtins.ts saw
// the engine's functions.
const { reportStartupFailure } = await import("./kernel/startup-error.ts");
const { loadSettings } = await import("./config/env.ts");
const { prepareDataDir, holdDataDir } = await import("./kernel/data-dir.ts");
const { ensurePortFree } = await import("./net/port-free.ts");
const { isPostgres, startEmbeddedDatabase } = await import("./db/pglite-open.ts");

// Start-up mistakes (environment, DATA_DIR, a busy port, the database) end the process with one line that
// says what to fix, not a stack trace (src/kernel/startup-error.ts); the cheap checks come before the
// embedded database starts and the server's modules load.
const { settings, releaseDataDir } = await (async () => {
  const settings = loadSettings();
  prepareDataDir(settings.dataDir);
  // held before the embedded database opens: a second process on its DATA_DIR stops here (with PostgreSQL,
  // processes may share DATA_DIR's files: docs/deployment.md)
  const releaseDataDir = isPostgres(settings.databaseUrl) ? () => {} : holdDataDir(settings.dataDir, "server");
  await ensurePortFree(settings.host, settings.port);
  return { settings, releaseDataDir };
})().catch((error) => process.exit(reportStartupFailure(error, process.env.LOG_LEVEL)));
// the embedded database starts while the server's modules load (src/db/pglite-open.ts)
startEmbeddedDatabase(settings.databaseUrl);
const { startServer } = await import("./server.ts");
const { releaseMemoryWhenIdle } = await import("./kernel/idle-memory.ts");

restoreNativeBuiltins();
const server = await startServer(settings).catch((error) => process.exit(reportStartupFailure(error, settings.logLevel)));
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
    releaseDataDir();
    process.exit(0);
  });
}

function exitWithin(ms: number, pending: () => string) {
  setTimeout(() => {
    console.error(`shutdown: still waiting for ${pending()} after ${ms} ms (SHUTDOWN_GRACE_MS); exiting`);
    process.exit(0);
  }, ms).unref();
}
