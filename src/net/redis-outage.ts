// One log line per Redis outage, not one per failure. While Redis is away every connection of the
// process (the bus's two, BullMQ's queue and worker connections) fails each reconnection attempt and each
// command, and each failure is an 'error' event: logged one by one that was thousands of identical lines
// in minutes. The first failure is logged with its reason; the rest are counted, and the count is logged
// when a connection is ready again ("redis back after N failures in T s").
//
// One record per process: its connections all go to the instance's one Redis, so one outage is one line
// whichever connection notices first.

/** Errors that mean "Redis cannot be reached", not a bug in a command. */
const UNREACHABLE = /ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|ENOTFOUND|EAI_AGAIN|EPIPE|Connection is closed|Stream isn't writeable|enableOfflineQueue|MaxRetriesPerRequest|Command timed out/i;

/**
 * Failures just after a connection was ready again are stragglers of the outage that ended (a command
 * that failed while the connection was down, another connection's last attempt): they start a new outage
 * silently, announced only if failures go on past this long after the return.
 */
const QUIET_AFTER_RETURN_MS = 5_000;

let outage: { since: number; last: number; failures: number; announced: boolean } | null = null;
let backAt = 0;
let write: (message: string) => void = (message) => console.error(message);

/** Where the outage lines go (tests of this module; the server keeps stderr). */
export function setRedisOutageLog(log: (message: string) => void): void {
  write = log;
}

/**
 * Reports a Redis error of `source` (a connection's or a command's). A connection failure starts an outage
 * (logged) or counts in the one under way; any other error is logged as it is.
 */
export function redisFailed(source: string, error: Error): void {
  if (!UNREACHABLE.test(error.message)) return write(`${source}: ${error.message}`);
  const now = Date.now();
  // a straggler long past is no part of this outage
  if (!outage || (!outage.announced && now - outage.last >= QUIET_AFTER_RETURN_MS)) outage = { since: now, last: now, failures: 0, announced: false };
  outage.failures++;
  outage.last = now;
  if (!outage.announced && now - backAt >= QUIET_AFTER_RETURN_MS) {
    outage.announced = true;
    write(`redis unreachable (${source}: ${error.message}); further failures are counted until it is back`);
  }
}

/** A connection is ready: ends the outage under way, if any, with its count. */
export function redisReady(): void {
  if (!outage) return;
  const { since, failures, announced } = outage;
  outage = null;
  backAt = Date.now();
  if (announced) write(`redis back after ${failures} failure${failures === 1 ? "" : "s"} in ${Math.round((backAt - since) / 100) / 10} s`);
}
