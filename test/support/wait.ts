// The one polling helper of the tests. Anything asynchronous a test waits for (a row, a delivery, a job, a
// listener, a process) is awaited through `waitFor`, so a timeout always says what was awaited, for how
// long, and what the check last saw. test/contracts/fixed-waits.unit.test.ts keeps other loops out.

export interface WaitOptions {
  /** how long before giving up (sized for a loaded 2-core machine) */
  timeoutMs?: number;
  /** the pause between two checks */
  intervalMs?: number;
}

/**
 * Thrown by a check to stop waiting at once (a process the test waits on has exited): any other error a
 * check throws counts as "not yet" (a server still restarting refuses connections) and is reported on timeout.
 */
export class StopWaiting extends Error {}

/** what a check's truthy answer can be (`ready && rows` gives the rows) */
export type Truthy<T> = Exclude<T, null | undefined | false | 0 | "">;

/**
 * Calls `check` until it returns something truthy and resolves with that value. On timeout it throws an Error
 * naming `what` (a function is called then, so it may describe the state at that moment), the time waited and
 * the check's last value or error.
 */
export async function waitFor<T>(check: () => T | Promise<T>, what: string | (() => string), { timeoutMs = 20_000, intervalMs = 100 }: WaitOptions = {}): Promise<Truthy<T>> {
  const started = Date.now();
  let last: { value: unknown } | { error: unknown } = { value: undefined };
  for (;;) {
    try {
      const value = await check();
      if (value) return value as Truthy<T>;
      last = { value };
    } catch (error) {
      if (error instanceof StopWaiting) throw error;
      last = { error };
    }
    if (Date.now() - started >= timeoutMs) {
      const description = typeof what === "function" ? what() : what;
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${description}; ${describeLast(last)}`);
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

function describeLast(last: { value: unknown } | { error: unknown }): string {
  if ("error" in last) return `the check last threw: ${last.error instanceof Error ? last.error.message : String(last.error)}`;
  let shown: string;
  try {
    shown = last.value === undefined ? "undefined" : JSON.stringify(last.value);
  } catch {
    shown = String(last.value);
  }
  return `the check last returned ${shown.length > 1000 ? `${shown.slice(0, 1000)}…` : shown}`;
}
