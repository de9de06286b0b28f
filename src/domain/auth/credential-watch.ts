// Live connections (streaming sockets, graphql-ws sockets) authenticate once, when they open, while a
// request checks its credentials every time. This keeps the credentials of the open connections under
// watch so that losing them ends the connection, as it ends the next request:
// - every committed write to an account, a token, an app or a browser session is announced on the bus
//   (`viewers_changed`: src/db/row-writes.ts, wired by ../row-caches.ts; with REDIS_URL it reaches every
//   process), which is also how the token cache learns of them;
// - a connection whose credentials a write names has them read again: it is revoked (its `onRevoked`
//   closes the socket) when the token is gone (revoked, its app deleted, its account deleted) or expired,
//   the session is gone (signed out) or expired, the account is deactivated (suspended, deleted), or the
//   token's scopes no longer include those the connection opened with; a re-check that fails (the
//   database away) revokes too (clients reconnect and authenticate again);
// - deliveries wait for a pending re-check (StreamHub asks `holds` before each): an event published after
//   the revocation's commit reaches the socket neither before nor after the close;
// - when the bus's events may have been missed (Redis away) every connection is checked once they return;
// - a connection authenticated just before a write and watched just after it would miss the write's
//   event: `watch(…, since)` re-checks at once when such an event came since `since`.
// Admin-token and anonymous connections hold no revocable credential and are not watched.
import type { Services, Viewer } from "../context.ts";
import type { RowWrites } from "../../db/row-writes.ts";
import type { Bus } from "../../realtime/bus.ts";

/** How a revoked connection is closed: 1008 Policy Violation (graphql-ws clients treat it as fatal, no retry loop). */
export const REVOKED_CLOSE = { code: 1008, reason: "Credentials revoked" } as const;

/** How long announced writes are kept for connections watched late (an authentication takes milliseconds). */
const RECENT_MS = 10_000;
const RECENT_MAX = 1_000;

interface Watched {
  viewer: Viewer;
  /** the row keys (row-writes.ts) whose writes may end the credentials */
  keys: Set<string>;
  revoked: boolean;
  /** the re-check in progress, resolving to whether the credentials still hold */
  check: Promise<boolean> | null;
  onRevoked: Set<() => void>;
}

/** One key per credential: connections of one token (or session) share their watch. */
function credentialOf(viewer: Viewer): string | null {
  if (viewer.via === "token" && viewer.tokenId !== undefined) return `token:${viewer.tokenId}`;
  if (viewer.via === "session" && viewer.sessionId) return `session:${viewer.sessionId}`;
  if (viewer.via === "basic" && viewer.account) return `basic:${viewer.account.id}`;
  return null;
}

function rowKeysOf(viewer: Viewer): Set<string> {
  const keys = new Set<string>();
  if (viewer.account) keys.add(`a:${viewer.account.id}`);
  if (viewer.tokenId !== undefined) keys.add(`t:${viewer.tokenId}`);
  if (viewer.app) keys.add(`p:${viewer.app.id}`);
  if (viewer.sessionId) keys.add(`s:${viewer.sessionId}`);
  return keys;
}

function names(entry: Watched, writes: RowWrites): boolean {
  if ("all" in writes) return [...entry.keys].some((k) => k.startsWith(`${writes.all}:`)) || (writes.all as unknown) === true;
  return writes.keys.some((k) => entry.keys.has(k));
}

export class CredentialWatch {
  private watched = new Map<string, Watched>();
  private recent: { at: number; writes: RowWrites }[] = [];
  private events: AsyncIterator<RowWrites>;
  private stopGaps: () => void;

  constructor(private readonly services: Pick<Services, "db" | "bus" | "clock">) {
    this.events = services.bus.subscribe("viewers_changed")[Symbol.asyncIterator]();
    void this.listen();
    // events lost while Redis was away may have revoked anything: check everything once they are back
    this.stopGaps = services.bus.onGap((down) => {
      if (!down) for (const entry of this.watched.values()) this.recheck(entry);
    });
  }

  /**
   * Calls `onRevoked` (once) when the viewer's credentials stop holding; answers the function that stops
   * watching. `since`: when the credentials were read (Date.now()); writes announced since then are checked.
   */
  watch(viewer: Viewer, onRevoked: () => void, since?: number): () => void {
    const credential = credentialOf(viewer);
    if (!credential) return () => {};
    let entry = this.watched.get(credential);
    if (!entry) {
      entry = { viewer, keys: rowKeysOf(viewer), revoked: false, check: null, onRevoked: new Set() };
      this.watched.set(credential, entry);
    }
    const watchedEntry = entry;
    if (entry.revoked) queueMicrotask(onRevoked);
    else {
      entry.onRevoked.add(onRevoked);
      if (since !== undefined && this.recent.some((e) => e.at >= since && names(watchedEntry, e.writes))) this.recheck(entry);
    }
    return () => {
      watchedEntry.onRevoked.delete(onRevoked);
      if (watchedEntry.onRevoked.size === 0 && this.watched.get(credential) === watchedEntry) this.watched.delete(credential);
    };
  }

  /** Whether the viewer's credentials hold, once any re-check in progress is done (deliveries ask first). */
  holds(viewer: Viewer): boolean | Promise<boolean> {
    const credential = credentialOf(viewer);
    const entry = credential ? this.watched.get(credential) : undefined;
    if (!entry) return true;
    if (entry.revoked) return false;
    return entry.check ?? true;
  }

  /**
   * `source` as long as the viewer's credentials hold: each value waits for a re-check in progress, and
   * the first one after a revocation ends it instead (GraphQL subscriptions fed by the bus directly, not
   * through the stream hub, whose deliveries ask `holds` themselves).
   */
  gate<T>(source: AsyncIterableIterator<T>, viewer: Viewer): AsyncIterableIterator<T> {
    const done = (): IteratorResult<T> => ({ done: true, value: undefined });
    return {
      next: async () => {
        const result = await source.next();
        if (result.done || (await this.holds(viewer))) return result;
        await source.return?.();
        return done();
      },
      return: async (value?: unknown) => (source.return ? source.return(value) : done()),
      throw: async (error?: unknown) => (source.throw ? source.throw(error) : Promise.reject(error)),
      [Symbol.asyncIterator]() {
        return this;
      },
    };
  }

  /** connections' credentials under watch (tests) */
  get size(): number {
    return this.watched.size;
  }

  async close(): Promise<void> {
    this.stopGaps();
    this.watched.clear();
    await this.events.return?.();
  }

  private async listen() {
    for (;;) {
      let next: IteratorResult<RowWrites>;
      try {
        next = await this.events.next();
      } catch (error) {
        // dropped by the bus (src/realtime/pubsub.ts): the writes in between are unknown, so check everything
        console.error("credential watch: its events were interrupted, re-checking every connection:", error);
        this.events = this.services.bus.subscribe("viewers_changed")[Symbol.asyncIterator]();
        for (const entry of this.watched.values()) this.recheck(entry);
        continue;
      }
      if (next.done) return;
      const writes = next.value;
      const at = Date.now();
      const cutoff = at - RECENT_MS;
      while (this.recent.length && (this.recent[0]!.at < cutoff || this.recent.length >= RECENT_MAX)) this.recent.shift();
      this.recent.push({ at, writes });
      for (const entry of this.watched.values()) if (names(entry, writes)) this.recheck(entry);
    }
  }

  /** Reads the credentials again after any check in progress (which may have read before this write). */
  private recheck(entry: Watched) {
    if (entry.revoked) return;
    const check = (entry.check ?? Promise.resolve(true))
      .then((held) => held && this.stillHolds(entry.viewer))
      .catch((error) => {
        console.error("credential re-check failed, closing its connections:", error);
        return false;
      });
    entry.check = check;
    void check.then((held) => {
      if (entry.check === check) entry.check = null;
      if (held || entry.revoked) return;
      entry.revoked = true;
      for (const revoke of entry.onRevoked) revoke();
    });
  }

  private async stillHolds(viewer: Viewer): Promise<boolean> {
    const { db, clock } = this.services;
    const now = clock().getTime();
    if (viewer.via === "token") {
      const token = await db.oAuthToken.findUnique({ where: { id: viewer.tokenId! }, include: { account: { select: { deactivated: true } } } });
      if (!token || token.expiresAt.getTime() <= now || token.account?.deactivated) return false;
      if (viewer.account && token.accountId !== viewer.account.id) return false;
      return viewer.scopes.every((s) => token.scopes.includes(s));
    }
    if (viewer.via === "session") {
      const session = await db.session.findUnique({ where: { id: viewer.sessionId! }, include: { account: { select: { deactivated: true } } } });
      return !!session && session.expiresAt.getTime() > now && !session.account.deactivated;
    }
    const account = await db.account.findUnique({ where: { id: viewer.account!.id }, select: { deactivated: true } });
    return !!account && !account.deactivated;
  }
}

const watches = new WeakMap<Bus, CredentialWatch>();

/** The process's watch for these services (created on first use; it listens to the bus until closed). */
export function credentialWatch(services: Pick<Services, "db" | "bus" | "clock">): CredentialWatch {
  let watch = watches.get(services.bus);
  if (!watch) {
    watch = new CredentialWatch(services);
    watches.set(services.bus, watch);
  }
  return watch;
}

/** Stops the watch of these services, if any (server shutdown). */
export async function closeCredentialWatch(services: Pick<Services, "bus">): Promise<void> {
  const watch = watches.get(services.bus);
  watches.delete(services.bus);
  await watch?.close();
}
