// A status's thread (context) as each viewer may see it; editing a status, its history and its source.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { newId } from "../../src/db/ids.ts";
import { suiteKinds } from "../support/databases.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { user, type User } from "./relationships-helpers.ts";

describe.each(suiteKinds(import.meta.url))("status context, edits, history and source on %s", (kind) => {
  let server: TestServer;
  let ana: User, ben: User, cat: User, dan: User;

  async function call(who: User | null, method: string, path: string, json?: unknown) {
    const res = await server.fetch(path, { method, headers: who ? who.auth : {}, ...(json !== undefined ? { json } : {}) });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  }
  const post = async (who: User, json: Record<string, unknown>) => {
    const res = await call(who, "POST", "/api/v1/statuses", json);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as { id: string; created_at: string };
  };
  const edit = (who: User | null, id: string, json: Record<string, unknown>) => call(who, "PUT", `/api/v1/statuses/${id}`, json);
  const ids = (list: { id: string }[]) => list.map((s) => s.id);
  const db = () => server.services.db;

  beforeAll(async () => {
    server = await startTestServer(kind);
    [ana, ben, cat, dan] = await Promise.all(["ana", "ben", "cat", "dan"].map((n) => user(server, n)));
  });
  afterAll(() => server?.close());

  test("context: ancestors oldest first, descendants depth-first, a hidden reply hides its subtree", async () => {
    const root = await post(ana, { status: "root" });
    const r1 = await post(ben, { status: "first reply", in_reply_to_id: root.id });
    const r1a = await post(ana, { status: "under the first", in_reply_to_id: r1.id });
    const hidden = await post(cat, { status: "@dan for ben, dan and my followers", in_reply_to_id: r1.id, visibility: "private" });
    const under = await post(dan, { status: "public, below a private reply", in_reply_to_id: hidden.id });
    const r2 = await post(ana, { status: "second reply", in_reply_to_id: root.id });

    const anon = await call(null, "GET", `/api/v1/statuses/${root.id}/context`);
    expect(anon.status).toBe(200);
    expect(anon.body.ancestors).toEqual([]);
    expect(ids(anon.body.descendants)).toEqual([r1.id, r1a.id, r2.id]);

    const asBen = await call(ben, "GET", `/api/v1/statuses/${root.id}/context`); // ben is addressed by cat's reply
    expect(ids(asBen.body.descendants)).toEqual([r1.id, r1a.id, hidden.id, under.id, r2.id]);
    expect(asBen.body.descendants[2]).toMatchObject({ visibility: "private", in_reply_to_id: r1.id, account: { acct: "cat" } });

    const fromBelow = await call(null, "GET", `/api/v1/statuses/${under.id}/context`);
    expect(ids(fromBelow.body.ancestors)).toEqual([root.id, r1.id]);
    expect(fromBelow.body.descendants).toEqual([]);
    const mid = await call(ben, "GET", `/api/v1/statuses/${r1.id}/context`);
    expect(ids(mid.body.ancestors)).toEqual([root.id]);
    expect(ids(mid.body.descendants)).toEqual([r1a.id, hidden.id, under.id]);

    // a viewer who turned thread containment off sees visible replies under hidden ones
    await db().account.update({ where: { id: ana.id }, data: { skipThreadContainment: true } });
    const loose = await call(ana, "GET", `/api/v1/statuses/${root.id}/context`);
    expect(ids(loose.body.descendants)).toEqual([r1.id, r1a.id, under.id, r2.id]);
    await db().account.update({ where: { id: ana.id }, data: { skipThreadContainment: false } });

    expect((await call(null, "GET", `/api/v1/statuses/${hidden.id}/context`)).status).toBe(404);
    expect((await call(null, "GET", `/api/v1/statuses/unknown/context`)).status).toBe(404);
  });

  test("a thread's context costs the same number of queries whatever its size", async () => {
    const thread = async (replies: number) => {
      const root = await post(ana, { status: "count me" });
      let parent = root.id;
      for (let i = 0; i < replies; i++) parent = (await post(i % 2 ? ana : ben, { status: `reply ${i}`, in_reply_to_id: i % 3 ? parent : root.id })).id;
      return root.id;
    };
    const [small, large] = [await thread(2), await thread(12)];
    const one = await server.countQueries(() => call(ben, "GET", `/api/v1/statuses/${small}/context`));
    const many = await server.countQueries(() => call(ben, "GET", `/api/v1/statuses/${large}/context`));
    expect(many.result.body.descendants).toHaveLength(12);
    expect(many.queries).toBe(one.queries);
  });

  test("edit: re-rendered text, mentions and tags; the old version goes to history; rebloggers are notified", async () => {
    const s = await post(ana, { status: "hello #one", spoiler_text: "cw" });
    const created = await db().status.findUniqueOrThrow({ where: { id: s.id } });
    await call(ben, "POST", `/api/v1/statuses/${s.id}/reblog`);

    const first = await edit(ana, s.id, { status: "hello @cat #two", spoiler_text: "", sensitive: true, language: "fr" });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({ id: s.id, spoiler_text: "", sensitive: true, language: "fr", mentions: [{ acct: "cat" }], tags: [{ name: "two" }] });
    expect(first.body.content).toContain('class="u-url mention"');
    expect(first.body.edited_at).toMatch(/^\d{4}-/);
    const edits = await db().statusEdit.findMany({ where: { statusId: s.id } });
    expect(edits).toHaveLength(1);
    expect(edits[0]).toMatchObject({ source: "hello #one", spoilerText: "cw", sensitive: false, mediaIds: [], createdAt: created.createdAt });
    expect(edits[0].content).toContain("#<span>one</span>");
    expect(await db().notification.count({ where: { type: "update", statusId: s.id, accountId: ben.id, fromAccountId: ana.id } })).toBe(1);
    expect(await db().notification.count({ where: { type: "mention", statusId: s.id, accountId: cat.id } })).toBe(1);
    const row = await db().status.findUniqueOrThrow({ where: { id: s.id } });
    expect(row.recipientIds).toEqual([cat.id]);

    const second = await edit(ana, s.id, { status: "hello again" });
    expect(second.body).toMatchObject({ content: "hello again", sensitive: true, mentions: [], tags: [] });
    const both = await db().statusEdit.findMany({ where: { statusId: s.id }, orderBy: { createdAt: "asc" } });
    expect(both[1]).toMatchObject({ source: "hello @cat #two", createdAt: row.editedAt });
    expect((await db().status.findUniqueOrThrow({ where: { id: s.id } })).recipientIds).toEqual([cat.id]); // access is never taken back

    const history = await call(null, "GET", `/api/v1/statuses/${s.id}/history`);
    expect(history.status).toBe(200);
    expect(history.body).toHaveLength(3);
    expect(history.body.map((v: { spoiler_text: string }) => v.spoiler_text)).toEqual(["cw", "", ""]);
    expect(history.body[0]).toMatchObject({ sensitive: false, created_at: s.created_at, account: { acct: "ana" }, poll: null, media_attachments: [], emojis: [] });
    expect(history.body[2].content).toBe("hello again");
    expect(history.body[2].created_at).toBe(second.body.edited_at);

    // nothing changed: no new version
    expect((await edit(ana, s.id, { status: "hello again" })).status).toBe(200);
    expect(await db().statusEdit.count({ where: { statusId: s.id } })).toBe(2);
  });

  test("edit media: attach and detach; history keeps the earlier attachments", async () => {
    const media = await db().mediaAttachment.create({ data: { id: newId(), accountId: ana.id, type: "image", mimeType: "image/png", url: "http://localhost:4000/media/x.png" } });
    const s = await post(ana, { status: "no picture yet" });
    const withMedia = await edit(ana, s.id, { status: "a picture", media_ids: [media.id] });
    expect(withMedia.body.media_attachments.map((m: { id: string }) => m.id)).toEqual([media.id]);
    expect((await db().mediaAttachment.findUniqueOrThrow({ where: { id: media.id } })).statusId).toBe(s.id);
    const without = await edit(ana, s.id, { status: "picture gone", media_ids: [] });
    expect(without.body.media_attachments).toEqual([]);
    expect((await db().mediaAttachment.findUniqueOrThrow({ where: { id: media.id } })).statusId).toBeNull();
    const history = (await call(ana, "GET", `/api/v1/statuses/${s.id}/history`)).body;
    expect(history.map((v: { media_attachments: unknown[] }) => v.media_attachments.length)).toEqual([0, 1, 0]);
    const bens = await db().mediaAttachment.create({ data: { id: newId(), accountId: ben.id, type: "image", mimeType: "image/png", url: "http://localhost:4000/media/y.png" } });
    expect((await edit(ana, s.id, { media_ids: [bens.id] })).status).toBe(422);
  });

  test("edit refusals: someone else's (403), invisible (404), blank (422), a changed poll (422)", async () => {
    const s = await post(ana, { status: "mine" });
    expect((await edit(ben, s.id, { status: "yours now" })).status).toBe(403);
    const priv = await post(ana, { status: "private", visibility: "private" });
    expect((await edit(ben, priv.id, { status: "x" })).status).toBe(404);
    expect((await edit(null, s.id, { status: "x" })).status).toBe(403);
    expect((await edit(ana, s.id, { status: "  " })).status).toBe(422);
    const polled = await post(ana, { status: "vote", poll: { options: ["a", "b"], expires_in: 3600 } });
    const same = await edit(ana, polled.id, { status: "vote now", poll: { options: ["a", "b"], expires_in: 3600 } });
    expect(same.status).toBe(200);
    expect(same.body.poll.options.map((o: { title: string }) => o.title)).toEqual(["a", "b"]);
    const changed = await edit(ana, polled.id, { status: "vote", poll: { options: ["a", "c"], expires_in: 3600 } });
    expect(changed.status).toBe(422);
    const history = (await call(ana, "GET", `/api/v1/statuses/${polled.id}/history`)).body;
    expect(history[0].poll).toEqual({ options: [{ title: "a" }, { title: "b" }] });
    expect(await db().status.findUniqueOrThrow({ where: { id: s.id } })).toMatchObject({ source: "mine", editedAt: null });
  });

  test("history of an unedited status is its current version; source answers what was typed", async () => {
    const s = await post(ana, { status: "**bold** move", content_type: "text/markdown", spoiler_text: "careful" });
    const history = await call(null, "GET", `/api/v1/statuses/${s.id}/history`);
    expect(history.body).toHaveLength(1);
    expect(history.body[0]).toMatchObject({ spoiler_text: "careful", created_at: s.created_at });
    const source = await call(ben, "GET", `/api/v1/statuses/${s.id}/source`);
    expect(source.status).toBe(200);
    expect(source.body).toEqual({ id: s.id, text: "**bold** move", spoiler_text: "careful", content_type: "text/markdown" });
    const priv = await post(ana, { status: "private", visibility: "private" });
    expect((await call(ben, "GET", `/api/v1/statuses/${priv.id}/source`)).status).toBe(404);
    expect((await call(ben, "GET", `/api/v1/statuses/${priv.id}/history`)).status).toBe(404);
  });
});
