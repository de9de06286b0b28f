// Counters and small truths (issue 18, criterion 9): status counts, active users from a last-activity
// time that sign-ins and API use write (cheaply), report categories and rules, the invitation link's
// registration page, moderation-log entries, installed frontends served, the GraphQL explorer.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { zipSync, strToU8 } from "fflate";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { suiteKinds } from "../support/databases.ts";
import { linkIn, readMails } from "../support/mailbox.ts";
import { admin, user } from "../support/actors.ts";
import { passwordToken, startTestServer, type TestServer } from "../support/server.ts";

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

const ADMIN = "/api/v1/ext/admin";
const DAY = 24 * 60 * 60 * 1000;
const auth = (token: string) => ({ authorization: `Bearer ${token}` });

describe.each(suiteKinds(import.meta.url))("counters and small truths on %s", (kind) => {
  let server: TestServer;
  let db: TestServer["services"]["db"];
  const token: Record<string, string> = {};

  const setting = async (group: string, key: string, value: unknown) => {
    await db.configEntry.upsert({ where: { group_key: { group, key } }, create: { group, key, value: value as any }, update: { value: value as any } });
    await server.services.config.reload();
  };
  const json = async (res: Response) => ({ status: res.status, body: await res.json() });
  const logMessages = async () => (await db.moderationLogEntry.findMany({ orderBy: { id: "asc" } })).map((e) => e.message);

  beforeAll(async () => {
    server = await startTestServer(kind, { CONFIGURABLE_FROM_DATABASE: "true" });
    db = server.services.db;
    token.ada = (await admin(server, "ada")).token;
    token.joe = (await user(server, "joe")).token;
  });
  afterAll(() => server?.close());

  test("status_count and NodeInfo localPosts count the local statuses", async () => {
    const count = async () => [(await (await server.fetch("/api/v1/instance")).json()).stats.status_count, (await (await server.fetch("/nodeinfo/2.1.json")).json()).usage.localPosts];
    const [before, beforeNodeinfo] = await count();
    expect(before).toBe(beforeNodeinfo);
    for (const status of ["one", "two"]) expect((await server.fetch("/api/v1/statuses", { json: { status }, headers: auth(token.joe) })).status).toBe(200);
    expect(await count()).toEqual([before + 2, before + 2]);
  });

  test("active users: sign-ins and API use write the last activity, at most once per ten minutes", async () => {
    const usage = async () => (await (await server.fetch("/nodeinfo/2.1.json")).json()).usage.users;
    const mau = async () => (await (await server.fetch("/api/v1/instance")).json()).ext.stats.mau;
    // signed in by the set-up: ada and joe are active
    expect(await usage()).toMatchObject({ activeMonth: 2, activeHalfyear: 2 });
    await server.createUser("sleepy");
    expect((await db.account.findFirstOrThrow({ where: { nickname: "sleepy" } })).lastActiveAt).toBeNull();
    expect(await usage()).toMatchObject({ activeMonth: 2, activeHalfyear: 2 });
    const sleepy = (await passwordToken(server, "sleepy")).access_token;
    expect(await usage()).toMatchObject({ activeMonth: 3, activeHalfyear: 3 });
    expect(await mau()).toBe(3);

    // sleepy last came 40 days ago: counted for the half-year only, until the token is used again
    await db.account.updateMany({ where: { nickname: "sleepy" }, data: { lastActiveAt: new Date(Date.now() - 40 * DAY) } });
    expect(await usage()).toMatchObject({ activeMonth: 2, activeHalfyear: 3 });
    expect((await server.fetch("/api/v1/accounts/verify_credentials", { headers: auth(sleepy) })).status).toBe(200);
    const written = (await db.account.findFirstOrThrow({ where: { nickname: "sleepy" } })).lastActiveAt!;
    expect(Date.now() - written.getTime()).toBeLessThan(60_000);
    expect(await usage()).toMatchObject({ activeMonth: 3, activeHalfyear: 3 });
    // within the window, API use writes nothing more
    const again = await server.countQueries(() => server.fetch("/api/v1/accounts/verify_credentials", { headers: auth(sleepy) }));
    expect((await db.account.findFirstOrThrow({ where: { nickname: "sleepy" } })).lastActiveAt).toEqual(written);
    await db.account.updateMany({ where: { nickname: "sleepy" }, data: { lastActiveAt: new Date(Date.now() - 20 * 60 * 1000) } });
    const stale = await server.countQueries(() => server.fetch("/api/v1/accounts/verify_credentials", { headers: auth(sleepy) }));
    expect(stale.queries).toBe(again.queries + 1);
  });

  test("reports keep their category and rules, shown to the reporter and to admins", async () => {
    const rule = await json(await server.fetch(`${ADMIN}/rules`, { json: { text: "Be kind" }, headers: auth(token.ada) }));
    expect(rule.status).toBe(200);
    const ada = await db.account.findFirstOrThrow({ where: { nickname: "ada" } });
    const report = (body: Record<string, unknown>) => server.fetch("/api/v1/reports", { json: { account_id: ada.id, ...body }, headers: auth(token.joe) }).then(json);

    const violation = await report({ rule_ids: [rule.body.id], comment: "rude" });
    expect(violation.status).toBe(200);
    expect(violation.body).toMatchObject({ category: "violation", rule_ids: [String(rule.body.id)] });
    const spam = await report({ category: "spam" });
    expect(spam.body).toMatchObject({ category: "spam", rule_ids: null });
    expect((await report({})).body).toMatchObject({ category: "other", rule_ids: null });
    expect((await report({ category: "boring" })).status).toBe(422);
    expect((await report({ rule_ids: ["999999"] })).status).toBe(422);

    const row = await db.report.findUniqueOrThrow({ where: { id: violation.body.id } });
    expect(row).toMatchObject({ category: "violation", ruleIds: [String(rule.body.id)] });
    const shown = await json(await server.fetch(`${ADMIN}/reports/${violation.body.id}`, { headers: auth(token.ada) }));
    expect(shown.body).toMatchObject({ category: "violation", rule_ids: [String(rule.body.id)] });
  });

  test("the invitation e-mail's link opens a registration page that registers the invitee", async () => {
    await setting("instance", "registrations_open", false);
    await setting("instance", "invites_enabled", true);
    try {
      expect((await server.fetch(`${ADMIN}/users/email_invite`, { json: { email: "newbie@example.test" }, headers: auth(token.ada) })).status).toBe(204);
      const mail = readMails(server.dataDir).find((m) => m.to.includes("newbie@example.test"))!;
      const link = linkIn(mail, "http://localhost:4000", /^\/registration\//)!;
      const page = await server.fetch(link, { headers: { accept: "text/html" } });
      expect(page.status).toBe(200);
      expect(page.headers.get("content-type")).toMatch(/^text\/html/);
      const html = await page.text();
      expect(html).toContain('name="username"');
      expect(html).toContain(`action="${link}"`);
      expect(html).toContain('name="agreement"');

      const submit = (fields: Record<string, string>) => server.fetch(link, { method: "POST", form: fields, headers: { accept: "text/html" } });
      const mismatch = await submit({ username: "newbie", email: "newbie@example.test", password: "a good password", password_confirmation: "another" });
      expect(mismatch.status).toBe(422);
      expect(await mismatch.text()).toContain("The passwords do not match.");
      const done = await submit({ username: "newbie", email: "newbie@example.test", password: "a good password", password_confirmation: "a good password", agreement: "true" });
      expect(done.status, await done.clone().text()).toBe(200);
      expect(await done.text()).toContain("Welcome, @newbie!");
      // the account signs in; the one-time invite is spent
      expect((await passwordToken(server, "newbie", "read", "a good password")).access_token).toBeTruthy();
      const twice = await submit({ username: "other", email: "other@example.test", password: "a good password", password_confirmation: "a good password", agreement: "true" });
      expect(twice.status).toBe(422);
      expect(await db.account.count({ where: { nickname: "other" } })).toBe(0);
      // a made-up token registers nobody
      const forged = await server.fetch("/registration/forged", { method: "POST", form: { username: "x1", password: "a good password", password_confirmation: "a good password", agreement: "true" } });
      expect(forged.status).toBe(422);
    } finally {
      await setting("instance", "registrations_open", true);
    }
  });

  test("the moderation log records config changes, announcements, media-proxy purges and emoji changes", async () => {
    const before = (await logMessages()).length;
    const post = (p: string, body: unknown, method = "POST") => server.fetch(p, { method, json: body, headers: auth(token.ada) });
    expect((await post(`${ADMIN}/config`, { configs: [{ group: ":pleroma", key: ":instance", value: [{ tuple: [":name", "Renamed"] }] }] })).status).toBe(200);
    const ann = await json(await post(`${ADMIN}/announcements`, { content: "hello all" }));
    expect(ann.status).toBe(200);
    expect((await post(`${ADMIN}/announcements/${ann.body.id}`, { content: "hello again" }, "PATCH")).status).toBe(200);
    expect((await server.fetch(`${ADMIN}/announcements/${ann.body.id}`, { method: "DELETE", headers: auth(token.ada) })).status).toBe(200);
    expect((await post(`${ADMIN}/media_proxy_caches/purge`, { urls: ["https://remote.example/a.png"], ban: true })).status).toBe(200);
    expect((await post(`${ADMIN}/media_proxy_caches/delete`, { urls: ["https://remote.example/a.png"] })).status).toBe(200);
    expect((await server.fetch("/api/v1/ext/emoji/pack?name=logged", { method: "POST", headers: auth(token.ada) })).status).toBe(200);
    expect((await server.fetch("/api/v1/ext/emoji/pack?name=logged", { method: "DELETE", headers: auth(token.ada) })).status).toBe(200);

    const added = (await logMessages()).slice(before);
    expect(added).toEqual([
      "@ada updated config: :pleroma :instance",
      `@ada created announcement #${ann.body.id}`,
      `@ada updated announcement #${ann.body.id}`,
      `@ada deleted announcement #${ann.body.id}`,
      "@ada purged URLs from the media proxy cache and banned them: https://remote.example/a.png",
      "@ada lifted the media proxy ban of URLs: https://remote.example/a.png",
      "@ada created emoji pack logged",
      "@ada deleted emoji pack logged",
    ]);
    // and the admin API shows them
    const listed = await json(await server.fetch(`${ADMIN}/moderation_log`, { headers: auth(token.ada) }));
    expect(listed.body.items.map((i: { message: string }) => i.message)).toContain("@ada created emoji pack logged");
  });

  test("an installed frontend is served at / once it is the primary one; the API is not shadowed", async () => {
    // without one, / is the landing page (src/federation/pages)
    const landing = async () => {
      const res = await server.fetch("/", { headers: { accept: "text/html" } });
      return [res.status, (await res.text()).includes("test fe")];
    };
    expect(await landing()).toEqual([200, false]);
    const zip = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "fe-")), "fe.zip");
    fs.writeFileSync(zip, zipSync({ "dist/index.html": strToU8("<!doctype html><title>test fe</title><div id=app></div>"), "dist/static/app.js": strToU8("console.log('fe')") }));
    expect((await server.fetch(`${ADMIN}/frontends/install`, { json: { name: "pleroma-fe", ref: "v1", file: zip }, headers: auth(token.ada) })).status).toBe(200);
    await setting("frontends", "primary", { name: "pleroma-fe", ref: "v1" });
    try {
      const root = await server.fetch("/", { headers: { accept: "text/html" } });
      expect(root.status).toBe(200);
      expect(await root.text()).toContain("<title>test fe</title>");
      const script = await server.fetch("/static/app.js");
      expect([script.status, await script.text()]).toEqual([200, "console.log('fe')"]);
      // the single-page app's own paths get its index; the API answers as before
      expect(await (await server.fetch("/users/ada/followers-page", { headers: { accept: "text/html" } })).text()).toContain("test fe");
      expect((await server.fetch("/main/public", { headers: { accept: "application/json" } })).status).toBe(404);
      expect((await (await server.fetch("/api/v1/instance")).json()).uri).toBe("localhost:4000");
    } finally {
      await setting("frontends", "primary", {});
    }
    expect(await landing()).toEqual([200, false]);
  });

  test("the GraphQL explorer is off in production until an admin turns it on", async () => {
    const explorer = () => server.fetch("/graphql", { headers: { accept: "text/html" } });
    expect(await (await explorer()).text()).not.toMatch(/graphiql/i);
    await setting("graphql", "explorer", true);
    try {
      const on = await explorer();
      expect(on.status).toBe(200);
      expect(await on.text()).toMatch(/graphiql/i);
    } finally {
      await setting("graphql", "explorer", false);
    }
  });
});

describe("the GraphQL explorer in development", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer("pglite", { NODE_ENV: "development" });
  });
  afterAll(() => server?.close());

  test("GET /graphql from a browser is GraphiQL", async () => {
    const res = await server.fetch("/graphql", { headers: { accept: "text/html" } });
    expect(res.status).toBe(200);
    expect(await res.text()).toMatch(/graphiql/i);
  });
});
