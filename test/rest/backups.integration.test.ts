// Own API backups: a durable job builds a zip whose contents are checked, only the owner downloads it,
// a second request within `backup.limit_days` is refused, older backups are pruned, and the admin may
// ask for one (logged).
import fs from "node:fs";
import path from "node:path";
import { strFromU8, unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { suiteKinds } from "../support/databases.ts";
import { admin, user } from "../support/actors.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { StopWaiting, waitFor } from "../support/wait.ts";

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

const PNG = fs.readFileSync("src/media/assets/avi.png");
const auth = (token: string) => ({ authorization: `Bearer ${token}` });

describe.each(suiteKinds(import.meta.url))("backups on %s", (kind) => {
  let server: TestServer;
  const token: Record<string, string> = {};
  const id: Record<string, string> = {};

  const call = async (who: string | null, method: string, url: string, json?: unknown) => {
    const res = await server.fetch(url, { method, json, headers: who ? auth(token[who]) : {} });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  };
  const processed = (who: string) =>
    waitFor(
      async () => {
        const list = (await call(who, "GET", "/api/v1/ext/backups")).body;
        if (list[0]?.state === "failed") throw new StopWaiting("backup failed");
        return list.length > 0 && list[0].state === "complete" && list;
      },
      `${who}'s backup to be processed`,
      { timeoutMs: 20_000 },
    );

  beforeAll(async () => {
    server = await startTestServer(kind);
    for (const who of [await user(server, "bob"), await user(server, "cat"), await admin(server, "ada")]) {
      id[who.nickname] = who.id;
      token[who.nickname] = who.token;
    }
  });
  afterAll(() => server?.close());

  test("a backup holds actor, outbox, likes, bookmarks, following and media; only its owner downloads it", async () => {
    const form = new FormData();
    form.append("file", new Blob([PNG], { type: "image/png" }), "pic.png");
    const media = await (await server.fetch("/api/v1/media", { method: "POST", body: form, headers: auth(token.bob) })).json();
    const own = (await call("bob", "POST", "/api/v1/statuses", { status: "my first #backup post", media_ids: [media.id] })).body;
    await call("bob", "POST", "/api/v1/statuses", { status: "a private one", visibility: "private" });
    const cats = (await call("cat", "POST", "/api/v1/statuses", { status: "cat's post" })).body;
    await call("bob", "POST", `/api/v1/statuses/${cats.id}/favourite`);
    await call("bob", "POST", `/api/v1/statuses/${cats.id}/bookmark`);
    await call("bob", "POST", `/api/v1/statuses/${cats.id}/reblog`);
    await call("bob", "POST", `/api/v1/accounts/${id.cat}/follow`);

    const created = await call("bob", "POST", "/api/v1/ext/backups");
    expect(created.status).toBe(200);
    expect(created.body).toHaveLength(1);
    expect(created.body[0]).toMatchObject({ content_type: "application/zip", processed: false });

    const [done] = await processed("bob");
    expect(done).toMatchObject({ processed: true, state: "complete", processed_number: 3 });
    expect(done.file_size).toBeGreaterThan(0);
    expect(done.url).toBe(`http://localhost:4000/api/v1/ext/backups/${done.id}/archive`);

    const download = await server.fetch(new URL(done.url).pathname, { headers: auth(token.bob) });
    expect(download.status).toBe(200);
    const files = unzipSync(new Uint8Array(await download.arrayBuffer()));
    expect(Object.keys(files).sort()).toEqual(
      ["actor.json", "bookmarks.json", "following.json", "likes.json", "outbox.json", `media/${new URL(media.url).pathname.slice("/media/".length)}`].sort(),
    );
    const json = (name: string) => JSON.parse(strFromU8(files[name]));
    expect(json("actor.json")).toMatchObject({ id: "http://localhost:4000/users/bob", type: "Person", preferredUsername: "bob" });
    const outbox = json("outbox.json");
    expect(outbox).toMatchObject({ type: "OrderedCollection", totalItems: 3 });
    expect(outbox.orderedItems.map((a: any) => a.type)).toEqual(["Create", "Create", "Announce"]);
    const [first, second, announce] = outbox.orderedItems;
    expect(first.object).toMatchObject({ type: "Note", id: own.uri, content: own.content, to: ["https://www.w3.org/ns/activitystreams#Public"] });
    expect(first.object.attachment).toEqual([expect.objectContaining({ type: "Document", mediaType: "image/png", url: media.url })]);
    expect(first.object.tag).toContainEqual({ type: "Hashtag", name: "#backup" });
    expect(second.object.to).toEqual(["http://localhost:4000/users/bob/followers"]);
    expect(announce.object).toBe(cats.uri);
    expect(json("likes.json").orderedItems).toEqual([cats.uri]);
    expect(json("bookmarks.json").orderedItems).toEqual([cats.uri]);
    expect(json("following.json").orderedItems).toEqual(["http://localhost:4000/users/cat"]);
    // the stored file (re-encoded without metadata, docs/media.md): a PNG, not the uploaded bytes
    expect(Buffer.from(Object.entries(files).find(([n]) => n.startsWith("media/"))![1]).subarray(0, 8).equals(PNG.subarray(0, 8))).toBe(true);

    // nobody else: another user, anonymous
    expect((await server.fetch(new URL(done.url).pathname, { headers: auth(token.cat) })).status).toBe(404);
    expect((await server.fetch(new URL(done.url).pathname)).status).toBe(403);
    expect((await call(null, "GET", "/api/v1/ext/backups")).body).toEqual([]);
    expect((await call("cat", "GET", "/api/v1/ext/backups")).body).toEqual([]);
  });

  test("a second request within limit_days is refused; the admin's request is logged and prunes the older backup", async () => {
    const again = await call("bob", "POST", "/api/v1/ext/backups");
    expect(again).toEqual({ status: 400, body: { error: "Last export was less than 7 days ago" } });
    const [before] = (await call("bob", "GET", "/api/v1/ext/backups")).body;
    const oldFile = path.join(server.dataDir, "backups", before.file_name);
    expect(fs.existsSync(oldFile)).toBe(true);

    expect(await call("cat", "POST", "/api/v1/ext/admin/backups", { nickname: "bob" })).toEqual({ status: 403, body: { error: "User is not an admin." } });
    expect(await call("ada", "POST", "/api/ext/admin/backups", { nickname: "nobody" })).toMatchObject({ status: 404 });
    expect(await call("ada", "POST", "/api/v1/ext/admin/backups", { nickname: "bob" })).toEqual({ status: 200, body: "" });
    const log = await server.services.db.moderationLogEntry.findFirst({ where: { action: "create_backup" } });
    expect(log?.message).toBe("@ada requested account backup for @bob");

    const list = await processed("bob");
    expect(list).toHaveLength(1);
    expect(list[0].id).not.toBe(before.id);
    expect(fs.existsSync(oldFile)).toBe(false);
    expect(await server.services.db.backup.count({ where: { accountId: id.bob } })).toBe(1);
  });
});
