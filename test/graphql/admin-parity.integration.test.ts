// The GraphQL counterparts added for parity with the admin REST API (issue 15, criterion 1): each answers
// what its REST route answers for the same data, is refused where the route refuses, and its changes are
// the REST operation's (state, files, moderation log).
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { newId } from "../../src/db/ids.ts";
import { ADMIN_TOKEN, adminFixture, type AdminFixture } from "../rest/admin-users-helpers.ts";
import { packsDir, PNG } from "../rest/emoji-helpers.ts";

describe("GraphQL admin parity fields on postgres", () => {
  let f: AdminFixture;
  const gql = (query: string, variables?: Record<string, unknown>, token: string | null = f.tokens.admin) =>
    f.server.fetch("/graphql", { json: { query, variables }, headers: token ? { authorization: `Bearer ${token}` } : {} }).then((r) => r.json() as Promise<any>);
  const ok = async (query: string, variables?: Record<string, unknown>, token?: string | null) => {
    const r = await gql(query, variables, token);
    expect(r.errors, JSON.stringify(r.errors)).toBeUndefined();
    return r.data;
  };
  const rest = (token: string, method: string, p: string, json?: unknown) =>
    f.server.fetch(p, { method, headers: { authorization: `Bearer ${token}` }, ...(json !== undefined ? { json } : {}) }).then((r) => r.json() as Promise<any>);

  beforeAll(async () => {
    f = await adminFixture("postgres");
  });
  afterAll(() => f?.server.close());

  test("adminUserCredentials and adminPermissionGroups read what the REST routes read; permission groups are admin-only", async () => {
    await f.call("PATCH", "/users/plain/credentials", { body: { name: "Plain Person", bio: "hello" } });
    const restCredentials = await (await f.call("GET", "/users/plain/credentials")).json();
    const { adminUserCredentials } = await ok('{ adminUserCredentials(nickname: "plain") { nickname email name bio locked } }');
    expect(adminUserCredentials).toEqual({ nickname: "plain", email: restCredentials.email, name: "Plain Person", bio: "hello", locked: restCredentials.locked });
    // the stored images, which the admin UI's form edits (REST shows the default avatar where none is stored)
    await f.call("PATCH", "/users/plain/credentials", { body: { banner: "https://cdn.example/b.png" } });
    const images = (await ok('{ adminUserCredentials(nickname: "plain") { avatar banner background } }')).adminUserCredentials;
    expect(images).toEqual({ avatar: null, banner: "https://cdn.example/b.png", background: null });
    expect((await (await f.call("GET", "/users/plain/credentials")).json()).banner).toContain("cdn.example/b.png");

    const groups = await ok('{ adminPermissionGroups(nickname: "mod") { isAdmin isModerator } }');
    expect(groups.adminPermissionGroups).toEqual({ isAdmin: false, isModerator: true });
    const refused = await gql('{ adminPermissionGroups(nickname: "mod") { isAdmin } }', {}, f.tokens.moderator);
    expect(refused.errors[0].message).toMatch(/not authorized/i);
  });

  test("adminRules is the admin read of the rules", async () => {
    await f.call("POST", "/rules", { body: { text: "Be kind" } });
    expect((await ok("{ adminRules { text } }")).adminRules).toEqual([{ text: "Be kind" }]);
    expect((await gql("{ adminRules { text } }", {}, f.tokens.plain)).errors[0].message).toMatch(/not authorized/i);
  });

  test("adminGroupedReports groups reports by status as GET /grouped_reports does", async () => {
    const status = await rest(f.tokens.plain, "POST", "/api/v1/statuses", { status: "reported words" });
    const account = await rest(f.tokens.plain, "GET", "/api/v1/accounts/verify_credentials");
    await rest(f.tokens.moderator, "POST", "/api/v1/reports", { account_id: account.id, status_ids: [status.id], comment: "one" });
    await rest(f.tokens.admin, "POST", "/api/v1/reports", { account_id: account.id, status_ids: [status.id], comment: "two" });
    const { adminGroupedReports } = await ok("{ adminGroupedReports { statusId status { id } actors { nickname } reports { content } } }");
    expect(adminGroupedReports).toHaveLength(1);
    expect(adminGroupedReports[0]).toMatchObject({ statusId: status.id, status: { id: status.id } });
    expect(adminGroupedReports[0].actors.map((a: any) => a.nickname).sort()).toEqual(["mod", "root"]);
    expect(adminGroupedReports[0].reports.map((r: any) => r.content).sort()).toEqual(["one", "two"]);
    const restGroups = await (await f.call("GET", "/grouped_reports")).json();
    expect(restGroups.reports).toHaveLength(1);
  });

  test("admin chats: a user's chats, one chat, its messages, and deleting a message for both sides (logged)", async () => {
    const rootAccount = await rest(f.tokens.admin, "GET", "/api/v1/accounts/verify_credentials");
    const chat = (await ok("mutation($a: ID!) { openChat(accountId: $a) { id } }", { a: rootAccount.id }, f.tokens.plain)).openChat;
    const sent = (await ok('mutation($c: ID!) { sendChatMessage(chatId: $c, content: "psst") { id } }', { c: chat.id }, f.tokens.plain)).sendChatMessage;

    const chats = (await ok('{ adminUserChats(nickname: "plain") { id owner { nickname } account { nickname } } }')).adminUserChats;
    expect(chats).toEqual([{ id: chat.id, owner: { nickname: "plain" }, account: { nickname: "root" } }]);
    expect((await ok("query($id: ID!) { adminChat(id: $id) { id } }", { id: chat.id })).adminChat).toEqual({ id: chat.id });
    const messages = (await ok("query($id: ID!) { adminChatMessages(chatId: $id, first: 10) { edges { node { id content } } } }", { id: chat.id })).adminChatMessages.edges;
    expect(messages.map((e: any) => e.node)).toEqual([{ id: sent.id, content: "psst" }]);

    const plainRefused = await gql("query($id: ID!) { adminChat(id: $id) { id } }", { id: chat.id }, f.tokens.plain);
    expect(plainRefused.errors[0].message).toMatch(/not authorized/i);

    const deleted = (await ok("mutation($c: ID!, $m: ID!) { adminDeleteChatMessage(chatId: $c, messageId: $m) { id } }", { c: chat.id, m: sent.id })).adminDeleteChatMessage;
    expect(deleted).toEqual({ id: sent.id });
    expect(await f.db.chatMessage.count()).toBe(0);
    expect((await f.messages())[0]).toMatch(/deleted chat message/i);
  });

  test("emoji pack files: upload (multipart), rename, delete, and importing folders copied onto the disk", async () => {
    await ok('mutation { createEmojiPack(name: "parity") { name } }');
    const form = new FormData();
    form.set("operations", JSON.stringify({ query: 'mutation($file: File) { addEmoji(pack: "parity", file: $file, shortcode: "dot") { shortcode filename } }', variables: { file: null } }));
    form.set("map", JSON.stringify({ 0: ["variables.file"] }));
    form.set("0", new Blob([PNG], { type: "image/png" }), "dot.png");
    const uploaded = await (await f.server.fetch("/graphql", { method: "POST", body: form, headers: { authorization: `Bearer ${f.tokens.admin}` } })).json();
    expect(uploaded).toEqual({ data: { addEmoji: [{ shortcode: "dot", filename: "dot.png" }] } });
    expect(fs.readFileSync(path.join(packsDir(f.server), "parity", "dot.png"))).toEqual(PNG);

    const renamed = await ok('mutation { renameEmoji(pack: "parity", shortcode: "dot", newShortcode: "spot", newFilename: "spot.png") { shortcode filename } }');
    expect(renamed.renameEmoji).toEqual([{ shortcode: "spot", filename: "spot.png" }]);
    expect(fs.existsSync(path.join(packsDir(f.server), "parity", "spot.png"))).toBe(true);
    const refused = await gql('mutation { deleteEmoji(pack: "parity", shortcode: "spot") { shortcode } }', {}, f.tokens.plain);
    expect(refused.errors[0].message).toMatch(/not authorized/i);
    expect((await ok('mutation { deleteEmoji(pack: "parity", shortcode: "spot") { shortcode } }')).deleteEmoji).toEqual([]);
    expect(fs.existsSync(path.join(packsDir(f.server), "parity", "spot.png"))).toBe(false);

    fs.mkdirSync(path.join(packsDir(f.server), "copied"), { recursive: true });
    fs.writeFileSync(path.join(packsDir(f.server), "copied", "wave.png"), PNG);
    expect((await ok("mutation { importEmojiPacks }")).importEmojiPacks).toEqual(["copied"]);
    expect(fs.existsSync(path.join(packsDir(f.server), "copied", "pack.json"))).toBe(true);
  });

  test("the admin token passes the same guards over GraphQL", async () => {
    const r = await f.server.fetch("/graphql", { json: { query: '{ adminPermissionGroups(nickname: "root") { isAdmin } }' }, headers: { "x-admin-token": ADMIN_TOKEN } });
    expect(await r.json()).toEqual({ data: { adminPermissionGroups: { isAdmin: true } } });
  });

  test("adminActivity counts statuses (local, remote) and local sign-ups per UTC day, in a constant number of queries", async () => {
    const Q = "query($d: Int) { adminActivity(days: $d) { day localStatuses remoteStatuses signups } }";
    const today = new Date().toISOString().slice(0, 10);
    const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000);
    const before = (await ok(Q, { d: 3 })).adminActivity;
    expect(before.map((d: any) => d.day)).toEqual([new Date(Date.now() - 2 * 86_400_000), new Date(Date.now() - 86_400_000), new Date()].map((d) => d.toISOString().slice(0, 10)));

    const first = await rest(f.tokens.plain, "POST", "/api/v1/statuses", { status: "activity one" });
    await rest(f.tokens.plain, "POST", "/api/v1/statuses", { status: "activity two", visibility: "direct" });
    await rest(f.tokens.plain, "POST", "/api/v1/statuses", { status: "activity three" });
    // one of them is dated two days back (as an imported or backdated status would be)
    await f.db.status.update({ where: { id: first.id }, data: { createdAt: twoDaysAgo } });
    await f.call("POST", "/users", { body: { users: [{ nickname: "newbie", email: "newbie@example.test", password: "long enough password" }] } });
    const visitor = await f.remoteUser("visitor"); // a remote account is no sign-up
    // a status received from another instance (as the inbox stores one)
    await f.db.status.create({ data: { id: newId(), uri: "https://remote.example/objects/1", accountId: visitor.id, context: "https://remote.example/contexts/1", content: "from afar", local: false } });

    const after = (await ok(Q, { d: 3 })).adminActivity;
    const diff = after.map((d: any, i: number) => ({ day: d.day, local: d.localStatuses - before[i].localStatuses, remote: d.remoteStatuses - before[i].remoteStatuses, signups: d.signups - before[i].signups }));
    expect(diff).toEqual([
      { day: twoDaysAgo.toISOString().slice(0, 10), local: 1, remote: 0, signups: 0 },
      { day: expect.any(String), local: 0, remote: 0, signups: 0 },
      { day: today, local: 2, remote: 1, signups: 1 },
    ]);

    const short = await f.server.countQueries(() => ok(Q, { d: 3 }));
    const long = await f.server.countQueries(() => ok(Q, { d: 90 }));
    expect(long.result.adminActivity).toHaveLength(90);
    expect(long.queries).toBe(short.queries);

    expect((await gql(Q, { d: 3 }, f.tokens.plain)).errors[0].message).toMatch(/not authorized/i);
    expect((await gql(Q, { d: 365 })).errors[0].message).toMatch(/90/);
  });
});
