// A mistake in how the server or ctl was started (environment, data directory, port, database): the
// process prints its message — one line that says what is wrong and how to fix it — and exits with 1,
// without a stack trace (LOG_LEVEL=debug prints the trace too). src/main.ts, src/cli/ctl.ts.
export class StartupError extends Error {
  override name = "StartupError";
}

/** Prints a start-up failure the way an operator wants to read it; returns the exit code. */
export function reportStartupFailure(error: unknown, logLevel: string | undefined): number {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof StartupError) console.error(`error: ${message}`);
  else console.error(`error: the server could not start: ${message.split("\n").find((l) => l.trim()) ?? message}\n(LOG_LEVEL=debug prints the details)`);
  if (logLevel === "debug" && error instanceof Error) console.error(error.stack);
  return 1;
}
