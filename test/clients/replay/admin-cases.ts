// Replay cases for the admin API calls (admin-fe's src/api/*.js and the web client's admin actions):
// bodies as those clients send them, assertions on the fields their screens read.
import fs from "node:fs";
import path from "node:path";
import { strToU8, zipSync } from "fflate";
import { expect } from "vitest";
import { readMails } from "../../support/mailbox.ts";
import type { Cases } from "./case.ts";
import type { Fixture } from "./fixture.ts";
import { png } from "./fixture.ts";

const A = "/api/v1/pleroma/admin";
const nick = (f: Fixture, id: string) => f.server.services.db.account.findUniqueOrThrow({ where: { id } }).then((a) => a.nickname);
const fresh = async (f: Fixture) => {
  const u = await f.fresh();
  return { id: u.id, nickname: u.nickname, screenName: u.nickname };
};
const account = (f: Fixture, nickname: string) => f.server.services.db.account.findFirstOrThrow({ where: { nickname } });
const user = (u: unknown) => expect(u).toMatchObject({ id: expect.any(String), nickname: expect.any(String), roles: expect.any(Object), is_active: expect.any(Boolean), tags: expect.any(Array) });
const usersPage = (b: { users: unknown[]; count: number; page_size: number }) => {
  expect(b).toMatchObject({ count: expect.any(Number), page_size: expect.any(Number) });
  b.users.forEach(user);
};
const chatMessages = (b: unknown[]) => b.forEach((m) => expect(m).toMatchObject({ id: expect.any(String), chat_id: expect.any(String), account_id: expect.any(String), content: expect.any(String) }));
const invite = (i: unknown) => expect(i).toMatchObject({ id: expect.anything(), token: expect.any(String), used: expect.any(Boolean), uses: expect.any(Number), invite_type: expect.any(String) });

/** admin-fe's users module: the nicknames of the selected users */
const nicknames = (...keys: string[]) => (v: Record<string, string>) => ({ nicknames: keys.map((k) => v[k]) });

export const adminCases: Cases = {
  // app.js
  [`GET ${A}/need_reboot`]: { reads: (b) => expect(b).toEqual({ need_reboot: expect.any(Boolean) }) },
  [`GET ${A}/restart`]: {},

  // chat.js (moderating chats)
  [`GET ${A}/chats/:id`]: {
    setup: async (f) => ({ id: (await f.chat()).chat }),
    reads: (b, v) => expect(b).toMatchObject({ id: v.id, sender: expect.objectContaining({ acct: "alice" }), receiver: expect.objectContaining({ acct: "bob" }) }),
  },
  [`GET ${A}/chats/:id/messages`]: {
    setup: async (f) => {
      const { chat, message } = await f.chat();
      const later = await f.ok("POST", `/api/v1/pleroma/chats/${chat}/messages`, f.alice.token, { content: "a later one" });
      return { id: chat, maxId: later.id, message };
    },
    // with max_id (the next page) the later message is left out
    reads: (b, v) => {
      chatMessages(b);
      expect(b.map((m: { id: string }) => m.id)).toContain(v.message);
      expect(b.some((m: { id: string }) => m.id === v.maxId)).toBe(!v._query!.includes("max_id"));
    },
  },
  [`DELETE ${A}/chats/:chat_id/messages/:message_id`]: {
    setup: async (f) => {
      const { chat, message } = await f.chat();
      return { chat_id: chat, message_id: message };
    },
    reads: async (b, v, f) => {
      expect(b).toMatchObject({ id: v.message_id });
      expect(await f.server.services.db.chatMessage.count({ where: { id: v.message_id } })).toBe(0);
    },
  },
  [`GET ${A}/users/:id/chats`]: {
    setup: async (f) => ({ id: (await f.chat(), f.alice.id) }),
    reads: (b) => expect(b[0]).toMatchObject({ id: expect.any(String), sender: expect.any(Object), receiver: expect.any(Object) }),
  },

  // emojiPacks.js
  [`POST /api/v1/pleroma/emoji/pack`]: {
    setup: async (f) => ({ packName: f.unique("newpack"), name: f.unique("newpack") }),
    reads: (b) => expect(b).toBe("ok"),
  },
  [`DELETE /api/v1/pleroma/emoji/pack`]: {
    setup: async (f) => {
      const name = await f.pack();
      return { packName: name, name };
    },
    reads: (b) => expect(b).toBe("ok"),
  },
  [`GET /api/v1/pleroma/emoji/pack`]: {
    setup: async (f) => ({ packName: await f.pack(), pageSize: "30" }),
    reads: (b, v) => expect(b).toMatchObject({ files: { [`${v.packName}_blob`]: `${v.packName}_blob.png` }, files_count: 1, pack: expect.any(Object) }),
  },
  [`PATCH /api/v1/pleroma/emoji/pack`]: {
    setup: async (f) => {
      const name = await f.pack();
      return { packName: name, name };
    },
    // pack.json's own key names, hyphens included
    json: () => ({ metadata: { description: "blobs", license: "CC0", homepage: "https://example.test", "fallback-src": "", "fallback-src-sha256": "", "share-files": true } }),
    reads: (b) => expect(b).toMatchObject({ description: "blobs", license: "CC0", "share-files": true }),
  },
  [`GET /api/v1/pleroma/emoji/packs`]: {
    setup: async (f) => ({ pack: await f.pack() }),
    reads: (b, v) => {
      expect(b.count).toBeGreaterThan(0);
      expect(b.packs[v.pack]).toMatchObject({ files: expect.any(Object), files_count: 1, pack: expect.any(Object) });
    },
  },
  [`GET /api/v1/pleroma/emoji/packs/import`]: { reads: (b) => expect(b).toEqual(expect.any(Array)) },
  [`GET /api/pleroma/emoji/packs/import`]: { reads: (b) => expect(b).toEqual(expect.any(Array)) },
  [`POST ${A}/reload_emoji`]: { reads: (b) => expect(b).toBe("ok") },
  [`POST /api/pleroma/admin/reload_emoji`]: { reads: (b) => expect(b).toBe("ok") },
  [`POST /api/v1/pleroma/emoji/packs/files`]: {
    setup: async (f) => {
      const name = f.unique("filespack");
      await f.ok("POST", `/api/v1/pleroma/emoji/pack?name=${name}`, f.admin.token);
      return { packName: name, name };
    },
    // admin-fe sends a FormData with shortcode, filename and the file (or a URL)
    multipart: async (v) => {
      const form = new FormData();
      form.set("shortcode", `added_${v.packName}`);
      form.set("filename", "added.png");
      form.set("file", new Blob([await png()], { type: "image/png" }), "added.png");
      return form;
    },
    reads: (b, v) => expect(b).toEqual({ [`added_${v.packName}`]: "added.png" }),
  },
  [`PATCH /api/v1/pleroma/emoji/packs/files`]: {
    setup: async (f) => {
      const name = await f.pack();
      return { packName: name, name };
    },
    json: (v) => ({ shortcode: `${v.packName}_blob`, new_shortcode: "renamed", new_filename: "renamed.png", force: true }),
    reads: (b) => expect(b).toEqual({ renamed: "renamed.png" }),
  },
  [`DELETE /api/v1/pleroma/emoji/packs/files`]: {
    setup: async (f) => {
      const name = await f.pack();
      return { packName: name, name, shortcode: `${name}_blob` };
    },
    // the web client appends `&shortcode=` to the URL its list entry gives as `?name=`
    query: (v) => (v._query!.includes("shortcode") ? "" : `shortcode=${v.shortcode}`),
    reads: (b) => expect(b).toEqual({}),
  },

  // invites.js
  [`POST ${A}/users/invite_token`]: {
    json: () => ({ max_use: 3, expires_at: "2099-01-01" }),
    reads: (b) => {
      invite(b);
      expect(b).toMatchObject({ max_use: 3, used: false });
    },
  },
  [`GET ${A}/users/invites`]: {
    setup: async (f) => ({ token: (await f.ok("POST", `${A}/users/invite_token`, f.admin.token, {})).token }),
    reads: (b, v) => {
      b.invites.forEach(invite);
      expect(b.invites.map((i: { token: string }) => i.token)).toContain(v.token);
    },
  },
  [`POST ${A}/users/revoke_invite`]: {
    setup: async (f) => ({ token: (await f.ok("POST", `${A}/users/invite_token`, f.admin.token, {})).token }),
    json: (v) => ({ token: v.token }),
    reads: (b, v) => expect(b).toMatchObject({ token: v.token, used: true }),
  },

  // mediaProxyCache.js
  [`GET ${A}/media_proxy_caches`]: {
    setup: async (f) => {
      await f.ok("POST", `${A}/media_proxy_caches/purge`, f.admin.token, { urls: ["https://remote.test/banned.png"], ban: true });
      return { query: "banned" };
    },
    reads: (b) => {
      expect(b).toMatchObject({ count: expect.any(Number), page_size: expect.any(Number) });
      expect(b.urls).toContain("https://remote.test/banned.png");
    },
  },
  [`POST ${A}/media_proxy_caches/purge`]: {
    json: () => ({ urls: ["https://remote.test/purged.png"], ban: true }),
    reads: async (b, _v, f) => {
      expect(b).toEqual({});
      expect((await f.ok("GET", `${A}/media_proxy_caches?query=purged`, f.admin.token)).urls).toEqual(["https://remote.test/purged.png"]);
    },
  },
  [`POST ${A}/media_proxy_caches/delete`]: {
    setup: async (f) => (await f.ok("POST", `${A}/media_proxy_caches/purge`, f.admin.token, { urls: ["https://remote.test/unban.png"], ban: true }), {}),
    json: () => ({ urls: ["https://remote.test/unban.png"] }),
    reads: async (b, _v, f) => {
      expect(b).toEqual({});
      expect((await f.ok("GET", `${A}/media_proxy_caches?query=unban`, f.admin.token)).urls).toEqual([]);
    },
  },

  // moderationLog.js
  [`GET ${A}/moderation_log`]: {
    setup: async (f) => (await f.ok("POST", `${A}/users/invite_token`, f.admin.token, {}), {}),
    reads: (b) => {
      expect(b.total).toEqual(expect.any(Number));
      b.items.forEach((i: unknown) => expect(i).toMatchObject({ id: expect.anything(), data: expect.any(Object), message: expect.any(String), time: expect.any(Number) }));
    },
  },

  // nodeInfo.js, peers.js
  [`GET /nodeinfo/2.0.json`]: {
    who: "anon",
    reads: (b) => expect(b).toMatchObject({ software: { name: "pleroma" }, metadata: { features: expect.arrayContaining(["pleroma_api"]), nodeName: expect.any(String) } }),
  },
  [`GET /api/v1/instance/peers`]: { reads: (b) => expect(b).toEqual(expect.any(Array)) },

  // relays.js
  [`GET ${A}/relay`]: { reads: (b) => expect(b).toEqual({ relays: expect.any(Array) }) },

  // reports.js
  [`GET ${A}/reports`]: {
    setup: async (f) => ({ id: await f.report() }),
    reads: (b, v) => {
      expect(b.total).toBeGreaterThan(0);
      const r = b.reports.find((r: { id: string }) => r.id === v.id);
      expect(r).toMatchObject({ state: "open", account: expect.objectContaining({ nickname: "alice" }), actor: expect.objectContaining({ nickname: "bob" }), statuses: [expect.any(Object)], notes: [], content: "spam" });
    },
  },
  [`GET ${A}/reports/:id`]: {
    setup: async (f) => ({ id: await f.report() }),
    reads: (b, v) => expect(b).toMatchObject({ id: v.id, state: "open", account: expect.any(Object), actor: expect.any(Object), statuses: expect.any(Array), notes: [] }),
  },
  [`PATCH ${A}/reports`]: {
    setup: async (f) => ({ id: await f.report() }),
    json: (v) => ({ reports: [{ id: v.id, state: "resolved" }] }),
    status: 204,
    reads: async (_b, v, f) => expect((await f.ok("GET", `${A}/reports/${v.id}`, f.admin.token)).state).toBe("resolved"),
  },
  [`PATCH /api/pleroma/admin/reports`]: {
    setup: async (f) => ({ id: await f.report() }),
    json: (v) => ({ reports: [{ id: v.id, state: "closed" }] }),
    status: 204,
    reads: async (_b, v, f) => expect((await f.ok("GET", `${A}/reports/${v.id}`, f.admin.token)).state).toBe("closed"),
  },
  [`POST ${A}/reports/:reportID/notes`]: {
    setup: async (f) => ({ reportID: await f.report() }),
    json: () => ({ content: "looked at it" }),
    status: 204,
    reads: async (_b, v, f) => expect((await f.ok("GET", `${A}/reports/${v.reportID}`, f.admin.token)).notes).toEqual([expect.objectContaining({ content: "looked at it", user: expect.objectContaining({ nickname: "admin" }) })]),
  },
  [`DELETE ${A}/reports/:reportID/notes/:noteID`]: {
    setup: async (f) => {
      const reportID = await f.report();
      await f.ok("POST", `${A}/reports/${reportID}/notes`, f.admin.token, { content: "to delete" });
      const noteID = (await f.ok("GET", `${A}/reports/${reportID}`, f.admin.token)).notes[0].id;
      return { reportID, noteID: String(noteID) };
    },
    status: 204,
    reads: async (_b, v, f) => expect((await f.ok("GET", `${A}/reports/${v.reportID}`, f.admin.token)).notes).toEqual([]),
  },

  // settings.js
  [`GET ${A}/instance_document/:name`]: {
    // the family answers with the document itself (admin-fe shows it in its editor)
    setup: async () => ({ name: "instance-panel" }),
    reads: (b, _v, _f, reply) => {
      expect(reply.headers.get("content-type")).toContain("text/html");
      expect(b).toContain("<p>");
    },
  },
  [`PATCH ${A}/instance_document/:name`]: {
    setup: async () => ({ name: "terms-of-service" }),
    multipart: async () => {
      const form = new FormData();
      form.set("file", new Blob(["<p>be nice</p>"], { type: "text/html" }), "tos.html");
      return form;
    },
    reads: async (b, _v, f) => {
      expect(b).toMatchObject({ url: expect.stringMatching(/static\/terms-of-service\.html$/) });
      expect(await (await f.server.fetch("/static/terms-of-service.html")).text()).toContain("be nice");
    },
  },
  [`DELETE ${A}/instance_document/:name`]: {
    setup: async () => ({ name: "instance-panel" }),
    reads: (b) => expect(b).toMatchObject({ url: expect.any(String) }),
  },
  [`GET ${A}/config/descriptions`]: {
    reads: (b) => expect(b.find((d: { key: string }) => d.key === ":instance")).toMatchObject({ group: ":pleroma", children: expect.arrayContaining([expect.objectContaining({ key: ":name", type: "string" })]) }),
  },
  [`GET /api/v2/pleroma/admin/config/descriptions`]: {
    reads: (b) => expect(b.find((d: { key: string }) => d.key === ":instance")).toMatchObject({ group: ":pleroma", children: expect.any(Array) }),
  },
  [`GET /api/pleroma/admin/config/descriptions`]: {
    reads: (b) => expect(b.find((d: { key: string }) => d.key === ":instance")).toMatchObject({ group: ":pleroma" }),
  },
  [`GET ${A}/config`]: {
    reads: (b) => {
      expect(b).toMatchObject({ configs: expect.any(Array), need_reboot: expect.any(Boolean) });
      expect(b.configs.find((c: { key: string }) => c.key === ":instance")).toMatchObject({ group: ":pleroma", value: expect.any(Array) });
    },
  },
  [`GET /api/pleroma/admin/config`]: { reads: (b) => expect(b.configs).toEqual(expect.any(Array)) },
  [`POST ${A}/config`]: {
    // updateSettings: the tuple form admin-fe sends; removeSettings sends `delete: true` (replayed in reads)
    json: () => ({ configs: [{ group: ":pleroma", key: ":instance", value: [{ tuple: [":name", "Replayed"] }] }] }),
    reads: async (b, _v, f) => {
      expect(b.configs).toEqual([expect.objectContaining({ group: ":pleroma", key: ":instance", value: expect.arrayContaining([{ tuple: [":name", "Replayed"] }]) })]);
      expect((await f.ok("GET", "/api/v1/instance", f.alice.token)).title).toBe("Replayed");
      const removed = await f.send({ method: "POST", path: `${A}/config`, token: f.admin.token, json: { configs: [{ group: ":pleroma", key: ":instance", delete: true, subkeys: [":name"] }] } });
      expect(removed.status).toBe(200);
      expect((await f.ok("GET", "/api/v1/instance", f.alice.token)).title).not.toBe("Replayed");
    },
  },
  [`POST /api/pleroma/admin/config`]: {
    json: () => ({ configs: [{ group: ":pleroma", key: ":instance", value: [{ tuple: [":description", "replayed by the web client"] }] }] }),
    reads: (b) => expect(b.configs[0]).toMatchObject({ key: ":instance" }),
  },
  [`GET ${A}/frontends`]: {
    reads: (b) => b.forEach((fe: unknown) => expect(fe).toMatchObject({ name: expect.any(String), installed: expect.any(Boolean), ref: expect.any(String), git: expect.any(String) })),
  },
  [`GET /api/pleroma/admin/frontends`]: { reads: (b) => expect(b.map((fe: { name: string }) => fe.name)).toContain("admin-fe") },

  // status.js
  [`GET ${A}/statuses/:id`]: {
    setup: async (f) => ({ id: await f.post(f.alice.token, "admin reads me") }),
    reads: (b, v) => expect(b).toMatchObject({ id: v.id, content: "admin reads me", account: expect.objectContaining({ nickname: "alice" }), visibility: "public" }),
  },
  [`PUT ${A}/statuses/:id`]: {
    setup: async (f) => ({ id: await f.post(f.alice.token, "scope me") }),
    json: () => ({ sensitive: true, visibility: "unlisted" }),
    reads: (b, v) => expect(b).toMatchObject({ id: v.id, sensitive: true, visibility: "unlisted" }),
  },
  [`DELETE ${A}/statuses/:id`]: {
    setup: async (f) => ({ id: await f.post(f.alice.token, "delete me") }),
    reads: async (_b, v, f) => expect((await f.send({ method: "GET", path: `/api/v1/statuses/${v.id}`, token: f.alice.token })).status).toBe(404),
  },
  [`GET ${A}/statuses`]: {
    setup: async (f) => ({ id: await f.post(f.alice.token, "listed by the admin"), localOnly: "true", pageSize: "20" }),
    reads: (b, v) => expect(b.map((s: { id: string }) => s.id)).toContain(v.id),
  },
  [`GET ${A}/stats`]: {
    setup: async (f) => ({ instance: new URL(f.server.url).host }),
    reads: (b) => expect(b.status_visibility).toMatchObject({ public: expect.any(Number), unlisted: expect.any(Number), private: expect.any(Number), direct: expect.any(Number) }),
  },
  [`GET ${A}/instances/:instance/statuses`]: {
    setup: async () => ({ instance: "remote.test" }),
    reads: (b) => expect(b).toMatchObject({ total: 0, activities: [] }),
  },
  [`GET ${A}/users/:id/statuses`]: {
    setup: async (f) => ({ id: (await f.post(f.alice.token, "by alice"), "alice"), godmode: "true" }),
    reads: (b) => {
      expect(b).toMatchObject({ total: expect.any(Number) });
      expect(b.activities.length).toBeGreaterThan(0);
    },
  },

  // users.js
  [`GET ${A}/users`]: {
    // fetchAdmins / fetchModerators / fetchUsers / searchUsers: the filters and query of each screen
    setup: async (f) => ({ query: "ali", filters: "local,active", moderator: (await f.fresh({ moderator: true })).nickname }),
    reads: (b, v) => {
      usersPage(b);
      const names = b.users.map((u: { nickname: string }) => u.nickname);
      if (v._fn === "fetchAdmins") expect(b.users.every((u: { roles: { admin: boolean } }) => u.roles.admin)).toBe(true);
      if (v._fn === "fetchModerators") expect(names).toContain(v.moderator);
      if (v._fn === "searchUsers") expect(names).toEqual(["alice"]);
      expect(names.length).toBeGreaterThan(0);
    },
  },
  [`GET ${A}/users/:id`]: {
    setup: async (f) => ({ id: f.alice.id }),
    reads: (b) => {
      user(b);
      expect(b).toMatchObject({ nickname: "alice", local: true, is_confirmed: true, is_approved: true, actor_type: "Person" });
    },
  },
  [`PATCH ${A}/users/activate`]: {
    setup: async (f) => {
      const u = await fresh(f);
      await f.ok("PATCH", `${A}/users/deactivate`, f.admin.token, { nicknames: [u.nickname] });
      return u;
    },
    json: nicknames("nickname"),
    reads: (b) => expect(b.users[0]).toMatchObject({ is_active: true }),
  },
  [`PATCH /api/pleroma/admin/users/activate`]: {
    setup: async (f) => {
      const u = await fresh(f);
      await f.ok("PATCH", `${A}/users/deactivate`, f.admin.token, { nicknames: [u.nickname] });
      return u;
    },
    json: nicknames("nickname"),
    reads: (b) => expect(b.users[0]).toMatchObject({ is_active: true }),
  },
  [`PATCH ${A}/users/deactivate`]: {
    setup: fresh,
    json: nicknames("nickname"),
    reads: async (b, v, f) => {
      expect(b.users[0]).toMatchObject({ nickname: v.nickname, is_active: false });
      expect((await account(f, v.nickname)).deactivated).toBe(true);
    },
  },
  [`PATCH /api/pleroma/admin/users/deactivate`]: { setup: fresh, json: nicknames("nickname"), reads: (b) => expect(b.users[0]).toMatchObject({ is_active: false }) },
  [`POST ${A}/users/permission_group/:right`]: {
    setup: async (f) => ({ ...(await fresh(f)), right: "moderator" }),
    json: nicknames("nickname"),
    reads: (b) => expect(b).toEqual({ is_moderator: true }),
  },
  [`DELETE ${A}/users/permission_group/:right`]: {
    setup: async (f) => {
      const u = await f.fresh({ moderator: true });
      return { nickname: u.nickname, right: "moderator" };
    },
    json: nicknames("nickname"),
    reads: (b) => expect(b).toEqual({ is_moderator: false }),
  },
  [`POST /api/pleroma/admin/users/:screenName/permission_group/:right`]: {
    setup: async (f) => ({ ...(await fresh(f)), right: "admin" }),
    reads: (b) => expect(b).toEqual({ is_admin: true }),
  },
  [`DELETE /api/pleroma/admin/users/:screenName/permission_group/:right`]: {
    setup: async (f) => {
      const u = await f.fresh({ admin: true });
      return { screenName: u.nickname, right: "admin" };
    },
    reads: (b) => expect(b).toEqual({ is_admin: false }),
  },
  [`POST ${A}/users`]: {
    setup: async (f) => ({ nickname: f.unique("created") }),
    json: (v) => ({ users: [{ nickname: v.nickname, email: `${v.nickname}@example.test`, password: "a-long-password" }] }),
    reads: (b, v) => expect(b).toEqual([{ code: 200, type: "success", data: { nickname: v.nickname, email: `${v.nickname}@example.test` } }]),
  },
  [`DELETE ${A}/users`]: {
    setup: fresh,
    json: nicknames("nickname"),
    reads: (b, v) => expect(b).toEqual([v.nickname]),
  },
  [`DELETE /api/pleroma/admin/users`]: {
    setup: fresh,
    json: nicknames("nickname"),
    reads: (b, v) => expect(b).toEqual([v.nickname]),
  },
  [`PUT ${A}/users/disable_mfa`]: {
    setup: fresh,
    json: (v) => ({ nickname: v.nickname }),
    reads: (b, v) => expect(b).toBe(v.nickname),
  },
  [`GET ${A}/users/:nickname/credentials`]: {
    setup: fresh,
    reads: (b, v) => expect(b).toMatchObject({ nickname: v.nickname, email: `${v.nickname}@example.test`, actor_type: "Person", locked: false }),
  },
  [`PATCH ${A}/users/:nickname/credentials`]: {
    setup: fresh,
    json: () => ({ bio: "set by an admin", name: "Renamed", actor_type: "Service" }),
    reads: async (b, v, f) => {
      expect(b).toEqual({ status: "success" });
      expect(await account(f, v.nickname)).toMatchObject({ displayName: "Renamed" });
    },
  },
  [`GET ${A}/users/:nickname/password_reset`]: {
    setup: fresh,
    reads: (b) => expect(b).toMatchObject({ token: expect.any(String), link: expect.stringContaining("/api/v1/pleroma/password_reset/") }),
  },
  [`PATCH ${A}/users/force_password_reset`]: { setup: fresh, json: nicknames("nickname"), status: 204 },
  [`PUT ${A}/users/tag`]: {
    setup: fresh,
    json: (v) => ({ nicknames: [v.nickname], tags: ["mrf_tag:media-strip"] }),
    status: 204,
    reads: async (_b, v, f) => expect((await f.ok("GET", `${A}/users/${v.nickname}`, f.admin.token)).tags).toEqual(["mrf_tag:media-strip"]),
  },
  [`DELETE ${A}/users/tag`]: {
    setup: async (f) => {
      const u = await fresh(f);
      await f.ok("PUT", `${A}/users/tag`, f.admin.token, { nicknames: [u.nickname], tags: ["x"] });
      return u;
    },
    json: (v) => ({ nicknames: [v.nickname], tags: ["x"] }),
    status: 204,
    reads: async (_b, v, f) => expect((await f.ok("GET", `${A}/users/${v.nickname}`, f.admin.token)).tags).toEqual([]),
  },
  [`PUT /api/pleroma/admin/users/tag`]: { setup: fresh, json: (v) => ({ nicknames: [v.nickname], tags: ["force_nsfw"] }), status: 204 },
  [`DELETE /api/pleroma/admin/users/tag`]: { setup: fresh, json: (v) => ({ nicknames: [v.nickname], tags: ["force_nsfw"] }), status: 204 },
  [`PATCH ${A}/users/approve`]: {
    setup: fresh,
    json: nicknames("nickname"),
    reads: (b) => expect(b.users[0]).toMatchObject({ is_approved: true }),
  },
  [`PATCH ${A}/users/confirm_email`]: {
    setup: fresh,
    json: nicknames("nickname"),
    reads: (b, v) => expect(b).toEqual([v.nickname]),
  },
  [`PATCH ${A}/users/resend_confirmation_email`]: {
    setup: fresh,
    json: nicknames("nickname"),
    reads: (b, v) => expect(b).toEqual([v.nickname]),
  },

  [`POST ${A}/users/email_invite`]: {
    // the family's rule: e-mail invitations only when registrations are closed and invites enabled
    setup: async (f) => {
      await f.setting("instance", "registrations_open", false);
      await f.setting("instance", "invites_enabled", true);
      return {};
    },
    json: () => ({ email: "friend@example.test", name: "Friend" }),
    status: 204,
    reads: async (_b, _v, f) => {
      await f.setting("instance", "registrations_open", true);
      await f.setting("instance", "invites_enabled", false);
      expect(readMails(f.server.dataDir).filter((m) => m.to.includes("friend@example.test"))).toHaveLength(1);
    },
  },
  [`DELETE ${A}/relay`]: {
    setup: async (f) => {
      await f.server.services.db.relay.create({ data: { id: "01relayreplay0000000000000", actor: "https://relay.remote.test/actor", state: "accepted" } });
      return {};
    },
    json: () => ({ relay_url: "https://relay.remote.test/actor" }),
    reads: async (b, _v, f) => {
      expect(b).toBe("https://relay.remote.test/actor");
      expect((await f.ok("GET", `${A}/relay`, f.admin.token)).relays).toEqual([]);
    },
  },
  [`POST ${A}/frontends/install`]: {
    setup: installable,
    // admin-fe's install dialog: name, and optionally ref, file, build_url, build_dir
    json: (v) => ({ name: "pleroma-fe", file: v.file }),
    reads: (b) => expect(b.find((fe: { name: string }) => fe.name === "pleroma-fe")).toMatchObject({ installed: true }),
  },
  [`POST /api/pleroma/admin/frontends/install`]: {
    setup: installable,
    json: (v) => ({ name: "fedi-fe", ref: "replayed", file: v.file }),
    reads: (b) => expect(b).toEqual(expect.any(Array)),
  },

  // the web client's announcements admin
  [`GET ${A}/announcements`]: {
    setup: async (f) => ({ id: (await f.ok("POST", `${A}/announcements`, f.admin.token, { content: "listed" })).id }),
    reads: (b, v) => expect(b.find((a: { id: string }) => a.id === v.id)).toMatchObject({ content: expect.stringContaining("listed"), pleroma: expect.objectContaining({ raw_content: "listed" }) }),
  },
  [`POST ${A}/announcements`]: {
    json: () => ({ content: "hello everyone", starts_at: null, ends_at: null, all_day: false }),
    reads: (b) => expect(b).toMatchObject({ id: expect.any(String), content: expect.stringContaining("hello everyone"), all_day: false }),
  },
  [`PATCH ${A}/announcements/:id`]: {
    setup: async (f) => ({ id: (await f.ok("POST", `${A}/announcements`, f.admin.token, { content: "before" })).id }),
    json: () => ({ content: "after" }),
    reads: (b) => expect(b.content).toContain("after"),
  },
  [`DELETE ${A}/announcements/:id`]: {
    setup: async (f) => ({ id: (await f.ok("POST", `${A}/announcements`, f.admin.token, { content: "gone" })).id }),
  },
};
void nick;

/** a frontend build on the server's disk, as `file` of the install call */
async function installable(f: Fixture) {
  const file = path.join(f.server.dataDir, `${f.unique("fe")}.zip`);
  fs.writeFileSync(file, zipSync({ "dist/index.html": strToU8("<!doctype html><title>replayed fe</title>") }));
  return { file };
}
