// Shared helpers of the relationships test files: JSON requests, bus events.
import { expect } from "vitest";
import { newId } from "../../src/db/ids.ts";
import type { BusEvents } from "../../src/realtime/bus.ts";
import type { User } from "../support/actors.ts";
import type { TestServer } from "../support/server.ts";
import { waitFor } from "../support/wait.ts";

// users with tokens come from the shared harness (test/support/actors.ts); re-exported for these files
export { user, type User } from "../support/actors.ts";

export function remoteAccount(server: TestServer, nickname: string, domain: string) {
  return server.services.db.account.create({
    data: { id: newId(), nickname: `${nickname}@${domain}`, domain, local: false, apId: `https://${domain}/users/${nickname}` },
  });
}

/** A request as `who`; resolves to status, body and headers. */
export async function call(server: TestServer, who: User | null, method: string, path: string, form?: Record<string, string | string[]>) {
  const res = await server.fetch(path, { method, headers: who ? who.auth : {}, ...(form ? { form } : {}) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
}


type FollowEvent = BusEvents["follow_relationships_update"][0];

/** Collects follow_relationships_update events from the bus until stopped. */
export async function followEvents(server: TestServer) {
  const events: FollowEvent[] = [];
  const iterator = server.services.bus.subscribe("follow_relationships_update")[Symbol.asyncIterator]();
  void (async () => {
    for (;;) {
      const next = await iterator.next();
      if (next.done) return;
      events.push(next.value);
    }
  })();
  // no wait needed: the in-process bus adds its listener on the iterator's first next(), called above
  return {
    events,
    /** waits for `n` events and returns them */
    async take(n: number) {
      await waitFor(() => events.length >= n, () => `${n} follow_relationships_update events (${events.length} so far)`, { timeoutMs: 5_000 });
      return events.splice(0, n);
    },
    /**
     * Publishes a sentinel event and waits for it, then answers (and removes) the events that came before it:
     * the bus delivers in publish order, and the follow operations publish before they answer, so an event
     * a finished request published is among them. `[]` shows that nothing was published.
     */
    async untilSentinel() {
      const sentinel: FollowEvent = { state: "follow_reject", follower: { id: "sentinel", follower_count: 0, following_count: 0 }, following: { id: "sentinel", follower_count: 0, following_count: 0 } };
      server.services.bus.publish("follow_relationships_update", sentinel);
      await waitFor(() => events.some((e) => e.follower.id === "sentinel"), "the sentinel event", { timeoutMs: 5_000, intervalMs: 10 });
      const at = events.findIndex((e) => e.follower.id === "sentinel");
      return events.splice(0, at + 1).slice(0, at);
    },
    stop: () => iterator.return?.(),
  };
}

/** The relationship fields every test checks, with defaults for "nothing between us". */
export function rel(id: string, fields: Record<string, unknown> = {}) {
  return {
    id,
    following: false,
    showing_reblogs: true,
    notifying: false,
    followed_by: false,
    blocking: false,
    blocked_by: false,
    muting: false,
    muting_notifications: false,
    subscribing: false,
    requested: false,
    requested_by: false,
    domain_blocking: false,
    endorsed: false,
    note: "",
    ...fields,
  };
}

export function expectLink(headers: Headers, params: { max_id: string; min_id: string }) {
  const link = headers.get("link") ?? "";
  expect(link).toContain(`max_id=${params.max_id}>; rel="next"`);
  expect(link).toContain(`min_id=${params.min_id}>; rel="prev"`);
}
