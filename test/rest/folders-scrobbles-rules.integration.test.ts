// The family's bookmark folders, scrobbles, birthdays and the admin API's instance rules (issue 18,
// routes the family's clients call), under the pleroma profile.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { suiteKinds } from "../support/databases.ts";
import { bearer, cast } from "../support/actors.ts";
import { passwordToken, startTestServer, type TestServer } from "../support/server.ts";

describe.each(suiteKinds(import.meta.url))("bookmark folders, scrobbles, birthdays, rules (%s)", (kind) => {
  let server: TestServer;
  const tokens: Record<string, string> = {};
  const call = async (who: string | null, method: string, path: string, json?: unknown) => {
    const res = await server.fetch(path, { method, ...(json !== undefined ? { json } : {}), headers: who ? bearer(tokens[who]!) : {} });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  const ids = (list: { id: string }[]) => list.map((x) => x.id);

  beforeAll(async () => {
    server = await startTestServer(kind, { API_NAMESPACE: "pleroma", API_FAMILY: "pleroma" });
    Object.assign(tokens, (await cast(server, { boss: { admin: true }, ann: {}, bob: {}, cat: {} })).token);
    tokens.annRead = (await passwordToken(server, "ann", "read")).access_token;
  });
  afterAll(() => server?.close());

  test("bookmark folders: create, list, rename, file bookmarks, list one folder, delete (bookmarks stay)", async () => {
    const music = await call("ann", "POST", "/api/v1/pleroma/bookmark_folders", { name: "Music", emoji: "🎵" });
    expect(music).toMatchObject({ status: 200, body: { id: expect.any(String), name: "Music", emoji: "🎵", emoji_url: null } });
    const later = (await call("ann", "POST", "/api/v1/pleroma/bookmark_folders", { name: "Later" })).body;
    expect(later).toMatchObject({ name: "Later", emoji: null });
    expect((await call("ann", "POST", "/api/v1/pleroma/bookmark_folders", { name: "Music" })).status).toBe(409);
    expect((await call("ann", "POST", "/api/v1/pleroma/bookmark_folders", { name: "Bad", emoji: "not an emoji" })).status).toBe(422);
    expect((await call("ann", "GET", "/api/v1/pleroma/bookmark_folders")).body.map((f: { name: string }) => f.name)).toEqual(["Music", "Later"]);
    expect((await call("bob", "GET", "/api/v1/pleroma/bookmark_folders")).body).toEqual([]);

    const post = async (text: string) => (await call("bob", "POST", "/api/v1/statuses", { status: text })).body.id as string;
    const [song, essay, misc] = [await post("a song"), await post("an essay"), await post("misc")];
    const filed = await call("ann", "POST", `/api/v1/statuses/${song}/bookmark`, { folder_id: music.body.id });
    expect(filed.body).toMatchObject({ bookmarked: true, pleroma: { bookmark_folder: music.body.id } });
    await call("ann", "POST", `/api/v1/statuses/${essay}/bookmark`, { folder_id: later.id });
    await call("ann", "POST", `/api/v1/statuses/${misc}/bookmark`);
    expect((await call("ann", "GET", `/api/v1/statuses/${misc}`)).body.pleroma.bookmark_folder).toBeNull();
    // someone else's folder is not found
    expect((await call("bob", "POST", `/api/v1/statuses/${misc}/bookmark`, { folder_id: music.body.id })).status).toBe(404);

    expect(ids((await call("ann", "GET", `/api/v1/bookmarks?folder_id=${music.body.id}`)).body)).toEqual([song]);
    expect(ids((await call("ann", "GET", "/api/v1/bookmarks")).body)).toEqual([misc, essay, song]);
    // bookmarking again into another folder moves it
    await call("ann", "POST", `/api/v1/statuses/${essay}/bookmark`, { folder_id: music.body.id });
    expect(ids((await call("ann", "GET", `/api/v1/bookmarks?folder_id=${music.body.id}`)).body)).toEqual([essay, song]);

    const renamed = await call("ann", "PATCH", `/api/v1/pleroma/bookmark_folders/${later.id}`, { name: "Someday", emoji: "⏳" });
    expect(renamed.body).toMatchObject({ id: later.id, name: "Someday", emoji: "⏳" });
    expect((await call("bob", "PATCH", `/api/v1/pleroma/bookmark_folders/${later.id}`, { name: "Mine" })).status).toBe(404);
    expect((await call("annRead", "POST", "/api/v1/pleroma/bookmark_folders", { name: "Nope" })).status).toBe(403);

    const deleted = await call("ann", "DELETE", `/api/v1/pleroma/bookmark_folders/${music.body.id}`);
    expect(deleted.body).toMatchObject({ id: music.body.id, name: "Music" });
    expect(ids((await call("ann", "GET", "/api/v1/bookmarks")).body)).toEqual([misc, essay, song]);
    expect(await server.services.db.bookmark.count({ where: { folderId: { not: null } } })).toBe(0);
    expect((await call("ann", "GET", "/api/v1/pleroma/bookmark_folders")).body.map((f: { name: string }) => f.name)).toEqual(["Someday"]);
  });

  test("scrobbles: recorded with a visibility, listed as it allows, newest first", async () => {
    const listen = await call("cat", "POST", "/api/v1/pleroma/scrobble", { title: "Song A", artist: "Band", album: "LP", length: 180000, externalLink: "https://music.example/a" });
    expect(listen).toMatchObject({
      status: 200,
      body: { id: expect.any(String), title: "Song A", artist: "Band", album: "LP", length: 180000, externalLink: "https://music.example/a", account: expect.objectContaining({ acct: "cat" }) },
    });
    const secret = (await call("cat", "POST", "/api/v1/pleroma/scrobble", { title: "Guilty pleasure", visibility: "private" })).body;
    expect((await call("cat", "POST", "/api/v1/pleroma/scrobble", {})).status).toBe(400);

    const cat = (await call(null, "GET", "/api/v1/accounts/cat")).body;
    expect(ids((await call(null, "GET", `/api/v1/pleroma/accounts/${cat.id}/scrobbles`)).body)).toEqual([listen.body.id]);
    expect(ids((await call("cat", "GET", `/api/v1/pleroma/accounts/${cat.id}/scrobbles`)).body)).toEqual([secret.id, listen.body.id]);
    await call("bob", "POST", `/api/v1/accounts/${cat.id}/follow`);
    expect(ids((await call("bob", "GET", `/api/v1/pleroma/accounts/cat/scrobbles`)).body)).toEqual([secret.id, listen.body.id]);
    expect(ids((await call("cat", "GET", `/api/v1/pleroma/accounts/${cat.id}/scrobbles?limit=1`)).body)).toEqual([secret.id]);
    expect((await call(null, "GET", "/api/v1/pleroma/accounts/nobody/scrobbles")).status).toBe(404);
  });

  test("birthdays: set through update_credentials, shown when allowed, listed for followers on the day", async () => {
    const set = await call("bob", "PATCH", "/api/v1/accounts/update_credentials", { birthday: "1990-03-14", show_birthday: true });
    expect(set.status).toBe(200);
    expect(set.body.pleroma.birthday).toBe("1990-03-14");
    expect(set.body.source.pleroma.show_birthday).toBe(true);
    await call("cat", "PATCH", "/api/v1/accounts/update_credentials", { birthday: "1985-03-14" }); // not shown
    expect((await call("ann", "GET", "/api/v1/accounts/cat")).body.pleroma.birthday).toBeNull();
    expect((await call("cat", "GET", "/api/v1/accounts/verify_credentials")).body.pleroma.birthday).toBe("1985-03-14");
    expect((await call("bob", "PATCH", "/api/v1/accounts/update_credentials", { birthday: "not a date" })).status).toBe(400);

    const bob = (await call(null, "GET", "/api/v1/accounts/bob")).body;
    const cat = (await call(null, "GET", "/api/v1/accounts/cat")).body;
    for (const id of [bob.id, cat.id]) await call("ann", "POST", `/api/v1/accounts/${id}/follow`);
    const today = await call("ann", "GET", "/api/v1/pleroma/birthdays?day=14&month=3");
    expect(today.status).toBe(200);
    expect(today.body.map((a: { acct: string }) => a.acct)).toEqual(["bob"]);
    expect((await call("ann", "GET", "/api/v1/pleroma/birthdays?day=15&month=3")).body).toEqual([]);
    expect((await call("cat", "GET", "/api/v1/pleroma/birthdays?day=14&month=3")).body).toEqual([]); // cat follows nobody
    expect((await call("ann", "GET", "/api/v1/pleroma/birthdays?day=40&month=3")).status).toBe(400);

    await call("bob", "PATCH", "/api/v1/accounts/update_credentials", { birthday: "" });
    expect((await call("ann", "GET", "/api/v1/pleroma/birthdays?day=14&month=3")).body).toEqual([]);
  });

  test("rules: admins create, list by priority, change and delete them; the instance shows them", async () => {
    const A = "/api/v1/pleroma/admin/rules";
    const second = await call("boss", "POST", A, { text: "No spam", hint: "Ads count", priority: 2 });
    expect(second).toMatchObject({ status: 200, body: { id: expect.any(String), text: "No spam", hint: "Ads count", priority: 2 } });
    const first = (await call("boss", "POST", A, { text: "Be kind", priority: 1 })).body;
    expect((await call("boss", "POST", A, { hint: "no text" })).status).toBe(400);
    expect((await call("ann", "POST", A, { text: "mine" })).status).toBe(403);
    expect((await call("boss", "GET", A)).body.map((r: { text: string }) => r.text)).toEqual(["Be kind", "No spam"]);

    const changed = await call("boss", "PATCH", `${A}/${first.id}`, { priority: 3, hint: "Really" });
    expect(changed.body).toEqual({ id: first.id, text: "Be kind", hint: "Really", priority: 3 });
    expect((await call(null, "GET", "/api/v1/instance")).body.rules).toEqual([
      { id: second.body.id, text: "No spam", hint: "Ads count" },
      { id: first.id, text: "Be kind", hint: "Really" },
    ]);
    expect(await call("boss", "DELETE", `${A}/${second.body.id}`)).toEqual({ status: 200, body: {} });
    expect((await call("boss", "DELETE", `${A}/${second.body.id}`)).status).toBe(404);
    expect((await call("boss", "PATCH", `${A}/999999`, { text: "x" })).status).toBe(404);
    expect((await call("boss", "GET", A)).body.map((r: { id: string }) => r.id)).toEqual([first.id]);
  });

  test("GraphQL: rules, bookmark folders, app settings and scrobbles call the same operations", async () => {
    const gql = async (who: string | null, query: string, variables: Record<string, unknown> = {}) =>
      (await server.fetch("/graphql", { json: { query, variables }, headers: who ? bearer(tokens[who]!) : {} })).json();
    const rule = await gql("boss", 'mutation { createRule(text: "Via GraphQL", priority: 9) { id text hint priority } }');
    expect(rule.data.createRule).toMatchObject({ text: "Via GraphQL", hint: "", priority: 9 });
    expect((await gql("ann", 'mutation { createRule(text: "nope") { id } }')).errors.length).toBeGreaterThan(0);
    expect((await gql(null, "{ instanceRules { text } }")).data.instanceRules.map((r: { text: string }) => r.text)).toContain("Via GraphQL");
    expect((await gql("boss", `mutation { deleteRule(id: "${rule.data.createRule.id}") }`)).data.deleteRule).toBe(true);

    const folder = await gql("cat", 'mutation { createBookmarkFolder(name: "GQL", emoji: "📌") { id name emoji emojiUrl } }');
    expect(folder.data.createBookmarkFolder).toMatchObject({ name: "GQL", emoji: "📌", emojiUrl: null });
    expect((await gql("cat", "{ bookmarkFolders { name } }")).data.bookmarkFolders).toEqual([{ name: "GQL" }]);
    expect((await gql("cat", `mutation { deleteBookmarkFolder(id: "${folder.data.createBookmarkFolder.id}") { name } }`)).data.deleteBookmarkFolder).toEqual({ name: "GQL" });

    const set = await gql("cat", 'mutation($s: String!) { updateAppSettings(app: "gql_fe", settingsJson: $s) }', { s: JSON.stringify({ a: 1 }) });
    expect(JSON.parse(set.data.updateAppSettings)).toEqual({ a: 1 });
    expect(JSON.parse((await gql("cat", '{ appSettingsJson(app: "gql_fe") }')).data.appSettingsJson)).toEqual({ a: 1 });

    const listened = await gql("cat", 'mutation { scrobble(title: "GQL song") { id title account { id } } }');
    expect(listened.data.scrobble.title).toBe("GQL song");
    const read = await gql(null, `{ scrobbles(accountId: "${listened.data.scrobble.account.id}", limit: 1) { title } }`);
    expect(read.data.scrobbles).toEqual([{ title: "GQL song" }]);
  });
});
