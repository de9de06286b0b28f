// Admin API instances and statistics: DELETE /instances/:instance answers the host and a durable job
// removes that host's accounts and statuses (nothing else); GET /stats counts statuses by visibility
// from the trigger-kept counters, for all, one host, or this server's own host (local statuses).
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { newId } from "../../src/db/ids.ts";
import { bearer, cast, post as postStatus, type Cast } from "../support/actors.ts";
import { suiteKinds } from "../support/databases.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { waitFor } from "../support/wait.ts";

vi.setConfig({ testTimeout: 30_000, hookTimeout: 120_000 });

const ADMIN_TOKEN = "admin-token-for-instance-tests";
const PREFIXES = ["/api/v1/ext/admin", "/api/ext/admin"];

describe.each(suiteKinds(import.meta.url))("admin instances and stats on %s", (kind) => {
  let server: TestServer;
  let id: Cast["id"];
  let token: Cast["token"];
  const call = (who: string | null, method: string, path: string, json?: unknown, prefix = PREFIXES[0]) =>
    server.fetch(prefix + path, { method, json, headers: who ? bearer(token[who]) : {} });
  const db = () => server.services.db;
  const post = (who: string, body: Record<string, unknown>) => postStatus(server, token[who], body);
  const stats = async (query = "", who = "ada") => {
    const res = await call(who, "GET", `/stats${query}`);
    expect(res.status).toBe(200);
    return (await res.json()).status_visibility as Record<string, number>;
  };

  /** A remote account inserted as federation would store it, with statuses. */
  async function remoteAccount(nick: string, host: string, visibilities: ("public" | "unlisted" | "private" | "direct")[]) {
    const account = await db().account.create({ data: { id: newId(), nickname: `${nick}@${host}`, domain: host, local: false, apId: `https://${host}/users/${nick}` } });
    const statuses = visibilities.map((visibility, i) => ({
      id: newId(),
      uri: `https://${host}/objects/${nick}-${i}`,
      accountId: account.id,
      local: false,
      content: `<p>${nick} ${i}</p>`,
      visibility,
      context: `https://${host}/contexts/${nick}-${i}`,
    }));
    await db().status.createMany({ data: statuses });
    return { account, statusIds: statuses.map((s) => s.id) };
  }

  function waitForPurge(host: string) {
    return waitFor(async () => {
      const job = await db().job.findFirst({ where: { name: "admin.instances.purge", payload: { path: ["host"], equals: host } } });
      return (job?.state === "done" || job?.state === "failed") && job;
    }, `the purge job of ${host} to finish`, { timeoutMs: 15_000 });
  }

  beforeAll(async () => {
    server = await startTestServer(kind, { ADMIN_TOKEN });
    ({ id, token } = await cast(server, { ada: { admin: true }, mo: { moderator: true }, tom: {} }));
  });
  afterAll(() => server?.close());

  test("GET /stats counts local and remote statuses by visibility; posting, deleting and changing visibility move the counts", async () => {
    const zero = { public: 0, unlisted: 0, private: 0, direct: 0 };
    expect(await stats()).toEqual(zero);
    const a = await post("tom", { status: "one" });
    await post("tom", { status: "two", visibility: "unlisted" });
    const c = await post("tom", { status: "three", visibility: "private" });
    await post("tom", { status: "@ada four", visibility: "direct" });
    // reblogs are not statuses of their own here, as in the family
    expect((await server.fetch(`/api/v1/statuses/${a}/reblog`, { method: "POST", headers: bearer(token.ada) })).status).toBe(200);
    await remoteAccount("sam", "stats.example", ["public", "public", "private"]);
    expect(await stats()).toEqual({ public: 3, unlisted: 1, private: 2, direct: 1 });
    expect(await stats("?instance=stats.example")).toEqual({ public: 2, unlisted: 0, private: 1, direct: 0 });
    expect(await stats("?instance=localhost:4000")).toEqual({ public: 1, unlisted: 1, private: 1, direct: 1 });
    expect(await stats("?instance=nowhere.example")).toEqual(zero);

    expect((await server.fetch(`/api/v1/statuses/${a}`, { method: "DELETE", headers: bearer(token.tom) })).status).toBe(200);
    expect((await call("ada", "PUT", `/statuses/${c}`, { visibility: "public" })).status).toBe(200);
    expect(await stats("?instance=localhost:4000")).toEqual({ public: 1, unlisted: 1, private: 0, direct: 1 });
    const both = await Promise.all(PREFIXES.map((p) => call("ada", "GET", "/stats", undefined, p).then((r) => r.json())));
    expect(both[0]).toEqual(both[1]);
    expect(both[0]).toEqual({ status_visibility: { public: 3, unlisted: 1, private: 1, direct: 1 } });
  });

  test("DELETE /instances/:instance answers the host; the job removes that host's accounts and statuses only", async () => {
    const bob = await remoteAccount("bob", "remote.example", ["public", "private"]);
    const eve = await remoteAccount("eve", "remote.example", ["unlisted"]);
    const kept = await remoteAccount("kim", "other.example", ["public"]);
    // local content that points at the doomed accounts: a follow, a reblog, a reply, a mention notification
    await db().follow.create({ data: { id: newId(), followerId: id.tom, followingId: bob.account.id, state: "accept" } });
    const reblog = await server.fetch(`/api/v1/statuses/${bob.statusIds[0]}/reblog`, { method: "POST", headers: bearer(token.tom) });
    expect(reblog.status).toBe(200);
    const reply = await post("tom", { status: "a reply", in_reply_to_id: bob.statusIds[0] });
    const localBefore = await stats("?instance=localhost:4000");
    expect(await stats("?instance=remote.example")).toEqual({ public: 1, unlisted: 1, private: 1, direct: 0 });

    const res = await call("ada", "DELETE", "/instances/remote.example");
    expect(res.status).toBe(200);
    expect(await res.json()).toBe("remote.example");
    const job = await waitForPurge("remote.example");
    expect(job.state).toBe("done");

    expect(await db().account.count({ where: { domain: "remote.example" } })).toBe(0);
    expect(await db().status.count({ where: { accountId: { in: [bob.account.id, eve.account.id] } } })).toBe(0);
    expect(await db().status.count({ where: { reblogOfId: bob.statusIds[0] } })).toBe(0);
    expect(await db().follow.count({ where: { followingId: bob.account.id } })).toBe(0);
    // the local reply stays, detached from its deleted parent
    expect(await db().status.findUniqueOrThrow({ where: { id: reply } })).toMatchObject({ inReplyToId: null });
    expect(await db().account.count({ where: { id: kept.account.id } })).toBe(1);
    expect(await db().status.count({ where: { id: kept.statusIds[0] } })).toBe(1);
    expect(await db().account.count({ where: { local: true } })).toBe(3);
    // the counters followed, and the local ones did not move
    expect(await stats("?instance=remote.example")).toEqual({ public: 0, unlisted: 0, private: 0, direct: 0 });
    expect(await stats("?instance=localhost:4000")).toEqual(localBefore);
  });

  test("a host is matched exactly: `_` and `%` are no wildcards, and case does not matter", async () => {
    const kept = await remoteAccount("una", "example.test", ["public"]);
    const odd = await remoteAccount("ugo", "ex_mple.test", ["public"]);
    for (const host of ["ex%25mple.test", "EX_MPLE.test"]) {
      const res = await call("ada", "DELETE", `/instances/${host}`);
      expect(res.status).toBe(200);
      expect((await waitForPurge((await res.json()).toLowerCase())).state).toBe("done");
    }
    expect(await db().account.count({ where: { id: kept.account.id } })).toBe(1);
    expect(await db().status.count({ where: { id: kept.statusIds[0] } })).toBe(1);
    expect(await db().account.count({ where: { id: odd.account.id } })).toBe(0);
    expect(await stats("?instance=example.test")).toEqual({ public: 1, unlisted: 0, private: 0, direct: 0 });
  });

  test("the other prefix, the admin token; this server's own host removes nothing local", async () => {
    await remoteAccount("zed", "second.example", ["public"]);
    const res = await server.fetch(`${PREFIXES[1]}/instances/second.example?admin_token=${ADMIN_TOKEN}`, { method: "DELETE" });
    expect(res.status).toBe(200);
    expect(await res.json()).toBe("second.example");
    expect((await waitForPurge("second.example")).state).toBe("done");
    expect(await db().account.count({ where: { domain: "second.example" } })).toBe(0);

    const locals = await db().account.count({ where: { local: true } });
    const own = await call("ada", "DELETE", "/instances/localhost:4000");
    expect(await own.json()).toBe("localhost:4000");
    expect((await waitForPurge("localhost:4000")).state).toBe("done");
    expect(await db().account.count({ where: { local: true } })).toBe(locals);
  });

  test("privileges: moderators lack instances_delete and statistics_read; users and anonymous refused", async () => {
    await remoteAccount("ned", "guarded.example", ["public"]);
    for (const [method, path] of [
      ["DELETE", "/instances/guarded.example"],
      ["GET", "/stats"],
    ] as const) {
      const mo = await call("mo", method, path);
      expect(mo.status, `${method} ${path}`).toBe(403);
      expect(await mo.json()).toEqual({ error: "User isn't privileged." });
      const user = await call("tom", method, path);
      expect(user.status).toBe(403);
      expect(await user.json()).toEqual({ error: "User is not a staff member." });
      const anon = await call(null, method, path);
      expect(anon.status).toBe(403);
      expect(await anon.json()).toEqual({ error: "Invalid credentials." });
    }
    expect(await db().job.count({ where: { name: "admin.instances.purge", payload: { equals: { host: "guarded.example" } } } })).toBe(0);
    expect(await db().account.count({ where: { domain: "guarded.example" } })).toBe(1);
    expect((await server.fetch(`${PREFIXES[0]}/stats`, { headers: { "x-admin-token": ADMIN_TOKEN } })).status).toBe(200);
  });
});
