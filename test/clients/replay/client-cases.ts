// Replay cases for the client API calls of the family's web client (adminfe-calls.tsv, app pleroma-fe)
// and megalodon's Pleroma driver: bodies as those clients send them (the web client sends FormData for
// profile updates, uploads and imports; megalodon sends JSON), assertions on the fields they read.
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { decodeBase32IgnorePadding } from "@oslojs/encoding";
import { generateTOTP } from "@oslojs/otp";
import fs from "node:fs";
import path from "node:path";
import { strToU8, zipSync } from "fflate";
import WebSocket from "ws";
import { expect } from "vitest";
import type { Cases, ReplayCase } from "./case.ts";
import { png, type Fixture, type Vars } from "./fixture.ts";
import { streamHub } from "../../../src/domain/streams/hub.ts";
import { waitFor } from "../../support/wait.ts";

const P = "/api/v1/pleroma";
const account = (a: unknown) => expect(a).toMatchObject({ id: expect.any(String), acct: expect.any(String), username: expect.any(String), avatar: expect.any(String), pleroma: expect.any(Object) });
const accounts = (b: unknown[]) => b.forEach(account);
const status = (s: unknown) => expect(s).toMatchObject({ id: expect.any(String), content: expect.any(String), account: expect.objectContaining({ acct: expect.any(String) }), visibility: expect.any(String), pleroma: expect.any(Object) });
const statuses = (b: unknown[]) => b.forEach(status);
const relationship = (r: unknown) => expect(r).toMatchObject({ id: expect.any(String), following: expect.any(Boolean), followed_by: expect.any(Boolean), blocking: expect.any(Boolean), muting: expect.any(Boolean), requested: expect.any(Boolean) });
const ids = (b: { id: string }[]) => b.map((x) => x.id);
/** the status the case acts on: one of bob's, so alice can favourite, reblog, bookmark… it */
const bobs = async (f: Fixture) => ({ id: await f.post(f.bob.token, "a post by bob #replay") });
const alices = async (f: Fixture) => ({ id: await f.post(f.alice.token, "a post by alice") });
const withUser = async (f: Fixture) => ({ id: (await f.fresh()).id });
const multipart = (fields: Record<string, string>) => async () => {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  return form;
};
/** the web client's imports: a FormData with the list as a file */
const importList = (content: (f: Fixture) => string): ReplayCase => ({
  // a fresh importer: alice muting or blocking bob would change what the other cases see
  setup: async (f) => ({ list: content(f), _token: (await f.fresh()).token }),
  multipart: async (v) => {
    const form = new FormData();
    form.set("list", new Blob([v.list!], { type: "text/plain" }), "list.txt");
    return form;
  },
  reads: (b) => expect(b).toBe("job started"),
});
/** a TOTP-enabled fresh user: its token, password-grant app and key */
async function mfaUser(f: Fixture) {
  const u = await f.fresh();
  const setup = await f.ok("GET", "/api/pleroma/accounts/mfa/setup/totp", u.token);
  await f.ok("POST", "/api/pleroma/accounts/mfa/confirm/totp", u.token, { password: "secret-password", code: totp(setup.key) });
  return { ...u, key: setup.key as string };
}
const totp = (key: string) => generateTOTP(decodeBase32IgnorePadding(key), 30, 6);
/** a locked fresh user with a follow request from bob */
async function requested(f: Fixture): Promise<Vars> {
  const u = await f.fresh();
  await f.ok("PATCH", "/api/v1/accounts/update_credentials", u.token, { locked: true });
  await f.follow(f.bob.token, u.id);
  return { id: f.bob.id, _token: u.token };
}
/** a push subscription as browsers make them: a P-256 public key and a 16-byte secret */
function pushSubscription() {
  const { publicKey } = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
  const raw = publicKey.export({ format: "der", type: "spki" }).subarray(-65);
  return { endpoint: `https://push.example.test/${randomBytes(4).toString("hex")}`, keys: { p256dh: raw.toString("base64url"), auth: randomBytes(16).toString("base64url") } };
}
const notificationOf = async (f: Fixture) => {
  await f.post(f.bob.token, `@alice ${f.unique("ping")}`);
  const list = await f.ok("GET", "/api/v1/notifications", f.alice.token);
  return { id: list[0].id as string };
};
const scheduled = async (f: Fixture) => ({ id: (await f.ok("POST", "/api/v1/statuses", f.alice.token, { status: "later", scheduled_at: new Date(Date.now() + 3_600_000).toISOString() })).id });

export const clientCases: Cases = {
  // oauth.js / login.js
  [`POST /api/v1/apps`]: {
    who: "anon",
    json: () => ({ client_name: "PleromaFE_replay", redirect_uris: "urn:ietf:wg:oauth:2.0:oob", scopes: "read write follow push admin" }),
    reads: (b) => expect(b).toMatchObject({ id: expect.any(String), client_id: expect.any(String), client_secret: expect.any(String), name: "PleromaFE_replay" }),
  },
  [`GET /api/v1/apps/verify_credentials`]: { reads: (b) => expect(b).toMatchObject({ name: expect.any(String) }) },
  [`GET /oauth/authorize`]: {
    who: "anon",
    setup: async (f) => {
      const app = await f.app();
      return { dataString: `response_type=code&client_id=${app.client_id}&redirect_uri=urn:ietf:wg:oauth:2.0:oob&scope=read+write+follow+push` };
    },
    reads: (b) => expect(b).toMatch(/<form[^>]*method="post"/i),
  },
  [`POST /oauth/token`]: {
    who: "anon",
    setup: async (f) => {
      const app = await f.app();
      return { client_id: app.client_id, client_secret: app.client_secret };
    },
    // the web client sends a FormData (password and client-credentials grants); admin-fe JSON
    multipart: async (v) => {
      if (v._app === "admin-fe") return undefined as unknown as FormData;
      const form = new FormData();
      for (const [k, val] of Object.entries(v._fn === "getClientToken" ? { grant_type: "client_credentials", client_id: v.client_id!, client_secret: v.client_secret!, scope: "read write follow push" } : { grant_type: "password", username: "alice", password: "secret-password", client_id: v.client_id!, client_secret: v.client_secret! })) form.set(k, val);
      return form;
    },
    json: (v) => (v._app === "admin-fe" ? { grant_type: "password", username: "alice", password: "secret-password", client_id: v.client_id, client_secret: v.client_secret } : undefined),
    reads: (b) => expect(b).toMatchObject({ access_token: expect.any(String), token_type: "Bearer", scope: expect.any(String) }),
  },
  [`POST /oauth/mfa/challenge`]: {
    who: "anon",
    setup: async (f) => {
      const u = await mfaUser(f);
      const app = await f.app();
      const grant = await f.send({ method: "POST", path: "/oauth/token", form: { grant_type: "password", username: u.nickname, password: "secret-password", client_id: app.client_id, client_secret: app.client_secret } });
      expect(grant.body).toMatchObject({ error: "mfa_required", mfa_token: expect.any(String) });
      const codes = await f.ok("GET", "/api/pleroma/accounts/mfa/backup_codes", u.token);
      return { mfa_token: grant.body.mfa_token, client_id: app.client_id, client_secret: app.client_secret, key: u.key, backup: codes.codes[0] };
    },
    // verifyOTPCode / verifyRecoveryCode: a FormData with the challenge
    multipart: async (v) => {
      const form = new FormData();
      const recovery = v._fn === "verifyRecoveryCode";
      for (const [k, val] of Object.entries({ client_id: v.client_id!, client_secret: v.client_secret!, mfa_token: v.mfa_token!, challenge_type: recovery ? "recovery" : "totp", code: recovery ? v.backup! : totp(v.key!) })) form.set(k, val);
      return form;
    },
    reads: (b) => expect(b).toMatchObject({ access_token: expect.any(String) }),
  },
  [`POST /oauth/revoke`]: {
    who: "anon",
    setup: async (f) => {
      const app = await f.app();
      const t = await f.send({ method: "POST", path: "/oauth/token", form: { grant_type: "password", username: "alice", password: "secret-password", client_id: app.client_id, client_secret: app.client_secret } });
      return { client_id: app.client_id, client_secret: app.client_secret, token: t.body.access_token };
    },
    multipart: multipartOf(["client_id", "client_secret", "token"]),
    reads: async (_b, v, f) => expect((await f.send({ method: "GET", path: "/api/v1/accounts/verify_credentials", token: v.token })).status).toBe(401),
  },
  [`POST /auth/password`]: {
    who: "anon",
    json: () => ({ email: "alice@example.test" }),
    status: 204,
  },
  [`GET /api/oauth_tokens.json`]: {
    reads: (b) => {
      expect(b.length).toBeGreaterThan(0);
      b.forEach((t: unknown) => expect(t).toMatchObject({ id: expect.anything(), app_name: expect.any(String), valid_until: expect.any(String) }));
    },
  },
  [`DELETE /api/oauth_tokens/:id`]: {
    setup: async (f) => {
      const u = await f.fresh();
      const tokens = await f.ok("GET", "/api/oauth_tokens.json", u.token);
      return { id: String(tokens[0].id), _token: u.token };
    },
    status: 201,
  },

  // instance.js and boot
  [`GET /api/v1/instance`]: {
    who: "anon",
    reads: (b) => expect(b).toMatchObject({ uri: expect.any(String), title: expect.any(String), max_toot_chars: expect.any(Number), urls: { streaming_api: expect.any(String) }, pleroma: { metadata: { features: expect.any(Array), fields_limits: expect.any(Object), post_formats: expect.any(Array) }, vapid_public_key: expect.any(String) } }),
  },
  [`GET /api/pleroma/frontend_configurations`]: { who: "anon", reads: (b) => expect(b).toEqual(expect.any(Object)) },
  [`GET /nodeinfo/2.1.json`]: {
    who: "anon",
    reads: (b) => expect(b).toMatchObject({ version: "2.1", metadata: { features: expect.any(Array), uploadLimits: expect.any(Object), postFormats: expect.any(Array), accountActivationRequired: expect.any(Boolean), federation: expect.any(Object) } }),
  },
  [`GET /static/config.json`]: {
    // served from the installed web client's build, as the family serves it
    who: "anon",
    setup: async (f) => {
      const file = path.join(f.server.dataDir, "pleroma-fe.zip");
      fs.writeFileSync(file, zipSync({ "dist/index.html": strToU8("<!doctype html><title>fe</title>"), "dist/static/config.json": strToU8('{"theme":"pleroma-dark"}') }));
      await f.ok("POST", `${P}/admin/frontends/install`, f.admin.token, { name: "pleroma-fe", ref: "boot", file });
      await f.setting("frontends", "primary", { name: "pleroma-fe", ref: "boot" });
      return {};
    },
    reads: async (b, _v, f) => {
      await f.setting("frontends", "primary", {});
      expect(b).toEqual({ theme: "pleroma-dark" });
    },
  },
  [`GET /instance/panel.html`]: {
    who: "anon",
    setup: async (f) => {
      const form = new FormData();
      form.set("file", new Blob(["<p>the panel</p>"], { type: "text/html" }), "panel.html");
      await f.send({ method: "PATCH", path: `${P}/admin/instance_document/instance-panel`, token: f.admin.token, multipart: form });
      return {};
    },
    reads: (b) => expect(b).toContain("the panel"),
  },
  [`GET /static/terms-of-service.html`]: { who: "anon", reads: (b) => expect(b).toEqual(expect.any(String)) },
  [`GET /api/pleroma/emoji.json`]: {
    who: "anon",
    setup: async (f) => ({ pack: await f.pack() }),
    reads: (b, v) => expect(b[`${v.pack}_blob`]).toMatchObject({ image_url: expect.any(String), tags: expect.any(Array) }),
  },
  [`GET /api/pleroma/captcha`]: { who: "anon", reads: (b) => expect(b).toMatchObject({ type: expect.any(String) }) },
  [`GET /api/v1/custom_emojis`]: {
    who: "anon",
    reads: (b) => b.forEach((e: unknown) => expect(e).toMatchObject({ shortcode: expect.any(String), url: expect.any(String), static_url: expect.any(String), visible_in_picker: expect.any(Boolean) })),
  },
  [`GET /api/v1/instance/activity`]: { who: "anon", reads: (b) => expect(b[0]).toMatchObject({ week: expect.any(String), statuses: expect.any(String), logins: expect.any(String), registrations: expect.any(String) }) },
  [`GET /api/v1/trends`]: { reads: (b) => expect(b).toEqual(expect.any(Array)) },
  [`GET /api/v1/directory`]: { reads: (b) => accounts(b) },
  [`GET /api/v1/announcements`]: {
    setup: async (f) => ({ id: (await f.ok("POST", `${P}/admin/announcements`, f.admin.token, { content: "for everyone" })).id }),
    reads: (b, v) => expect(b.find((a: { id: string }) => a.id === v.id)).toMatchObject({ content: expect.any(String), read: false, reactions: [], published_at: expect.any(String) }),
  },
  [`POST /api/v1/announcements/:id/dismiss`]: {
    setup: async (f) => ({ id: (await f.ok("POST", `${P}/admin/announcements`, f.admin.token, { content: "to dismiss" })).id }),
    reads: async (_b, v, f) => expect((await f.ok("GET", "/api/v1/announcements", f.alice.token)).find((a: { id: string }) => a.id === v.id).read).toBe(true),
  },

  // registration
  [`POST /api/v1/accounts`]: {
    setup: async (f) => {
      const app = await f.app();
      const t = await f.send({ method: "POST", path: "/oauth/token", form: { grant_type: "client_credentials", client_id: app.client_id, client_secret: app.client_secret } });
      return { _token: t.body.access_token, nickname: f.unique("newcomer") };
    },
    json: (v) => ({ username: v.nickname, email: `${v.nickname}@example.test`, password: "a-long-password", agreement: true, locale: "en", fullname: "New Comer" }),
    reads: (b) => expect(b).toMatchObject({ access_token: expect.any(String), token_type: "Bearer" }),
  },

  // accounts
  [`GET /api/v1/accounts/verify_credentials`]: {
    reads: (b) => {
      account(b);
      expect(b).toMatchObject({ acct: "alice", source: { privacy: "public", pleroma: expect.any(Object) }, pleroma: { is_admin: false, privileges: [], notification_settings: expect.any(Object), settings_store: expect.any(Object), unread_conversation_count: expect.any(Number) } });
    },
  },
  [`PATCH /api/v1/accounts/update_credentials`]: {
    // updateProfile / updateProfileImages send a FormData; megalodon JSON
    multipart: async (v) => {
      if (v._app === "megalodon") return undefined as unknown as FormData;
      const form = new FormData();
      if (v._fn === "updateProfileImages") form.set("avatar", new Blob([await png()], { type: "image/png" }), "avatar.png");
      else for (const [k, val] of Object.entries({ display_name: "Alice A", note: "from the web client", "fields_attributes[0][name]": "web", "fields_attributes[0][value]": "https://alice.test" })) form.set(k, val);
      return form;
    },
    json: (v) => (v._app === "megalodon" ? { display_name: "Alice M", note: "from megalodon" } : undefined),
    reads: (b, v) => {
      account(b);
      if (v._fn === "updateProfileImages") expect(b.avatar).not.toMatch(/missing|default/);
      else if (v._app === "megalodon") expect(b.display_name).toBe("Alice M");
      else expect(b).toMatchObject({ display_name: "Alice A", fields: [expect.objectContaining({ name: "web" })] });
    },
  },
  [`GET /api/v1/accounts/:id`]: { setup: async (f) => ({ id: f.bob.id }), reads: (b) => expect(b).toMatchObject({ acct: "bob", followers_count: expect.any(Number), statuses_count: expect.any(Number) }) },
  [`GET /api/v1/accounts/lookup`]: {
    setup: async () => ({ acct: "bob" }),
    query: (v) => (v._app === "pleroma-fe" ? "acct=bob" : ""),
    reads: (b) => expect(b).toMatchObject({ acct: "bob" }),
  },
  [`GET /api/v1/accounts/relationships/`]: { setup: async (f) => ({ id: f.bob.id }), query: (v) => `id[]=${v.id}`, reads: (b) => relationship(b[0]) },
  [`GET /api/v1/accounts/:id/following`]: {
    setup: async (f) => (await f.follow(f.alice.token, f.bob.id), { id: f.alice.id }),
    reads: (b, _v, f) => expect(ids(b)).toContain(f.bob.id),
  },
  [`GET /api/v1/accounts/:id/followers`]: {
    setup: async (f) => (await f.follow(f.alice.token, f.bob.id), { id: f.bob.id }),
    reads: (b, _v, f) => expect(ids(b)).toContain(f.alice.id),
  },
  [`GET /api/v1/accounts/:id/statuses`]: {
    setup: async (f) => {
      const id = await f.post(f.bob.token, "pinned by bob");
      await f.ok("POST", `/api/v1/statuses/${id}/pin`, f.bob.token);
      return { id: f.bob.id, status: id };
    },
    // fetchPinnedStatuses asks for the pinned ones
    query: (v) => (v._fn === "fetchPinnedStatuses" ? "pinned=true" : "limit=20"),
    reads: (b, v) => {
      statuses(b);
      expect(ids(b)).toContain(v.status);
      if (v._fn === "fetchPinnedStatuses") expect(b.every((s: { pinned: boolean }) => s.pinned)).toBe(true);
    },
  },
  [`GET /api/v1/accounts/:id/lists`]: {
    setup: async (f) => {
      const list = await f.list();
      await f.follow(f.alice.token, f.bob.id);
      await f.ok("POST", `/api/v1/lists/${list}/accounts`, f.alice.token, { account_ids: [f.bob.id] });
      return { id: f.bob.id, list };
    },
    reads: (b, v) => expect(ids(b)).toContain(v.list),
  },
  [`GET /api/v1/accounts/:id/identity_proofs`]: { setup: async (f) => ({ id: f.bob.id }), reads: (b) => expect(b).toEqual([]) },
  [`GET /api/v1/accounts/search`]: { query: () => "q=bo&resolve=false", reads: (b) => expect(b.map((a: { acct: string }) => a.acct)).toContain("bob") },
  [`POST /api/v1/accounts/:id/follow`]: { setup: withUser, json: () => ({ reblogs: true }), reads: (b) => expect(b).toMatchObject({ following: true, showing_reblogs: true }) },
  [`POST /api/v1/accounts/:id/unfollow`]: {
    setup: async (f) => {
      const { id } = await withUser(f);
      await f.follow(f.alice.token, id);
      return { id };
    },
    reads: (b) => expect(b).toMatchObject({ following: false }),
  },
  [`POST /api/v1/accounts/:id/block`]: { setup: withUser, reads: (b) => expect(b).toMatchObject({ blocking: true }) },
  [`POST /api/v1/accounts/:id/unblock`]: {
    setup: async (f) => {
      const { id } = await withUser(f);
      await f.ok("POST", `/api/v1/accounts/${id}/block`, f.alice.token);
      return { id };
    },
    reads: (b) => expect(b).toMatchObject({ blocking: false }),
  },
  [`POST /api/v1/accounts/:id/mute`]: { setup: withUser, json: () => ({ notifications: true, expires_in: 0 }), reads: (b) => expect(b).toMatchObject({ muting: true, muting_notifications: true }) },
  [`POST /api/v1/accounts/:id/unmute`]: {
    setup: async (f) => {
      const { id } = await withUser(f);
      await f.ok("POST", `/api/v1/accounts/${id}/mute`, f.alice.token);
      return { id };
    },
    reads: (b) => expect(b).toMatchObject({ muting: false }),
  },
  [`POST /api/v1/accounts/:id/pin`]: {
    setup: async (f) => {
      const { id } = await withUser(f);
      await f.follow(f.alice.token, id);
      return { id };
    },
    reads: (b) => expect(b).toMatchObject({ endorsed: true }),
  },
  [`POST /api/v1/accounts/:id/unpin`]: {
    setup: async (f) => {
      const { id } = await withUser(f);
      await f.follow(f.alice.token, id);
      await f.ok("POST", `/api/v1/accounts/${id}/pin`, f.alice.token);
      return { id };
    },
    reads: (b) => expect(b).toMatchObject({ endorsed: false }),
  },
  [`POST /api/v1/accounts/:id/note`]: { setup: withUser, json: () => ({ comment: "met at the fair" }), reads: (b) => expect(b).toMatchObject({ note: "met at the fair" }) },
  [`POST /api/v1/accounts/:id/remove_from_followers`]: {
    setup: async (f) => {
      const u = await f.fresh();
      await f.follow(u.token, f.alice.id);
      return { id: u.id };
    },
    reads: (b) => expect(b).toMatchObject({ followed_by: false }),
  },
  [`GET /api/v1/follow_requests`]: { setup: requested, reads: (b, v) => expect(ids(b)).toContain(v.id) },
  [`POST /api/v1/follow_requests/:id/authorize`]: { setup: requested, reads: (b) => expect(b).toMatchObject({ followed_by: true }) },
  [`POST /api/v1/follow_requests/:id/reject`]: { setup: requested, reads: (b) => expect(b).toMatchObject({ followed_by: false, requested_by: false }) },
  [`GET /api/v1/blocks`]: {
    setup: async (f) => {
      const { id } = await withUser(f);
      await f.ok("POST", `/api/v1/accounts/${id}/block`, f.alice.token);
      return { id };
    },
    reads: (b, v) => expect(ids(b)).toContain(v.id),
  },
  [`GET /api/v1/mutes`]: {
    setup: async (f) => {
      const { id } = await withUser(f);
      await f.ok("POST", `/api/v1/accounts/${id}/mute`, f.alice.token);
      return { id };
    },
    reads: (b, v) => expect(ids(b)).toContain(v.id),
  },
  [`GET /api/v1/endorsements`]: { reads: (b) => accounts(b) },
  [`GET /api/v1/suggestions`]: { reads: (b) => expect(b).toEqual(expect.any(Array)) },
  [`GET /api/v1/preferences`]: { reads: (b) => expect(b).toMatchObject({ "posting:default:visibility": "public", "posting:default:sensitive": false, "reading:expand:media": expect.any(String) }) },
  [`GET /api/v1/featured_tags`]: { reads: (b) => expect(b).toEqual(expect.any(Array)) },
  [`GET /api/v1/featured_tags/suggestions`]: { reads: (b) => expect(b).toEqual(expect.any(Array)) },
  [`DELETE /api/v1/featured_tags/:id`]: {
    setup: async (f) => ({ id: (await f.ok("POST", "/api/v1/featured_tags", f.alice.token, { name: f.unique("tag") })).id }),
    reads: (b) => expect(b).toEqual({}),
  },
  [`GET /api/v1/pleroma/accounts/:id/favourites`]: {
    setup: async (f) => {
      const { id } = await bobs(f);
      await f.ok("POST", `/api/v1/statuses/${id}/favourite`, f.alice.token);
      return { id: f.alice.id, status: id };
    },
    reads: (b, v) => expect(ids(b)).toContain(v.status),
  },
  [`GET /api/v1/pleroma/accounts/:id/scrobbles`]: {
    setup: async (f) => {
      await f.ok("POST", `${P}/scrobble`, f.alice.token, { title: "a song", artist: "a band", album: "an album", length: 180000 });
      return { id: f.alice.id };
    },
    reads: (b) => expect(b[0]).toMatchObject({ id: expect.any(String), account: expect.objectContaining({ acct: "alice" }), title: "a song", artist: "a band", album: "an album", length: 180000, created_at: expect.any(String) }),
  },

  // the web client's settings (api.service.js)
  [`PUT /api/pleroma/notification_settings`]: {
    // sent as query parameters by the earlier web client, as JSON by later ones
    json: () => ({ block_from_strangers: true, hide_notification_contents: false }),
    reads: async (b, _v, f) => {
      expect(b).toEqual({ status: "success" });
      expect((await f.ok("GET", "/api/v1/accounts/verify_credentials", f.alice.token)).pleroma.notification_settings).toMatchObject({ block_from_strangers: true });
      await f.ok("PUT", "/api/pleroma/notification_settings", f.alice.token, { block_from_strangers: false });
    },
  },
  [`POST /api/pleroma/mutes_import`]: importList(() => "bob"),
  [`POST /api/pleroma/blocks_import`]: importList((f) => `nobody@${new URL(f.server.url).host}`),
  [`POST /api/pleroma/follow_import`]: importList(() => "bob"),
  [`POST /api/pleroma/delete_account`]: {
    setup: async (f) => ({ _token: (await f.fresh()).token }),
    // the web client sends the password as a query parameter (earlier) or in a FormData (later)
    multipart: multipart({ password: "secret-password" }),
    reads: (b) => expect(b).toEqual({ status: "success" }),
  },
  [`POST /api/pleroma/change_email`]: {
    setup: async (f) => ({ _token: (await f.fresh()).token, email: `${f.unique("moved")}@example.test` }),
    multipart: async (v) => multipart({ password: "secret-password", email: v.email! })(),
    reads: (b) => expect(b).toEqual({ status: "success" }),
  },
  [`POST /api/pleroma/change_password`]: {
    setup: async (f) => ({ _token: (await f.fresh()).token }),
    multipart: multipart({ password: "secret-password", new_password: "another-long-password", new_password_confirmation: "another-long-password" }),
    reads: (b) => expect(b).toEqual({ status: "success" }),
  },
  [`POST /api/pleroma/move_account`]: {
    setup: async (f) => {
      const from = await f.fresh();
      const to = await f.fresh();
      await f.ok("PUT", "/api/pleroma/aliases", to.token, { alias: from.nickname });
      return { _token: from.token, target: to.nickname };
    },
    multipart: async (v) => multipart({ password: "secret-password", target_account: v.target! })(),
    reads: (b) => expect(b).toEqual({ status: "success" }),
  },
  [`PUT /api/pleroma/aliases`]: { setup: async (f) => ({ _token: (await f.fresh()).token }), json: () => ({ alias: "bob" }), reads: (b) => expect(b).toEqual({ status: "success" }) },
  [`DELETE /api/pleroma/aliases`]: {
    setup: async (f) => {
      const u = await f.fresh();
      await f.ok("PUT", "/api/pleroma/aliases", u.token, { alias: "bob" });
      return { _token: u.token };
    },
    json: () => ({ alias: "bob" }),
    reads: (b) => expect(b).toEqual({ status: "success" }),
  },
  [`GET /api/pleroma/aliases`]: {
    setup: async (f) => {
      const u = await f.fresh();
      await f.ok("PUT", "/api/pleroma/aliases", u.token, { alias: "bob" });
      return { _token: u.token };
    },
    // the family lists aliases as full nicknames
    reads: (b, _v, f) => expect(b).toEqual({ aliases: [`bob@${new URL(f.server.url).host}`] }),
  },
  [`GET /api/pleroma/accounts/mfa`]: { reads: (b) => expect(b).toEqual({ settings: { enabled: false, totp: false } }) },
  [`GET /api/pleroma/accounts/mfa/setup/totp`]: {
    setup: async (f) => ({ _token: (await f.fresh()).token }),
    reads: (b) => expect(b).toMatchObject({ key: expect.any(String), provisioning_uri: expect.stringMatching(/^otpauth:\/\/totp\//) }),
  },
  [`POST /api/pleroma/accounts/mfa/confirm/totp`]: {
    setup: async (f) => {
      const u = await f.fresh();
      const setup = await f.ok("GET", "/api/pleroma/accounts/mfa/setup/totp", u.token);
      return { _token: u.token, key: setup.key };
    },
    json: (v) => ({ password: "secret-password", code: totp(v.key!) }),
    reads: (b) => expect(b).toEqual({}),
  },
  [`DELETE /api/pleroma/accounts/mfa/totp`]: {
    setup: async (f) => ({ _token: (await mfaUser(f)).token }),
    json: () => ({ password: "secret-password" }),
    reads: (b) => expect(b).toEqual({}),
  },
  [`GET /api/pleroma/accounts/mfa/backup_codes`]: {
    setup: async (f) => ({ _token: (await mfaUser(f)).token }),
    reads: (b) => expect(b.codes).toHaveLength(5), // the family's default: 5 codes
  },
  [`POST ${P}/backups`]: { setup: async (f) => ({ _token: (await f.fresh()).token }), reads: (b) => expect(b[0]).toMatchObject({ content_type: "application/zip", inserted_at: expect.any(String), processed: expect.any(Boolean) }) },
  [`GET ${P}/backups`]: { reads: (b) => expect(b).toEqual(expect.any(Array)) },

  // statuses
  [`POST /api/v1/statuses`]: {
    // postStatus: the web client's shape (content_type, media_ids, poll, spoiler_text, preview=false)
    json: (v) => ({ status: `posted by ${v._app} #replay`, spoiler_text: "", visibility: "public", sensitive: false, media_ids: [], in_reply_to_id: "", content_type: "text/plain", language: "en" }),
    reads: (b, v) => {
      status(b);
      expect(b).toMatchObject({ content: expect.stringContaining(`posted by ${v._app}`), tags: [expect.objectContaining({ name: "replay" })], pleroma: expect.objectContaining({ content: { "text/plain": `posted by ${v._app} #replay` } }) });
    },
  },
  [`PUT /api/v1/statuses/:id`]: {
    setup: alices,
    json: () => ({ status: "edited", spoiler_text: "", sensitive: false, media_ids: [], content_type: "text/plain" }),
    reads: (b) => expect(b).toMatchObject({ content: "edited", edited_at: expect.any(String) }),
  },
  [`DELETE /api/v1/statuses/:id`]: { setup: alices, reads: (b) => expect(b).toMatchObject({ text: "a post by alice" }) },
  [`GET /api/v1/statuses/:id`]: { setup: bobs, reads: (b, v) => expect(b).toMatchObject({ id: v.id, account: { acct: "bob" } }) },
  [`GET /api/v1/statuses/:id/context`]: {
    setup: async (f) => {
      const { id } = await bobs(f);
      const reply = await f.post(f.alice.token, "@bob a reply", { in_reply_to_id: id });
      return { id, reply };
    },
    reads: (b, v) => expect(b).toMatchObject({ ancestors: [], descendants: [expect.objectContaining({ id: v.reply })] }),
  },
  [`GET /api/v1/statuses/:id/source`]: { setup: alices, reads: (b, v) => expect(b).toEqual({ id: v.id, text: "a post by alice", spoiler_text: "", content_type: "text/plain" }) },
  [`GET /api/v1/statuses/:id/history`]: {
    setup: async (f) => {
      const { id } = await alices(f);
      await f.ok("PUT", `/api/v1/statuses/${id}`, f.alice.token, { status: "a post by alice, edited" });
      return { id };
    },
    reads: (b) => expect(b.map((e: { content: string }) => e.content)).toEqual(["a post by alice", "a post by alice, edited"]),
  },
  [`GET /api/v1/statuses/:id/favourited_by`]: {
    setup: async (f) => {
      const { id } = await bobs(f);
      await f.ok("POST", `/api/v1/statuses/${id}/favourite`, f.alice.token);
      return { id };
    },
    reads: (b, _v, f) => expect(ids(b)).toEqual([f.alice.id]),
  },
  [`GET /api/v1/statuses/:id/reblogged_by`]: {
    setup: async (f) => {
      const { id } = await bobs(f);
      await f.ok("POST", `/api/v1/statuses/${id}/reblog`, f.alice.token);
      return { id };
    },
    reads: (b, _v, f) => expect(ids(b)).toEqual([f.alice.id]),
  },
  [`POST /api/v1/statuses/:id/favourite`]: { setup: bobs, reads: (b) => expect(b).toMatchObject({ favourited: true, favourites_count: 1 }) },
  [`POST /api/v1/statuses/:id/unfavourite`]: {
    setup: async (f) => {
      const { id } = await bobs(f);
      await f.ok("POST", `/api/v1/statuses/${id}/favourite`, f.alice.token);
      return { id };
    },
    reads: (b) => expect(b).toMatchObject({ favourited: false, favourites_count: 0 }),
  },
  [`POST /api/v1/statuses/:id/reblog`]: { setup: bobs, json: () => ({ visibility: "public" }), reads: (b, v) => expect(b).toMatchObject({ reblogged: true, reblog: expect.objectContaining({ id: v.id, reblogged: true }) }) },
  [`POST /api/v1/statuses/:id/unreblog`]: {
    setup: async (f) => {
      const { id } = await bobs(f);
      await f.ok("POST", `/api/v1/statuses/${id}/reblog`, f.alice.token);
      return { id };
    },
    reads: (b, v) => expect(b).toMatchObject({ id: v.id, reblogged: false }),
  },
  [`POST /api/v1/statuses/:id/bookmark`]: {
    setup: async (f) => ({ ...(await bobs(f)), folder: (await f.ok("POST", `${P}/bookmark_folders`, f.alice.token, { name: f.unique("folder") })).id }),
    // bookmarkStatus sends the folder the user picked
    json: (v) => (v._app === "pleroma-fe" ? { folder_id: v.folder } : {}),
    reads: (b, v) => expect(b).toMatchObject({ bookmarked: true, ...(v._app === "pleroma-fe" ? { pleroma: expect.objectContaining({ bookmark_folder: v.folder }) } : {}) }),
  },
  [`POST /api/v1/statuses/:id/unbookmark`]: {
    setup: async (f) => {
      const { id } = await bobs(f);
      await f.ok("POST", `/api/v1/statuses/${id}/bookmark`, f.alice.token);
      return { id };
    },
    reads: (b) => expect(b).toMatchObject({ bookmarked: false }),
  },
  [`POST /api/v1/statuses/:id/mute`]: { setup: alices, reads: (b) => expect(b).toMatchObject({ muted: true }) },
  [`POST /api/v1/statuses/:id/unmute`]: {
    setup: async (f) => {
      const { id } = await alices(f);
      await f.ok("POST", `/api/v1/statuses/${id}/mute`, f.alice.token);
      return { id };
    },
    reads: (b) => expect(b).toMatchObject({ muted: false }),
  },
  [`POST /api/v1/statuses/:id/pin`]: { setup: alices, reads: (b) => expect(b).toMatchObject({ pinned: true }) },
  [`POST /api/v1/statuses/:id/unpin`]: {
    setup: async (f) => {
      const { id } = await alices(f);
      await f.ok("POST", `/api/v1/statuses/${id}/pin`, f.alice.token);
      return { id };
    },
    reads: (b) => expect(b).toMatchObject({ pinned: false }),
  },
  [`GET ${P}/statuses/:id/quotes`]: {
    setup: async (f) => {
      const { id } = await bobs(f);
      const quote = await f.post(f.alice.token, "quoting bob", { quote_id: id });
      return { id, quote };
    },
    reads: (b, v) => expect(ids(b)).toEqual([v.quote]),
  },
  [`GET ${P}/statuses/:id/reactions`]: {
    setup: async (f) => {
      const { id } = await bobs(f);
      await f.ok("PUT", `${P}/statuses/${id}/reactions/${encodeURIComponent("👍")}`, f.alice.token);
      return { id };
    },
    reads: (b) => expect(b).toEqual([expect.objectContaining({ name: "👍", count: 1, me: true, accounts: [expect.objectContaining({ acct: "alice" })] })]),
  },
  [`GET ${P}/statuses/:id/reactions/:emoji`]: {
    setup: async (f) => {
      const { id } = await bobs(f);
      await f.ok("PUT", `${P}/statuses/${id}/reactions/${encodeURIComponent("🎉")}`, f.alice.token);
      return { id, emoji: "🎉" };
    },
    reads: (b) => expect(b).toEqual([expect.objectContaining({ name: "🎉", count: 1 })]),
  },
  [`PUT ${P}/statuses/:id/reactions/:emoji`]: {
    setup: async (f) => ({ ...(await bobs(f)), emoji: "👍" }),
    reads: (b) => expect(b.pleroma.emoji_reactions).toEqual([expect.objectContaining({ name: "👍", count: 1, me: true })]),
  },
  [`DELETE ${P}/statuses/:id/reactions/:emoji`]: {
    setup: async (f) => {
      const { id } = await bobs(f);
      await f.ok("PUT", `${P}/statuses/${id}/reactions/${encodeURIComponent("👍")}`, f.alice.token);
      return { id, emoji: "👍" };
    },
    reads: (b) => expect(b.pleroma.emoji_reactions).toEqual([]),
  },
  [`GET /api/v1/polls/:id`]: {
    setup: async (f) => ({ id: (await f.ok("POST", "/api/v1/statuses", f.bob.token, { status: "poll", poll: { options: ["a", "b"], expires_in: 3600 } })).poll.id }),
    reads: (b, v) => expect(b).toMatchObject({ id: v.id, options: [{ title: "a", votes_count: 0 }, { title: "b", votes_count: 0 }], expired: false, multiple: false, voted: false }),
  },
  [`POST /api/v1/polls/:id/votes`]: {
    setup: async (f) => ({ id: (await f.ok("POST", "/api/v1/statuses", f.bob.token, { status: "poll", poll: { options: ["a", "b"], expires_in: 3600 } })).poll.id }),
    json: () => ({ choices: [1] }),
    reads: (b) => expect(b).toMatchObject({ voted: true, own_votes: [1], votes_count: 1 }),
  },
  [`POST /api/v1/reports`]: {
    setup: async (f) => ({ id: f.bob.id, status: await f.post(f.bob.token, "reported") }),
    json: (v) => ({ account_id: v.id, status_ids: [v.status], comment: "please look", forward: false }),
    reads: (b) => expect(b).toMatchObject({ id: expect.any(String), action_taken: false }),
  },

  // media
  [`POST /api/v1/media`]: {
    multipart: async () => {
      const form = new FormData();
      form.set("file", new Blob([await png()], { type: "image/png" }), "square.png");
      return form;
    },
    reads: (b) => expect(b).toMatchObject({ id: expect.any(String), type: "image", url: expect.any(String), preview_url: expect.any(String) }),
  },
  [`POST /api/v2/media`]: {
    multipart: async () => {
      const form = new FormData();
      form.set("file", new Blob([await png()], { type: "image/png" }), "square.png");
      form.set("description", "a red square");
      return form;
    },
    reads: (b) => expect(b).toMatchObject({ id: expect.any(String), type: "image", description: "a red square" }),
  },
  [`GET /api/v1/media/:id`]: { setup: async (f) => ({ id: await f.media() }), reads: (b, v) => expect(b).toMatchObject({ id: v.id, description: "a red square" }) },
  [`PUT /api/v1/media/:id`]: {
    setup: async (f) => ({ id: await f.media() }),
    // setMediaDescription sends JSON; megalodon's putForm a FormData
    json: (v) => (v._app === "megalodon" ? undefined : { description: "described" }),
    multipart: async (v) => (v._app === "megalodon" ? multipart({ description: "described" })() : (undefined as unknown as FormData)),
    reads: (b) => expect(b).toMatchObject({ description: "described" }),
  },

  // timelines
  [`GET /api/v1/timelines/home`]: {
    setup: async (f) => (await f.follow(f.alice.token, f.bob.id), bobs(f)),
    query: () => "limit=20&with_muted=true",
    reads: (b, v) => {
      statuses(b);
      expect(ids(b)).toContain(v.id);
    },
  },
  [`GET /api/v1/timelines/public`]: { setup: bobs, query: () => "local=true&limit=20", reads: (b, v) => expect(ids(b)).toContain(v.id) },
  [`GET /api/v1/timelines/direct`]: {
    setup: async (f) => ({ id: await f.post(f.bob.token, "@alice psst", { visibility: "direct" }) }),
    reads: (b, v) => expect(b.find((s: { id: string }) => s.id === v.id)).toMatchObject({ visibility: "direct" }),
  },
  [`GET /api/v1/timelines/list/:id`]: {
    setup: async (f) => {
      const list = await f.list();
      await f.follow(f.alice.token, f.bob.id);
      await f.ok("POST", `/api/v1/lists/${list}/accounts`, f.alice.token, { account_ids: [f.bob.id] });
      return { id: list, list_id: list, status: await f.post(f.bob.token, "for the list") };
    },
    reads: (b, v) => expect(ids(b)).toContain(v.status),
  },
  [`GET /api/v1/timelines/tag/:tag`]: { setup: async (f) => ({ ...(await bobs(f)), tag: "replay", hashtag: "replay" }), reads: (b, v) => expect(ids(b)).toContain(v.id) },
  [`GET /api/v1/favourites`]: {
    setup: async (f) => {
      const { id } = await bobs(f);
      await f.ok("POST", `/api/v1/statuses/${id}/favourite`, f.alice.token);
      return { id };
    },
    reads: (b, v) => expect(ids(b)).toContain(v.id),
  },
  [`GET /api/v1/bookmarks`]: {
    setup: async (f) => {
      const { id } = await bobs(f);
      await f.ok("POST", `/api/v1/statuses/${id}/bookmark`, f.alice.token);
      return { id };
    },
    reads: (b, v) => expect(ids(b)).toContain(v.id),
  },
  [`GET /api/v2/search`]: {
    setup: bobs,
    query: () => "q=bob&resolve=true&limit=20",
    reads: (b) => {
      expect(b).toMatchObject({ accounts: expect.any(Array), statuses: expect.any(Array), hashtags: expect.any(Array) });
      expect(b.accounts.map((a: { acct: string }) => a.acct)).toContain("bob");
    },
  },
  [`GET /api/v1/instance/peers`]: { reads: (b) => expect(b).toEqual(expect.any(Array)) },
  [`GET /api/v1/domain_blocks`]: {
    setup: async (f) => (await f.ok("POST", "/api/v1/domain_blocks", f.alice.token, { domain: "muted.test" }), {}),
    reads: (b) => expect(b).toContain("muted.test"),
  },
  [`POST /api/v1/domain_blocks`]: { json: () => ({ domain: "blocked.test" }), reads: (b) => expect(b).toEqual({}) },
  [`DELETE /api/v1/domain_blocks`]: {
    setup: async (f) => (await f.ok("POST", "/api/v1/domain_blocks", f.alice.token, { domain: "unblocked.test" }), {}),
    json: () => ({ domain: "unblocked.test" }),
    reads: (b) => expect(b).toEqual({}),
  },

  // notifications
  [`GET /api/v1/notifications`]: {
    setup: notificationOf,
    reads: (b, v) => expect(b.find((n: { id: string }) => n.id === v.id)).toMatchObject({ type: "mention", account: expect.objectContaining({ acct: "bob" }), status: expect.any(Object), pleroma: { is_seen: expect.any(Boolean), is_muted: expect.any(Boolean) } }),
  },
  [`GET /api/v1/notifications/:id`]: { setup: notificationOf, reads: (b, v) => expect(b).toMatchObject({ id: v.id, type: "mention" }) },
  [`POST /api/v1/notifications/:id/dismiss`]: { setup: notificationOf, reads: (b) => expect(b).toEqual({}) },
  [`POST /api/v1/notifications/clear`]: { setup: notificationOf, reads: (b) => expect(b).toEqual({}) },
  [`POST ${P}/notifications/read`]: {
    setup: notificationOf,
    // markNotificationsAsSeen sends max_id in a FormData; megalodon sends {id} or {max_id} as JSON
    multipart: async (v) => (v._app === "pleroma-fe" ? multipart({ max_id: v.id! })() : (undefined as unknown as FormData)),
    json: (v) => (v._app === "megalodon" ? { id: v.id } : undefined),
    reads: (b, v) => {
      const read = Array.isArray(b) ? b : [b];
      expect(read.find((n: { id: string }) => n.id === v.id)).toMatchObject({ pleroma: expect.objectContaining({ is_seen: true }) });
    },
  },
  [`POST /api/v1/markers`]: {
    setup: notificationOf,
    json: (v) => ({ notifications: { last_read_id: v.id } }),
    reads: (b, v) => expect(b.notifications).toMatchObject({ last_read_id: v.id, version: expect.any(Number), updated_at: expect.any(String) }),
  },
  [`GET /api/v1/push/subscription`]: {
    setup: async (f) => (await f.ok("POST", "/api/v1/push/subscription", f.alice.token, { subscription: pushSubscription(), data: { alerts: { mention: true } } }), {}),
    reads: (b) => expect(b).toMatchObject({ id: expect.anything(), endpoint: expect.any(String), alerts: expect.objectContaining({ mention: true }), server_key: expect.any(String) }),
  },
  [`POST /api/v1/push/subscription`]: {
    json: () => ({ subscription: pushSubscription(), data: { alerts: { follow: true, mention: true, favourite: false } } }),
    reads: (b) => expect(b).toMatchObject({ endpoint: expect.any(String), alerts: expect.objectContaining({ follow: true, favourite: false }), server_key: expect.any(String) }),
  },
  [`PUT /api/v1/push/subscription`]: {
    setup: async (f) => (await f.ok("POST", "/api/v1/push/subscription", f.alice.token, { subscription: pushSubscription(), data: { alerts: { mention: true } } }), {}),
    json: () => ({ data: { alerts: { mention: false, reblog: true } } }),
    reads: (b) => expect(b.alerts).toMatchObject({ mention: false, reblog: true }),
  },
  [`DELETE /api/v1/push/subscription`]: {
    setup: async (f) => (await f.ok("POST", "/api/v1/push/subscription", f.alice.token, { subscription: pushSubscription(), data: { alerts: { mention: true } } }), {}),
    reads: (b) => expect(b).toEqual({}),
  },

  // lists
  [`GET /api/v1/lists`]: { setup: async (f) => ({ id: await f.list() }), reads: (b, v) => expect(b.find((l: { id: string }) => l.id === v.id)).toMatchObject({ title: expect.any(String) }) },
  [`POST /api/v1/lists`]: { json: () => ({ title: "friends" }), reads: (b) => expect(b).toMatchObject({ id: expect.any(String), title: "friends" }) },
  [`GET /api/v1/lists/:id`]: { setup: async (f) => ({ id: await f.list() }), reads: (b, v) => expect(b).toMatchObject({ id: v.id, title: expect.any(String) }) },
  [`PUT /api/v1/lists/:id`]: { setup: async (f) => ({ id: await f.list() }), json: () => ({ title: "renamed" }), reads: (b) => expect(b).toMatchObject({ title: "renamed" }) },
  [`DELETE /api/v1/lists/:id`]: { setup: async (f) => ({ id: await f.list() }), reads: (b) => expect(b).toEqual({}) },
  [`GET /api/v1/lists/:id/accounts`]: {
    setup: async (f) => {
      const id = await f.list();
      await f.follow(f.alice.token, f.bob.id);
      await f.ok("POST", `/api/v1/lists/${id}/accounts`, f.alice.token, { account_ids: [f.bob.id] });
      return { id };
    },
    reads: (b, _v, f) => expect(ids(b)).toEqual([f.bob.id]),
  },
  [`POST /api/v1/lists/:id/accounts`]: {
    setup: async (f) => (await f.follow(f.alice.token, f.bob.id), { id: await f.list() }),
    json: (_v, f) => ({ account_ids: [f.bob.id] }),
    reads: (b) => expect(b).toEqual({}),
  },
  [`DELETE /api/v1/lists/:id/accounts`]: {
    setup: async (f) => {
      const id = await f.list();
      await f.follow(f.alice.token, f.bob.id);
      await f.ok("POST", `/api/v1/lists/${id}/accounts`, f.alice.token, { account_ids: [f.bob.id] });
      return { id };
    },
    json: (_v, f) => ({ account_ids: [f.bob.id] }),
    reads: (b) => expect(b).toEqual({}),
  },

  // filters (v1)
  [`GET /api/v1/filters`]: {
    setup: async (f) => ({ id: (await f.ok("POST", "/api/v1/filters", f.alice.token, { phrase: "spoilers", context: ["home"] })).id }),
    reads: (b, v) => expect(b.find((x: { id: string }) => x.id === v.id)).toMatchObject({ phrase: "spoilers", context: ["home"], whole_word: expect.any(Boolean), irreversible: expect.any(Boolean) }),
  },
  [`POST /api/v1/filters`]: { json: () => ({ phrase: "cats", context: ["home", "public"], irreversible: false, whole_word: true, expires_in: null }), reads: (b) => expect(b).toMatchObject({ id: expect.any(String), phrase: "cats", whole_word: true }) },
  [`GET /api/v1/filters/:id`]: { setup: async (f) => ({ id: (await f.ok("POST", "/api/v1/filters", f.alice.token, { phrase: "one", context: ["home"] })).id }), reads: (b, v) => expect(b).toMatchObject({ id: v.id, phrase: "one" }) },
  [`PUT /api/v1/filters/:id`]: {
    setup: async (f) => ({ id: (await f.ok("POST", "/api/v1/filters", f.alice.token, { phrase: "two", context: ["home"] })).id }),
    json: () => ({ phrase: "three", context: ["home"] }),
    reads: (b) => expect(b).toMatchObject({ phrase: "three" }),
  },
  [`DELETE /api/v1/filters/:id`]: { setup: async (f) => ({ id: (await f.ok("POST", "/api/v1/filters", f.alice.token, { phrase: "gone", context: ["home"] })).id }), reads: (b) => expect(b).toEqual({}) },

  // conversations
  [`GET /api/v1/conversations`]: {
    setup: async (f) => ({ status: await f.post(f.bob.token, "@alice a direct one", { visibility: "direct" }) }),
    reads: (b, v) => expect(b.find((c: { last_status: { id: string } }) => c.last_status?.id === v.status)).toMatchObject({ id: expect.any(String), accounts: [expect.objectContaining({ acct: "bob" })], unread: expect.any(Boolean) }),
  },
  [`DELETE /api/v1/conversations/:id`]: {
    setup: async (f) => {
      await f.post(f.bob.token, "@alice to be removed", { visibility: "direct" });
      return { id: (await f.ok("GET", "/api/v1/conversations", f.alice.token))[0].id };
    },
    reads: (b) => expect(b).toEqual({}),
  },
  [`POST /api/v1/conversations/:id/read`]: {
    setup: async (f) => {
      await f.post(f.bob.token, "@alice to be read", { visibility: "direct" });
      return { id: (await f.ok("GET", "/api/v1/conversations", f.alice.token))[0].id };
    },
    reads: (b, v) => expect(b).toMatchObject({ id: v.id, unread: false }),
  },

  // scheduled statuses
  [`GET /api/v1/scheduled_statuses`]: { setup: scheduled, reads: (b, v) => expect(b.find((s: { id: string }) => s.id === v.id)).toMatchObject({ scheduled_at: expect.any(String), params: expect.objectContaining({ text: "later" }) }) },
  [`GET /api/v1/scheduled_statuses/:id`]: { setup: scheduled, reads: (b, v) => expect(b).toMatchObject({ id: v.id, params: expect.objectContaining({ text: "later" }) }) },
  [`PUT /api/v1/scheduled_statuses/:id`]: {
    setup: scheduled,
    json: () => ({ scheduled_at: new Date(Date.now() + 7_200_000).toISOString() }),
    reads: (b) => expect(new Date(b.scheduled_at).getTime()).toBeGreaterThan(Date.now() + 3_700_000),
  },
  [`DELETE /api/v1/scheduled_statuses/:id`]: { setup: scheduled, reads: (b) => expect(b).toEqual({}) },

  // chats
  [`GET ${P}/chats`]: {
    setup: async (f) => ({ id: (await f.chat()).chat }),
    reads: (b, v) => expect(b.find((c: { id: string }) => c.id === v.id)).toMatchObject({ account: expect.objectContaining({ acct: "bob" }), unread: expect.any(Number), last_message: expect.any(Object), updated_at: expect.any(String) }),
  },
  [`POST ${P}/chats/by-account-id/:id`]: { setup: async (f) => ({ id: f.bob.id }), reads: (b) => expect(b).toMatchObject({ id: expect.any(String), account: expect.objectContaining({ acct: "bob" }) }) },
  [`GET ${P}/chats/:id/messages`]: { setup: async (f) => ({ id: (await f.chat()).chat }), reads: (b) => expect(b[0]).toMatchObject({ content: "hello bob", account_id: expect.any(String), chat_id: expect.any(String), created_at: expect.any(String) }) },
  [`POST ${P}/chats/:id/messages`]: {
    setup: async (f) => ({ id: (await f.chat()).chat }),
    json: () => ({ content: "sent by the web client" }),
    reads: (b, v) => expect(b).toMatchObject({ chat_id: v.id, content: "sent by the web client" }),
  },
  [`POST ${P}/chats/:id/read`]: {
    setup: async (f) => {
      await f.chat();
      const bobsChat = await f.ok("POST", `${P}/chats/by-account-id/${f.alice.id}`, f.bob.token);
      // readChat sends the newest id of the messages the reader's own chat shows
      const [newest] = await f.ok("GET", `${P}/chats/${bobsChat.id}/messages`, f.bob.token);
      return { id: bobsChat.id, last: newest.id, _token: f.bob.token };
    },
    json: (v) => ({ last_read_id: v.last }),
    reads: (b) => expect(b).toMatchObject({ unread: 0 }),
  },
  [`DELETE ${P}/chats/:chatId/messages/:messageId`]: {
    setup: async (f) => {
      const { chat, message } = await f.chat();
      return { chatId: chat, messageId: message };
    },
    reads: (b, v) => expect(b).toMatchObject({ id: v.messageId }),
  },

  // bookmark folders
  [`GET ${P}/bookmark_folders`]: {
    setup: async (f) => ({ id: (await f.ok("POST", `${P}/bookmark_folders`, f.alice.token, { name: f.unique("f"), emoji: "📚" })).id }),
    reads: (b, v) => expect(b.find((x: { id: string }) => x.id === v.id)).toMatchObject({ name: expect.any(String), emoji: "📚" }),
  },
  [`POST ${P}/bookmark_folders`]: { json: () => ({ name: "reading", emoji: "📖" }), reads: (b) => expect(b).toMatchObject({ id: expect.any(String), name: "reading", emoji: "📖" }) },
  [`PATCH ${P}/bookmark_folders/:id`]: {
    setup: async (f) => ({ id: (await f.ok("POST", `${P}/bookmark_folders`, f.alice.token, { name: f.unique("f") })).id }),
    json: () => ({ name: "renamed folder" }),
    reads: (b) => expect(b).toMatchObject({ name: "renamed folder" }),
  },
  [`DELETE ${P}/bookmark_folders/:id`]: {
    setup: async (f) => ({ id: (await f.ok("POST", `${P}/bookmark_folders`, f.alice.token, { name: f.unique("f") })).id }),
    reads: (b, v) => expect(b).toMatchObject({ id: v.id }),
  },

  // emoji packs the web client's admin reads (the admin-fe cases cover the rest)
  [`GET ${P}/emoji/packs/remote`]: {
    setup: async (f) => ({ pack: await f.pack(), url: f.server.url, baseName_instance: f.server.url }),
    reads: (b, v) => expect(b.packs[v.pack!]).toMatchObject({ files: expect.any(Object), pack: expect.any(Object) }),
  },
  [`POST ${P}/emoji/packs/download`]: {
    who: "admin",
    setup: async (f) => {
      const pack = await f.pack();
      await f.ok("PATCH", `${P}/emoji/pack?name=${pack}`, f.admin.token, { metadata: { "share-files": true } });
      return { pack, as: f.unique("copied") };
    },
    json: (v, f) => ({ url: f.server.url, name: v.pack, as: v.as }),
    reads: async (b, v, f) => {
      expect(b).toBe("ok");
      expect((await f.ok("GET", `${P}/emoji/pack?name=${v.as}`, f.admin.token)).files_count).toBe(1);
    },
  },

  // the streaming socket (pleroma-fe's getMastodonSocketURI: the token in the query, one stream per socket)
  [`WS /api/v1/streaming`]: {
    run: async (f) => {
      const hub = streamHub(f.server.services);
      const subscribed = hub.stats().subscriptions;
      const ws = new WebSocket(`${f.server.url.replace(/^http/, "ws")}/api/v1/streaming?access_token=${f.alice.token}&stream=user`);
      await new Promise((resolve, reject) => (ws.once("open", resolve), ws.once("error", reject)));
      try {
        const event = new Promise<{ event: string; payload: string }>((resolve) =>
          ws.on("message", (m) => {
            const parsed = JSON.parse(String(m));
            if (parsed.event === "notification") resolve(parsed);
          }),
        );
        // the subscription is registered server-side (after its token check) before the event happens
        await waitFor(() => hub.stats().subscriptions > subscribed, "the user stream to be subscribed", { intervalMs: 10 });
        const id = await f.post(f.bob.token, "@alice over the socket");
        const got = await event;
        expect(got.event).toBe("notification");
        expect(JSON.parse(got.payload)).toMatchObject({ type: "mention", status: expect.objectContaining({ id }) });
      } finally {
        ws.close();
      }
    },
  },
};

// the same route under the other spelling the clients use
clientCases[`GET /api/v1/blocks/`] = clientCases[`GET /api/v1/blocks`]!;
clientCases[`GET /api/v1/mutes/`] = clientCases[`GET /api/v1/mutes`]!;
clientCases[`GET /api/v1/timelines/list/:list_id`] = clientCases[`GET /api/v1/timelines/list/:id`]!;
clientCases[`GET /api/v1/timelines/tag/:hashtag`] = clientCases[`GET /api/v1/timelines/tag/:tag`]!;

function multipartOf(keys: string[]) {
  return async (v: Vars) => {
    const form = new FormData();
    for (const k of keys) form.set(k, v[k]!);
    return form;
  };
}
