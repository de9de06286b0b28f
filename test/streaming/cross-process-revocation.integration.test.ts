// Revocation across processes: two server processes of one instance (the same PostgreSQL database and
// Redis). A user's streaming socket is open on process A; the token is revoked, or the account
// deactivated by an admin, through process B. A's socket is closed with 1008 "Credentials revoked" within
// a second of B's answer, and a direct message sent right after never reaches it. B's write is announced
// on the bus (src/domain/row-caches.ts), A's credential watch hears it over Redis and re-reads the
// credentials (src/domain/auth/credential-watch.ts).
// PostgreSQL only: the embedded PGlite admits a single process.
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { freshDatabase } from "../support/databases.ts";
import { PROCESS_ADMIN_TOKEN, spawnServer, usersOn, type ServerProcess } from "../support/processes.ts";
import { REDIS_URL } from "../jobs/helpers.ts";
import { openStream, type StreamClient, type StreamMessage } from "./helpers.ts";

vi.setConfig({ testTimeout: 60_000, hookTimeout: 180_000 });

const REVOKED = { code: 1008, reason: "Credentials revoked" };
const SCOPES = "read write follow";

describe("revocation on one process closes the sockets of another on postgres", () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  let a: ServerProcess, b: ServerProcess;
  let ben: { authorization: string };

  beforeAll(async () => {
    db = await freshDatabase("postgres");
    // one instance: the same database, Redis and public URL (spawnServer's BASE_URL), so one channel prefix
    const env = { DATABASE_URL: db.url, REDIS_URL, ADMIN_TOKEN: PROCESS_ADMIN_TOKEN };
    a = await spawnServer(env);
    b = await spawnServer(env);
    ben = (await usersOn(b.url, ["ben", "rev", "deact"])).ben!.auth;
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await db?.drop();
  });

  /** ben sends `who` a direct message through B */
  const dm = async (who: string, text: string) => {
    const res = await fetch(`${b.url}/api/v1/statuses`, { method: "POST", headers: { ...ben, "content-type": "application/json" }, body: JSON.stringify({ status: `@${who} ${text}`, visibility: "direct" }) });
    expect(res.status).toBe(200);
  };
  const mentions = (text: string) => (m: StreamMessage) => m.event === "update" && JSON.stringify(m.payload).includes(text);

  /** A client of `who` signed in on B: its app (to revoke with) and token. */
  async function signIn(who: string) {
    const app = await (await fetch(`${b.url}/api/v1/apps`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ client_name: "cross", redirect_uris: "urn:ietf:wg:oauth:2.0:oob", scopes: SCOPES }) })).json();
    const form = new URLSearchParams({ grant_type: "password", client_id: app.client_id, client_secret: app.client_secret, username: who, password: "secret-password", scope: SCOPES });
    const token = await (await fetch(`${b.url}/oauth/token`, { method: "POST", body: form })).json();
    return { app: app as { client_id: string; client_secret: string }, token: token.access_token as string };
  }

  /** `who`'s user stream on A, shown live by a direct message sent through B (so the bus carries it across). */
  async function liveStreamOnA(who: string, token: string): Promise<StreamClient> {
    const stream = await openStream(a, `/api/v1/streaming?stream=user&access_token=${token}`);
    await dm(who, `before-${who}`);
    await stream.next(mentions(`before-${who}`));
    return stream;
  }

  /** Runs the revocation on B, then a direct message at once: A's socket is closed (1008) within a second and never got it. */
  async function expectClosedBy(stream: StreamClient, who: string, revoke: () => Promise<Response>) {
    const res = await revoke();
    expect(res.status).toBe(200);
    const answered = Date.now();
    const after = dm(who, `after-${who}`).catch(() => {}); // a deactivated recipient may refuse it: either way
    const outcome = await Promise.race([stream.closed, stream.next(mentions(`after-${who}`)).then(() => "the message arrived")]);
    expect(outcome).toEqual(REVOKED);
    expect(Date.now() - answered).toBeLessThan(1000);
    await after;
    // closed: nothing can arrive any more
    expect(stream.has(mentions(`after-${who}`))).toBe(false);
  }

  test("POST /oauth/revoke on B closes the token's socket on A", async () => {
    const { app, token } = await signIn("rev");
    const stream = await liveStreamOnA("rev", token);
    await expectClosedBy(stream, "rev", () => fetch(`${b.url}/oauth/revoke`, { method: "POST", body: new URLSearchParams({ token, client_id: app.client_id, client_secret: app.client_secret }) }));
  });

  test("an admin's deactivation on B closes the account's socket on A", async () => {
    const { token } = await signIn("deact");
    const stream = await liveStreamOnA("deact", token);
    await expectClosedBy(stream, "deact", () =>
      fetch(`${b.url}/api/v1/ext/admin/users/deactivate`, { method: "PATCH", headers: { "x-admin-token": PROCESS_ADMIN_TOKEN, "content-type": "application/json" }, body: JSON.stringify({ nicknames: ["deact"] }) }),
    );
  });
});
