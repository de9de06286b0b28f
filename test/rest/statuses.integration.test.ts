import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { announceRowWrites } from "../../src/db/row-writes.ts";
import { suiteKinds } from "../support/databases.ts";
import { passwordToken, startTestServer, type TestServer } from "../support/server.ts";
import { waitFor } from "../support/wait.ts";

describe.each(suiteKinds(import.meta.url))("posting statuses on %s", (kind) => {
  let server: TestServer;
  let ana: string;
  let ben: string;
  const post = (token: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    server.fetch("/api/v1/statuses", { json: body, headers: { authorization: `Bearer ${token}`, ...headers } });

  beforeAll(async () => {
    server = await startTestServer(kind, { CONFIGURABLE_FROM_DATABASE: "true" });
    await server.createUser("ana");
    await server.createUser("ben");
    ana = (await passwordToken(server, "ana")).access_token;
    ben = (await passwordToken(server, "ben")).access_token;
  });
  afterAll(() => server?.close());

  test("posting sets the author's last_status_at (a date); a second post that day does not write it again", async () => {
    const cara = await server.createUser("cara");
    const token = (await passwordToken(server, "cara")).access_token;
    const writes: string[] = [];
    const stop = server.database.onQuery((sql) => void (/UPDATE "public"\."accounts" SET "last_status_at"/.test(sql) && writes.push(sql)));
    try {
      const day = (d: Date | null) => d?.toISOString().slice(0, 10);
      expect((await post(token, { status: "first" })).status).toBe(200);
      const first = await server.services.db.account.findUniqueOrThrow({ where: { id: cara.id } });
      expect(day(first.lastStatusAt)).toBe(new Date().toISOString().slice(0, 10));
      expect(writes).toHaveLength(1);
      expect((await post(token, { status: "second" })).status).toBe(200);
      expect(writes).toHaveLength(1); // already that day
      // a day later (yesterday's date stored), the next post moves it again
      await server.services.db.$executeRaw`UPDATE accounts SET last_status_at = last_status_at - interval '1 day' WHERE id = ${cara.id}`;
      announceRowWrites(server.services.db, "accounts", [cara.id]); // raw SQL: the token cache must hear of it, as in src/
      expect((await post(token, { status: "third" })).status).toBe(200);
      expect(writes).toHaveLength(2);
      const me = await (await server.fetch("/api/v1/accounts/verify_credentials", { headers: { authorization: `Bearer ${token}` } })).json();
      expect(me.last_status_at).toBe(new Date().toISOString().slice(0, 10));
    } finally {
      stop();
    }
  });

  test("plain text: mentions, hashtags and links become HTML; the mention notifies", async () => {
    const res = await post(ana, { status: "hi @ben, see https://example.test/x?a=1&b=2 #Cats <b>not bold</b>\nbye", language: "en" });
    expect(res.status).toBe(200);
    const s = await res.json();
    expect(s.content).toContain('<span class="h-card"><a class="u-url mention" href="http://localhost:4000/users/ben" rel="nofollow noopener noreferrer">@<span>ben</span></a></span>');
    expect(s.content).toContain('<a href="https://example.test/x?a=1&amp;b=2" rel="nofollow noopener noreferrer">https://example.test/x?a=1&amp;b=2</a>');
    expect(s.content).toContain('<a class="hashtag" href="http://localhost:4000/tag/cats" rel="tag">#<span>Cats</span></a>');
    expect(s.content).toContain("&lt;b&gt;not bold&lt;/b&gt;<br />bye");
    expect(s).toMatchObject({ visibility: "public", language: "en", mentions: [{ acct: "ben" }], tags: [{ name: "cats" }], account: { acct: "ana" }, replies_count: 0 });
    expect(s.ext).toMatchObject({ local: true, content: { "text/plain": "hi @ben, see https://example.test/x?a=1&b=2 #Cats <b>not bold</b>\nbye" }, expires_at: null, parent_visible: false });
    const row = await server.services.db.status.findUniqueOrThrow({ where: { id: s.id }, include: { mentions: true, tags: { include: { tag: true } } } });
    expect(row.source).toContain("#Cats");
    expect(row.tags.map((t) => t.tag.name)).toEqual(["cats"]);
    expect(await server.services.db.notification.count({ where: { type: "mention", statusId: s.id } })).toBe(1);
    const benMe = await (await server.fetch("/api/v1/accounts/verify_credentials", { headers: { authorization: `Bearer ${ben}` } })).json();
    expect(benMe.ext.unread_notifications_count).toBe(1);
    const fetched = await (await server.fetch(`/api/v1/statuses/${s.id}`)).json();
    expect(fetched.content).toBe(s.content);
  });

  test("mentions and hashtags inside links stay part of the link", async () => {
    const s = await (await post(ana, { status: "read https://example.test/p?a=-#top now" })).json();
    expect(s.content).toBe('read <a href="https://example.test/p?a=-#top" rel="nofollow noopener noreferrer">https://example.test/p?a=-#top</a> now');
    expect(s.mentions).toEqual([]);
    expect(s.tags).toEqual([]);
  });

  test("markdown and html content types are rendered and sanitized", async () => {
    const md = await (await post(ana, { status: "**bold** and `code #nottag`\n\n<script>x</script>", content_type: "text/markdown" })).json();
    expect(md.content).toContain("<strong>bold</strong>");
    expect(md.content).toContain("<code>code #nottag</code>");
    expect(md.content).not.toContain("<script>");
    const html = await (await post(ana, { status: '<p onclick="x()">hey <a href="javascript:alert(1)">x</a> #tag</p><img src=x>', content_type: "text/html" })).json();
    expect(html.content).not.toMatch(/onclick|javascript:|<img/);
    expect(html.content).toContain('class="hashtag"');
    const bad = await post(ana, { status: "x", content_type: "text/bbcode" });
    expect(bad.status).toBe(422);
  });

  test("preview renders without storing; blank and too-soon expiry are refused", async () => {
    const parent = await (await post(ben, { status: "a thread" })).json();
    const before = await server.services.db.status.count();
    const preview = await post(ana, { status: "just looking", preview: true, in_reply_to_id: parent.id });
    expect(preview.status).toBe(200);
    // an unsaved row renders whole, its parent too (status-data.ts: the rows-at-hand form when the page of stored
    // rows comes back short)
    expect(await preview.json()).toMatchObject({
      content: "just looking",
      account: { username: "ana" },
      in_reply_to_id: parent.id,
      ext: { in_reply_to_account_acct: "ben", parent_visible: true },
    });
    expect(await server.services.db.status.count()).toBe(before);
    const blank = await post(ana, { status: "   " });
    expect(blank.status).toBe(422);
    const soon = await post(ana, { status: "bye", expires_in: 60 });
    expect(soon.status).toBe(422);
    expect((await soon.json()).error).toMatch(/longer than one hour/);
    expect(await server.services.db.status.count()).toBe(before);
  });

  test("the Idempotency-Key returns the first status", async () => {
    const a = await (await post(ana, { status: "once" }, { "idempotency-key": "k1" })).json();
    const b = await (await post(ana, { status: "once" }, { "idempotency-key": "k1" })).json();
    expect(b.id).toBe(a.id);
    expect(await server.services.db.status.count({ where: { source: "once" } })).toBe(1);
  });

  test("delete answers the source for redrafting and only the author may", async () => {
    const s = await (await post(ana, { status: "**gone** soon", content_type: "text/markdown" })).json();
    expect((await server.fetch(`/api/v1/statuses/${s.id}`, { method: "DELETE", headers: { authorization: `Bearer ${ben}` } })).status).toBe(403);
    const del = await server.fetch(`/api/v1/statuses/${s.id}`, { method: "DELETE", headers: { authorization: `Bearer ${ana}` } });
    expect(del.status).toBe(200);
    expect(await del.json()).toMatchObject({ text: "**gone** soon", account: { username: "ana" } });
    expect(await server.services.db.status.findUnique({ where: { id: s.id } })).toBeNull();
  });

  test("rendering 40 statuses costs as many queries as rendering one", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 40; i++) ids.push((await (await post(ben, { status: `n${i} @ana #t${i % 3}`, poll: i % 5 === 0 ? { options: ["a", "b"], expires_in: 3600 } : undefined })).json()).id);
    const query = (n: number) => `/api/v1/statuses?${ids.slice(0, n).map((id) => `ids[]=${id}`).join("&")}`;
    const one = await server.countQueries(() => server.fetch(query(1), { headers: { authorization: `Bearer ${ana}` } }));
    const forty = await server.countQueries(() => server.fetch(query(40), { headers: { authorization: `Bearer ${ana}` } }));
    const body = await forty.result.json();
    expect(body.length, JSON.stringify(body).slice(0, 300)).toBe(40);
    expect(forty.queries).toBe(one.queries);
  });
});

describe("expiring statuses", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer("pglite");
    await server.createUser("eve");
  });
  afterAll(() => server?.close());

  test("a status with expires_in is deleted by the durable job at ext.expires_at", async () => {
    const token = (await passwordToken(server, "eve")).access_token;
    const res = await server.fetch("/api/v1/statuses", { json: { status: "ephemeral", expires_in: 7200 }, headers: { authorization: `Bearer ${token}` } });
    const s = await res.json();
    const expiresAt = new Date(s.ext.expires_at).getTime();
    expect(expiresAt - Date.now()).toBeGreaterThan(7100_000);
    const db = server.services.db;
    const job = await db.job.findFirstOrThrow({ where: { name: "statuses.expire" } });
    expect(job.payload).toEqual({ statusId: s.id });
    expect(Math.abs(job.runAt.getTime() - expiresAt)).toBeLessThan(1000);
    // bring the expiry (and its job) forward instead of waiting two hours
    await db.status.update({ where: { id: s.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    await db.job.update({ where: { id: job.id }, data: { runAt: new Date(Date.now() - 1000) } });
    await waitFor(async () => (await db.status.count({ where: { id: s.id } })) === 0, "the expiry job to delete the status", { timeoutMs: 10_000 });
    expect((await db.job.findUniqueOrThrow({ where: { id: job.id } })).state).toBe("done");
  });
});
