// The polling helper's contract: the first truthy value, errors as "not yet", and a timeout that says what
// was awaited, how long, and what the check last gave.
import { describe, expect, test } from "vitest";
import { StopWaiting, waitFor } from "./wait.ts";

describe("waitFor", () => {
  test("resolves with the check's first truthy value", async () => {
    let calls = 0;
    const value = await waitFor(() => (++calls >= 3 ? { calls } : null), "the third call", { intervalMs: 1 });
    expect(value).toEqual({ calls: 3 });
  });

  test("an error is 'not yet': the wait goes on", async () => {
    let calls = 0;
    const value = await waitFor(async () => {
      if (++calls < 3) throw new Error("refused");
      return "up";
    }, "the server", { intervalMs: 1 });
    expect(value).toBe("up");
  });

  test("on timeout the message names what, how long and the last value", async () => {
    let n = 0;
    const error = await waitFor(() => (n++, 0), "the row", { timeoutMs: 30, intervalMs: 5 }).catch((e: Error) => e);
    expect((error as Error).message).toBe("timed out after 30 ms waiting for the row; the check last returned 0");
    const described = await waitFor(() => false, () => `state ${n}`, { timeoutMs: 10, intervalMs: 5 }).catch((e: Error) => e.message);
    expect(described).toMatch(/^timed out after 10 ms waiting for state \d+; the check last returned false$/);
  });

  test("on timeout the message carries the last error", async () => {
    const message = await waitFor(() => Promise.reject(new Error("ECONNREFUSED")), "the peer", { timeoutMs: 10, intervalMs: 5 }).catch((e: Error) => e.message);
    expect(message).toBe("timed out after 10 ms waiting for the peer; the check last threw: ECONNREFUSED");
  });

  test("StopWaiting ends the wait at once", async () => {
    let calls = 0;
    const error = await waitFor(() => {
      calls++;
      throw new StopWaiting("the worker exited");
    }, "a message", { timeoutMs: 10_000 }).catch((e: Error) => e);
    expect(error).toBeInstanceOf(StopWaiting);
    expect(calls).toBe(1);
  });
});
