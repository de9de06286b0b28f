import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { newId } from "../../src/db/ids.ts";
import { suiteKinds } from "../support/databases.ts";
import { passwordToken, startTestServer, type TestServer } from "../support/server.ts";

const PNG = fs.readFileSync("src/media/assets/avi.png");
const auth = (token: string) => ({ authorization: `Bearer ${token}` });

describe.each(suiteKinds(import.meta.url))("accounts on %s", (kind) => {
  let server: TestServer;
  let alice: { access_token: string };
  let bob: { access_token: string };
  let ids: Record<string, string>;

  const follow = (followerId: string, followingId: string) =>
    server.services.db.follow.create({ data: { id: newId(), followerId, followingId, state: "accept" } });

  beforeAll(async () => {
    server = await startTestServer(kind, { CONFIGURABLE_FROM_DATABASE: "true" });
    ids = {};
    for (const nick of ["alice", "bob", "carol", "dave"]) ids[nick] = (await server.createUser(nick)).id;
    alice = await passwordToken(server, "alice");
    bob = await passwordToken(server, "bob");
  });
  afterAll(() => server?.close());

  test("verify_credentials: source, the <ns> additions with private ones, and the family object", async () => {
    const res = await server.fetch("/api/v1/accounts/verify_credentials", { headers: auth(alice.access_token) });
    expect(res.status).toBe(200);
    const me = await res.json();
    expect(me).toMatchObject({ id: ids.alice, username: "alice", acct: "alice", locked: false, bot: false, followers_count: 0, url: "http://localhost:4000/users/alice" });
    expect(me.avatar).toBe("http://localhost:4000/images/avi.png");
    expect(me.source).toMatchObject({ note: "", fields: [], privacy: "public", ext: { show_role: true, no_rich_text: false, discoverable: true, actor_type: "Person" } });
    expect(me.ext).toMatchObject({
      ap_id: "http://localhost:4000/users/alice",
      settings_store: {},
      notification_settings: { block_from_strangers: false, hide_notification_contents: false },
      unread_conversation_count: 0,
      unread_notifications_count: 0,
      is_admin: false,
      hide_followers: false,
      deactivated: false,
    });
    expect(me.own).toEqual({ instance: null, status_ttl_days: null, permit_followback: false, web_feed: null });
    expect((await server.fetch("/api/v1/accounts/verify_credentials")).status).toBe(403);
  });

  test("verify_credentials counts the owner's pending follow requests and unread, unfiltered notifications", async () => {
    // accounts of its own: the other tests follow between alice, bob, carol and dave
    const [gil, hal, ivy, jo] = await Promise.all(["gil", "hal", "ivy", "jo"].map(async (nick) => (await server.createUser(nick)).id));
    const gilToken = await passwordToken(server, "gil");
    const me = async () => (await server.fetch("/api/v1/accounts/verify_credentials", { headers: auth(gilToken.access_token) })).json();
    expect((await me()).source.follow_requests_count).toBe(0);
    const db = server.services.db;
    await db.follow.create({ data: { id: newId(), followerId: hal, followingId: gil, state: "pending" } });
    await db.follow.create({ data: { id: newId(), followerId: ivy, followingId: gil, state: "pending" } });
    await db.follow.create({ data: { id: newId(), followerId: jo, followingId: gil, state: "accept" } });
    const notification = (seen: boolean, filtered: boolean) =>
      db.notification.create({ data: { id: newId(), accountId: gil, fromAccountId: jo, type: "follow", seen, filtered } });
    await notification(false, false);
    await notification(false, false);
    await notification(true, false);
    await notification(false, true);
    const counted = await me();
    expect(counted.source.follow_requests_count).toBe(2);
    expect(counted.ext.unread_notifications_count).toBe(2);
    expect(counted.followers_count).toBe(1);
  });

  test("update_credentials round trip: text, fields, flags, settings store per frontend", async () => {
    const patch = (json: unknown) => server.fetch("/api/v1/accounts/update_credentials", { method: "PATCH", json, headers: auth(alice.access_token) });
    let res = await patch({
      display_name: "Alice A.",
      note: "hello <b>world</b>\nline two",
      locked: true,
      fields_attributes: { "0": { name: "site", value: "https://a.example" }, "1": { name: "pronouns", value: "she/her" } },
      hide_followers: "true",
      default_scope: "unlisted",
      also_known_as: ["https://old.example/users/alice"],
      ext_settings_store: { "pleroma-fe": { theme: "dark" }, other: { x: 1 } },
    });
    expect(res.status).toBe(200);
    let me = await res.json();
    expect(me).toMatchObject({ display_name: "Alice A.", locked: true, note: "hello &#60;b&#62;world&#60;/b&#62;<br/>line two" });
    expect(me.fields).toEqual([
      { name: "site", value: "https://a.example", verified_at: null },
      { name: "pronouns", value: "she/her", verified_at: null },
    ]);
    expect(me.source).toMatchObject({ note: "hello <b>world</b>\nline two", privacy: "unlisted" });
    expect(me.ext).toMatchObject({ hide_followers: true, also_known_as: ["https://old.example/users/alice"], settings_store: { "pleroma-fe": { theme: "dark" }, other: { x: 1 } } });

    // a second store write replaces only the named frontend
    res = await patch({ ext_settings_store: { "pleroma-fe": { theme: "light" } } });
    me = await res.json();
    expect(me.ext.settings_store).toEqual({ "pleroma-fe": { theme: "light" }, other: { x: 1 } });
    const row = await server.services.db.account.findUniqueOrThrow({ where: { id: ids.alice } });
    expect(row).toMatchObject({ displayName: "Alice A.", locked: true, hideFollowers: true, defaultScope: "unlisted", settingsStore: { "pleroma-fe": { theme: "light" }, other: { x: 1 } } });
  });

  test("update_credentials refuses bad values in the validator's shape and changes nothing", async () => {
    const before = await server.services.db.account.findUniqueOrThrow({ where: { id: ids.bob } });
    const res = await server.fetch("/api/v1/accounts/update_credentials", { method: "PATCH", json: { actor_type: "Application", display_name: "nope" }, headers: auth(bob.access_token) });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toBe("actor_type - Invalid value for enum.");
    expect(await server.services.db.account.findUniqueOrThrow({ where: { id: ids.bob } })).toEqual(before);
    const many = await server.fetch("/api/v1/accounts/update_credentials", {
      method: "PATCH",
      json: { fields_attributes: Array.from({ length: 11 }, (_, i) => ({ name: `n${i}`, value: "v" })) },
      headers: auth(bob.access_token),
    });
    expect(many.status).toBe(400);
    expect((await many.json()).error).toMatch(/at most 10 fields/);
  });

  test("avatar, header and background uploads are stored, served back, and reset by an empty string", async () => {
    const form = new FormData();
    form.append("avatar", new Blob([PNG], { type: "image/png" }), "a.png");
    form.append("header", new Blob([PNG], { type: "image/png" }), "h.png");
    form.append("ext_background_image", new Blob([PNG], { type: "image/png" }), "b.png");
    form.append("display_name", "Bob");
    const res = await server.fetch("/api/v1/accounts/update_credentials", { method: "PATCH", body: form, headers: auth(bob.access_token) });
    expect(res.status).toBe(200);
    const me = await res.json();
    expect(me.display_name).toBe("Bob");
    expect(me.avatar).toMatch(/^http:\/\/localhost:4000\/media\/[0-9a-z]{26}\/avatar\.png$/);
    expect(me.header).toMatch(/\/media\/[0-9a-z]{26}\/header\.png$/);
    expect(me.ext.background_image).toMatch(/\/media\/[0-9a-z]{26}\/background\.png$/);
    const served = await server.fetch(new URL(me.avatar).pathname);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/png");
    // re-encoded without metadata (docs/media.md): the same format, not the same bytes
    expect(Buffer.from(await served.arrayBuffer()).subarray(0, 8).equals(PNG.subarray(0, 8))).toBe(true);
    const stored = path.join(server.dataDir, "uploads", new URL(me.avatar).pathname.split("/")[2]);
    expect(fs.existsSync(stored)).toBe(true);

    const reset = await server.fetch("/api/v1/accounts/update_credentials", { method: "PATCH", form: { avatar: "", ext_background_image: "" }, headers: auth(bob.access_token) });
    const after = await reset.json();
    expect(after.avatar).toBe("http://localhost:4000/images/avi.png");
    expect(after.ext.background_image).toBeNull();
    expect(after.header).toBe(me.header); // untouched
    expect(fs.existsSync(stored)).toBe(false);
    expect((await server.fetch(new URL(me.avatar).pathname)).status).toBe(404);
  });

  test("uploads must be images within the configured size limit", async () => {
    const notImage = new FormData();
    notImage.append("avatar", new Blob(["<html>hi</html>"], { type: "image/png" }), "x.png");
    const res = await server.fetch("/api/v1/accounts/update_credentials", { method: "PATCH", body: notImage, headers: auth(bob.access_token) });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatch(/not an image/);

    await server.services.db.configEntry.create({ data: { group: "instance", key: "avatar_upload_limit", value: 100 } });
    await server.services.config.reload();
    try {
      const big = new FormData();
      big.append("avatar", new Blob([PNG], { type: "image/png" }), "a.png");
      const tooBig = await server.fetch("/api/v1/accounts/update_credentials", { method: "PATCH", body: big, headers: auth(bob.access_token) });
      expect(tooBig.status).toBe(400);
      expect((await tooBig.json()).error).toMatch(/too large \(limit 100 bytes\)/);
    } finally {
      await server.services.db.configEntry.deleteMany({ where: { key: "avatar_upload_limit" } });
      await server.services.config.reload();
    }
  });

  test("update_banner and update_background take a data URL and an empty value clears", async () => {
    const dataUrl = `data:image/png;base64,${PNG.toString("base64")}`;
    const set = await server.fetch("/api/v1/ext/accounts/update_banner", { method: "PATCH", json: { img: dataUrl }, headers: auth(bob.access_token) });
    expect(set.status).toBe(200);
    const { url } = await set.json();
    expect(url).toMatch(/\/media\/[0-9a-z]{26}\/header\.png$/);
    const cleared = await server.fetch("/api/v1/ext/accounts/update_background", { method: "PATCH", json: { img: "" }, headers: auth(bob.access_token) });
    expect(await cleared.json()).toEqual({ url: null });
    expect((await server.services.db.account.findUniqueOrThrow({ where: { id: ids.bob } })).header).toBe(url);
  });

  test("GET /api/v1/accounts/:id by id or nickname, lookup, and search without authentication", async () => {
    const byId = await (await server.fetch(`/api/v1/accounts/${ids.carol}`)).json();
    const byNick = await (await server.fetch("/api/v1/accounts/carol")).json();
    expect(byId.id).toBe(ids.carol);
    expect(byNick.id).toBe(ids.carol);
    expect(byId.source).toBeUndefined();
    expect(byId.ext.settings_store).toBeUndefined();
    expect((await server.fetch("/api/v1/accounts/nobody")).status).toBe(404);

    expect((await (await server.fetch("/api/v1/accounts/lookup?acct=@carol@localhost:4000")).json()).id).toBe(ids.carol);
    expect((await server.fetch("/api/v1/accounts/lookup?acct=carol@elsewhere.test")).status).toBe(404);

    const found = await (await server.fetch("/api/v1/accounts/search?q=car")).json();
    expect(found.map((a: any) => a.acct)).toEqual(["carol"]);
    // LIKE wildcards are literal characters, not "match everything"
    expect(await (await server.fetch("/api/v1/accounts/search?q=%25")).json()).toEqual([]);
    expect(await (await server.fetch("/api/v1/accounts/search?q=_")).json()).toEqual([]);
  });

  test("with_relationships embeds the viewer's relationship", async () => {
    await follow(ids.bob, ids.dave);
    const res = await server.fetch(`/api/v1/accounts/${ids.dave}?with_relationships=true`, { headers: auth(bob.access_token) });
    const dave = await res.json();
    expect(dave.ext.relationship).toMatchObject({ id: ids.dave, following: true, followed_by: false, blocking: false });
    const plain = await (await server.fetch(`/api/v1/accounts/${ids.dave}`, { headers: auth(bob.access_token) })).json();
    expect(plain.ext.relationship).toEqual({});
  });

  test("hide_followers / hide_follows and their counts apply to others, not to the owner", async () => {
    await follow(ids.carol, ids.alice);
    await follow(ids.dave, ids.alice);
    await follow(ids.alice, ids.carol);
    await server.services.db.account.update({ where: { id: ids.alice }, data: { hideFollowers: true, hideFollowsCount: true } });
    const asBob = await (await server.fetch(`/api/v1/accounts/${ids.alice}/followers`, { headers: auth(bob.access_token) })).json();
    expect(asBob).toEqual([]);
    const asOwner = await (await server.fetch(`/api/v1/accounts/${ids.alice}/followers`, { headers: auth(alice.access_token) })).json();
    expect(asOwner.map((a: any) => a.acct).sort()).toEqual(["carol", "dave"]);
    const following = await (await server.fetch(`/api/v1/accounts/${ids.alice}/following`)).json();
    expect(following.map((a: any) => a.acct)).toEqual(["carol"]); // follows are not hidden, only their count

    const seen = await (await server.fetch(`/api/v1/accounts/${ids.alice}`, { headers: auth(bob.access_token) })).json();
    expect(seen).toMatchObject({ followers_count: 2, following_count: 0 });
    const own = await (await server.fetch(`/api/v1/accounts/${ids.alice}`, { headers: auth(alice.access_token) })).json();
    expect(own).toMatchObject({ followers_count: 2, following_count: 1 });
    await server.services.db.account.update({ where: { id: ids.alice }, data: { hideFollowers: false, hideFollowsCount: false } });
  });

  test("followers page with limit, Link headers, and a constant number of queries", async () => {
    const target = await server.createUser("popular");
    const fans = [];
    for (let i = 0; i < 12; i++) fans.push(await server.createUser(`fan${i}`));
    for (const fan of fans) await follow(fan.id, target.id);

    const first = await server.fetch(`/api/v1/accounts/${target.id}/followers?limit=5`);
    const page1 = await first.json();
    expect(page1.map((a: any) => a.acct)).toEqual(["fan11", "fan10", "fan9", "fan8", "fan7"]);
    const link = first.headers.get("link")!;
    const next = link.match(/<([^>]+)>; rel="next"/)![1];
    expect(link).toMatch(/rel="prev"/);
    const page2 = await (await server.fetch(new URL(next).pathname + new URL(next).search)).json();
    expect(page2.map((a: any) => a.acct)).toEqual(["fan6", "fan5", "fan4", "fan3", "fan2"]);

    const one = await server.countQueries(() => server.fetch(`/api/v1/accounts/${target.id}/followers?limit=1&with_relationships=true`, { headers: auth(bob.access_token) }));
    const ten = await server.countQueries(() => server.fetch(`/api/v1/accounts/${target.id}/followers?limit=10&with_relationships=true`, { headers: auth(bob.access_token) }));
    expect((await ten.result.json()).length).toBe(10);
    expect(ten.queries).toBe(one.queries);
  });
});
