// The admin UI in a real browser (issue 15, criterion 6): Debian's Chromium driven by playwright-core
// against our server started as its own process the way `npm start` runs it (src/main.ts, serving the
// built web-admin/dist), on a fresh PostgreSQL database. A second session (REST with a user's token)
// files a report while the page is open; the admin token plays the outside observer that checks state.
// Screenshots of every page go to .tmp/admin-ui/ (the test artifacts); axe-core runs on every page.
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { decodeBase32IgnorePadding } from "@oslojs/encoding";
import { generateHOTP } from "@oslojs/otp";
import pg from "pg";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { newId } from "../../src/db/ids.ts";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { freshDatabase } from "../support/databases.ts";
import { killServers, spawnServer, type ServerProcess } from "../realtime/helpers.ts";
import { waitFor } from "../support/wait.ts";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const ARTIFACTS = path.resolve(import.meta.dirname, "../../.tmp/admin-ui");
const ADMIN_TOKEN = "e2e-admin-token-0123456789";
const PASSWORD = "correct horse battery";
const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/** Every page the UI has, with a heading it shows once loaded. */
const PAGES: [string, string, RegExp][] = [
  ["dashboard", "/admin/", /^Dashboard$/],
  ["users", "/admin/users", /^Users$/],
  ["user-detail", "/admin/users/bob", /@bob/],
  ["user-chats", "/admin/users/alice/chats", /Chats of @alice/],
  ["reports", "/admin/reports", /^Reports$/],
  ["invites", "/admin/invites", /^Invites$/],
  ["config", "/admin/config", /Configuration/],
  ["moderation-log", "/admin/log", /Moderation log/],
  ["relays", "/admin/relays", /Relays/],
  ["statuses", "/admin/statuses", /^Statuses$/],
  ["emoji", "/admin/emoji", /Emoji packs/],
  ["announcements", "/admin/announcements", /^Announcements$/],
  ["media-proxy", "/admin/media-proxy", /Media-proxy bans/],
  ["oauth-apps", "/admin/apps", /OAuth apps/],
  ["frontends", "/admin/frontends", /Frontends/],
  ["documents", "/admin/documents", /Instance documents/],
  ["instances", "/admin/instances", /^Instances$/],
  ["rules", "/admin/rules", /^Rules$/],
];

describe.skipIf(!fs.existsSync(CHROMIUM))("the admin UI in Chromium", () => {
  let server: ServerProcess;
  let drop: () => Promise<void>;
  let dbUrl = "";
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let totpKey = "";
  const consoleErrors: string[] = [];
  const ids: Record<string, string> = {};

  const api = async (p: string, init: RequestInit & { json?: unknown; token?: string } = {}) => {
    const headers = new Headers(init.headers);
    if (init.token) headers.set("authorization", `Bearer ${init.token}`);
    else headers.set("x-admin-token", ADMIN_TOKEN);
    let body = init.body;
    if (init.json !== undefined) {
      headers.set("content-type", "application/json");
      body = JSON.stringify(init.json);
    }
    const res = await fetch(server.url + p, { ...init, headers, body });
    const text = await res.text();
    if (!res.ok) throw new Error(`${init.method ?? "GET"} ${p}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : null;
  };

  async function userToken(username: string) {
    const app = await api("/api/v1/apps", { method: "POST", json: { client_name: "e2e", redirect_uris: "urn:ietf:wg:oauth:2.0:oob", scopes: "read write follow" } });
    const res = await fetch(`${server.url}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "password", client_id: app.client_id, client_secret: app.client_secret, username, password: PASSWORD, scope: "read write follow" }),
    });
    return ((await res.json()) as { access_token: string }).access_token;
  }

  async function shoot(name: string) {
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
  }

  async function axe() {
    await page.evaluate(axeSource); // evaluate is not subject to the page's CSP (the UI forbids inline scripts)
    const result = (await page.evaluate(() => (window as unknown as { axe: { run(): Promise<unknown> } }).axe.run())) as { violations: { id: string; impact: string; nodes: { target: string[] }[] }[] };
    return result.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  }

  beforeAll(async () => {
    const db = await freshDatabase("postgres");
    drop = db.drop;
    dbUrl = db.url;
    server = await spawnServer({ DATABASE_URL: db.url, ADMIN_TOKEN, CONFIGURABLE_FROM_DATABASE: "true" });
    await api("/api/v1/ext/admin/users", {
      method: "POST",
      json: { users: ["root", "alice", "bob"].map((n) => ({ nickname: n, email: `${n}@example.test`, password: PASSWORD })) },
    });
    await api("/api/v1/ext/admin/users/permission_group/admin", { method: "POST", json: { nicknames: ["root"] } });
    for (const n of ["alice", "bob"]) ids[n] = (await api(`/api/v1/ext/admin/users/${n}`)).id;
    // the administrator turns TOTP on (REST, with their own token)
    const rootToken = await userToken("root");
    totpKey = (await api("/api/ext/accounts/mfa/setup/totp", { token: rootToken })).key;
    const secret = decodeBase32IgnorePadding(totpKey);
    const counter = BigInt(Math.floor(Date.now() / 30_000));
    await api("/api/ext/accounts/mfa/confirm/totp", { method: "POST", token: rootToken, json: { password: PASSWORD, code: generateHOTP(secret, counter, 6) } });

    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    });
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    page.setDefaultTimeout(15_000); // under the test timeout, so a failing step names itself
    page.on("console", (m) => void (m.type() === "error" && consoleErrors.push(`${page.url()}: ${m.text()}`)));
    page.on("pageerror", (e) => void consoleErrors.push(`${page.url()}: ${e.message}`));
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop().catch(() => killServers());
    await drop?.();
  });

  test("/admin is the built UI: index.html is never cached, hashed assets are, and deep links get index.html", async () => {
    const index = await fetch(`${server.url}/admin/`);
    expect(index.status).toBe(200);
    expect(index.headers.get("cache-control")).toBe("no-cache");
    expect(index.headers.get("content-security-policy")).toContain("script-src 'self'");
    const html = await index.text();
    const asset = html.match(/\/admin\/assets\/[^"]+\.js/)?.[0];
    expect(asset).toBeTruthy();
    const js = await fetch(server.url + asset);
    expect(js.status).toBe(200);
    expect(js.headers.get("cache-control")).toMatch(/max-age=31536000.*immutable/);
    const deep = await fetch(`${server.url}/admin/users/bob`);
    expect(deep.status).toBe(200);
    expect(await deep.text()).toBe(html);
    expect((await fetch(`${server.url}/admin/assets/missing-123.js`)).status).toBe(404);
  });

  test("a non-staff account is refused with a clear message and gets no session", async () => {
    await page.goto(`${server.url}/admin/`);
    await page.getByLabel("Nickname or e-mail").fill("alice");
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect.poll(() => page.getByRole("alert").textContent()).toContain("Only administrators and moderators");
    expect((await context.cookies()).some((c) => c.name === "_ext_key")).toBe(false);
    await shoot("sign-in-refused");
  });

  test("the administrator signs in with password and TOTP; the cookie is HttpOnly and SameSite", async () => {
    await page.goto(`${server.url}/admin/`);
    await page.getByLabel("Nickname or e-mail").fill("root");
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    const codeField = page.getByLabel(/Authentication code/);
    await codeField.waitFor();
    await shoot("sign-in-totp");
    // the next period's code (accepted within the drift window; the confirmation used this period's)
    const counter = BigInt(Math.floor(Date.now() / 30_000) + 1);
    await codeField.fill(generateHOTP(decodeBase32IgnorePadding(totpKey), counter, 6));
    await page.getByRole("button", { name: "Verify and sign in" }).click();
    await page.getByRole("heading", { name: "Dashboard" }).waitFor();
    const cookie = (await context.cookies()).find((c) => c.name === "_ext_key");
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Lax" });
  });

  test("a cookie request to /graphql without the CSRF header, or from another origin, is refused", async () => {
    const cookie = (await context.cookies()).find((c) => c.name === "_ext_key")!;
    const body = JSON.stringify({ query: "{ needReboot }" });
    const headers = { "content-type": "application/json", cookie: `_ext_key=${cookie.value}` };
    const bare = await fetch(`${server.url}/graphql`, { method: "POST", headers, body });
    expect(bare.status).toBe(403);
    expect(await bare.json()).toEqual({ error: expect.stringContaining("CSRF") });
    const foreign = await fetch(`${server.url}/graphql`, { method: "POST", headers: { ...headers, "x-csrf-protection": "1", origin: "https://evil.example" }, body });
    expect(foreign.status).toBe(403);
    const ok = await fetch(`${server.url}/graphql`, { method: "POST", headers: { ...headers, "x-csrf-protection": "1" }, body });
    expect(await ok.json()).toEqual({ data: { needReboot: false } });
  });

  test("every list page has an empty state: nothing to list yet, or a filter that matches nothing", async () => {
    const empty = async (url: string, text: string) => {
      await page.goto(server.url + url);
      await page.getByText(text, { exact: true }).waitFor();
    };
    await empty("/admin/invites", "No invites yet.");
    await empty("/admin/relays", "No relays followed.");
    await empty("/admin/emoji", "No emoji packs.");
    await empty("/admin/announcements", "No announcements.");
    await empty("/admin/media-proxy", "No banned URLs.");
    await empty("/admin/reports", "No open reports.");
    await empty("/admin/statuses", "No statuses.");
    await empty("/admin/users/bob/chats", "@bob has no chats.");
    await empty("/admin/instances", "No other instance is known yet.");
    await empty("/admin/rules", "No rules.");
    await empty("/admin/users/bob", "No tags.");
    await page.getByText("No statuses.", { exact: true }).waitFor();
    await shoot("empty-user-detail");
    await page.goto(`${server.url}/admin/users`);
    await page.getByLabel("Search", { exact: true }).fill("nobody-of-that-name");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await page.getByText("No users match.").waitFor();
    await page.goto(`${server.url}/admin/log`);
    await page.getByLabel("Text").fill("no entry says this");
    await page.getByRole("button", { name: "Filter" }).click();
    await page.getByText("No entries match.").waitFor();
    await page.goto(`${server.url}/admin/apps`);
    await page.getByLabel("Exact name").fill("no app has this name");
    await page.getByText("No apps.").waitFor();
  });

  test("the dashboard charts new statuses and sign-ups per day", async () => {
    const aliceToken = await userToken("alice");
    for (const text of ["first words", "second words"]) await api("/api/v1/statuses", { method: "POST", token: aliceToken, json: { status: text } });
    const local = await api("/api/v1/ext/admin/users?filters=local&page_size=100");
    const today = new Date().toISOString().slice(0, 10);
    const signupsToday = local.users.filter((u: { created_at: string }) => u.created_at.startsWith(today)).length;
    await page.goto(`${server.url}/admin/`);
    const statuses = page.getByRole("img", { name: /^New statuses per day/ });
    await expect.poll(() => statuses.getAttribute("aria-label")).toContain(`${today}: 2 local, 0 from other instances`);
    expect(await page.getByRole("img", { name: /^Sign-ups per day/ }).getAttribute("aria-label")).toContain(`${today}: ${signupsToday} sign-ups`);
    await shoot("dashboard-activity");
  });

  test("deactivate and reactivate a user, each after a confirmation", async () => {
    await page.getByRole("link", { name: "Users" }).click();
    await page.getByRole("link", { name: "@bob" }).click();
    await page.getByRole("heading", { name: /@bob/ }).waitFor();
    await page.getByRole("button", { name: "Deactivate" }).click();
    const dialog = page.getByRole("dialog");
    await expect.poll(() => dialog.textContent()).toContain("Deactivate @bob?");
    await dialog.getByRole("button", { name: "Deactivate" }).click();
    await expect.poll(() => page.getByTestId("user-state").textContent()).toBe("deactivated");
    expect((await api("/api/v1/ext/admin/users/bob")).is_active).toBe(false);
    await page.getByRole("button", { name: "Activate" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Activate" }).click();
    await expect.poll(() => page.getByTestId("user-state").textContent()).toBe("active");
    expect((await api("/api/v1/ext/admin/users/bob")).is_active).toBe(true);
  });

  test("generate an invite", async () => {
    await page.getByRole("link", { name: "Invites" }).click();
    await page.getByRole("heading", { name: "Invites", exact: true }).waitFor();
    await page.getByLabel("Uses (empty: one)").fill("3");
    await page.getByRole("button", { name: "Generate" }).click();
    const token = await waitFor(() => page.getByTestId("new-invite").textContent(), "the new invite", { timeoutMs: 15_000 });
    const { invites } = await api("/api/v1/ext/admin/users/invites");
    expect(invites).toContainEqual(expect.objectContaining({ token, max_use: 3, used: false }));
    await expect.poll(() => page.locator("table").textContent()).toContain(token);
  });

  test("a report filed by a second session appears live and is resolved", async () => {
    await page.getByRole("link", { name: "Reports" }).click();
    await page.getByRole("heading", { name: "Reports" }).waitFor();
    await page.getByText("No open reports.").waitFor();
    const aliceToken = await userToken("alice");
    // the subscription may still be starting: file until the page shows the report, then stop
    const comment = `spam from bob ${Date.now()}`;
    await waitFor(async () => {
      await api("/api/v1/reports", { method: "POST", token: aliceToken, json: { account_id: ids.bob, comment } });
      return page.getByText(comment).first().waitFor({ timeout: 3_000 }).then(() => true).catch(() => false);
    }, "the report to appear without reload", { timeoutMs: 30_000 });
    expect(await page.getByRole("status").filter({ hasText: "New report about @bob" }).count()).toBe(1);
    await shoot("reports-live");
    await page.locator("article", { hasText: comment }).first().getByRole("button", { name: "Resolve" }).click();
    const resolved = await waitFor(async () => {
      const { reports } = await api("/api/v1/ext/admin/reports?state=resolved");
      return reports.find((r: { content: string }) => r.content === comment) as { id: string } | undefined;
    }, "the report to be resolved", { timeoutMs: 15_000 });
    // a second administrator (the admin token, over REST) closes it while the resolved list is open
    await page.getByRole("button", { name: "Resolved" }).click();
    const card = page.locator(`[id="report-${resolved.id}"]`);
    await card.waitFor();
    const res = await fetch(`${server.url}/api/v1/ext/admin/reports`, {
      method: "PATCH",
      headers: { "x-admin-token": ADMIN_TOKEN, "content-type": "application/json" },
      body: JSON.stringify({ reports: [{ id: resolved.id, state: "closed" }] }),
    });
    expect(res.status).toBe(204);
    // no reload: the moderation-log event refreshes the open list
    await expect.poll(() => card.count(), { timeout: 15_000 }).toBe(0);
  });

  test("a sign-up appears on the open users page without reload", async () => {
    await page.getByRole("link", { name: "Users", exact: true }).click();
    await page.getByRole("heading", { name: "Users", exact: true }).waitFor();
    const app = await api("/api/v1/apps", { method: "POST", json: { client_name: "signup", redirect_uris: "urn:ietf:wg:oauth:2.0:oob", scopes: "read write" } });
    const grant = await fetch(`${server.url}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "client_credentials", client_id: app.client_id, client_secret: app.client_secret, scope: "read write" }),
    });
    const appToken = ((await grant.json()) as { access_token: string }).access_token;
    let n = 0;
    // the subscription may still be starting: sign up until the page announces one, then check the list
    const nickname = await waitFor(async () => {
      const nick = `newcomer${++n}`;
      await api("/api/v1/accounts", { method: "POST", token: appToken, json: { username: nick, email: `${nick}@example.test`, password: PASSWORD, agreement: true, locale: "en" } });
      return (await page.getByText(`New sign-up: @${nick}`).waitFor({ timeout: 3_000 }).then(() => true).catch(() => false)) && nick;
    }, "the sign-up to be announced", { timeoutMs: 30_000 });
    await page.getByRole("link", { name: `@${nickname}` }).waitFor();
  });

  test("a second administrator's action shows up in the open moderation log", async () => {
    await page.getByRole("link", { name: "Moderation log" }).click();
    await page.getByRole("heading", { name: "Moderation log" }).waitFor();
    // another administrator (the admin token, over REST) tags bob while the page is open
    let n = 0;
    await waitFor(async () => {
      const tag = `watched${++n}`;
      await api("/api/v1/ext/admin/users/tag", { method: "PUT", json: { nicknames: ["bob"], tags: [tag] } });
      return page.locator(".log").getByText(new RegExp(`${tag}`)).first().waitFor({ timeout: 3_000 }).then(() => true).catch(() => false);
    }, "the entry to appear without reload", { timeoutMs: 30_000 });
    await shoot("moderation-log-live");
  });

  test("changing the instance name in the configuration editor changes /api/v1/instance", async () => {
    await page.getByRole("link", { name: "Configuration" }).click();
    await page.getByRole("heading", { name: "Configuration" }).waitFor();
    const field = page.locator("#cfg-name");
    await field.waitFor();
    await field.fill("Moderated Place");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.getByText(/Saved 1 setting/).waitFor();
    await waitFor(async () => (await api("/api/v1/instance")).title === "Moderated Place", "the new title", { timeoutMs: 15_000 });
    await shoot("config-saved");

    // a list of tuples (MRF simple's reject: host and reason) edited as rows, and undone
    await page.getByLabel("Section", { exact: true }).selectOption({ label: "MRF simple" });
    const reject = page.getByRole("group", { name: "Reject", exact: true });
    await reject.getByRole("button", { name: "Add a row" }).click();
    await reject.getByLabel("Reject 1: first").fill("spam.example");
    await reject.getByLabel("Reject 1: second").fill("spam");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    const stored = async () => {
      const { configs } = await api("/api/v1/ext/admin/config?only_db=true");
      const entry = configs.find((c: { key: string }) => c.key === ":mrf_simple");
      return (entry?.value ?? []).find((t: { tuple: unknown[] }) => t.tuple[0] === ":reject")?.tuple[1];
    };
    // the earlier save's "Saved" message is still shown: poll the stored value instead
    await expect.poll(stored, { timeout: 15_000 }).toEqual([{ tuple: ["spam.example", "spam"] }]);
    await page.getByRole("button", { name: "Undo last save" }).click();
    await page.getByText("The last save is undone.").waitFor();
    // the value before the save was the default (an empty list): undo stores it back
    expect((await stored()) ?? []).toEqual([]);
    await shoot("config-tuples");
  });

  test("a free-form map in the configuration editor is edited as rows of key and value, saved and undone", async () => {
    await page.goto(`${server.url}/admin/config`);
    await page.getByLabel("Section", { exact: true }).selectOption({ label: "Frontend configurations" });
    const map = page.getByRole("group", { name: "Pleroma fe", exact: true });
    await map.getByLabel("Type of the new value, Pleroma fe", { exact: true }).last().selectOption("text");
    await map.getByRole("button", { name: "Add an entry" }).last().click();
    const keys = map.getByLabel(/^Pleroma fe, key \d+$/);
    const last = (await keys.count());
    await map.getByLabel(`Pleroma fe, key ${last}`, { exact: true }).fill(":e2e_flag");
    await map.getByLabel("Pleroma fe › :e2e_flag", { exact: true }).fill("on");
    await shoot("config-map");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    const stored = async () => (await api("/api/v1/ext/frontend_configurations")).pleroma_fe;
    await expect.poll(async () => (await stored()).e2e_flag, { timeout: 15_000 }).toBe("on");
    await page.getByRole("button", { name: "Undo last save" }).click();
    await page.getByText("The last save is undone.").waitFor();
    await expect.poll(async () => (await stored()).e2e_flag, { timeout: 15_000 }).toBeUndefined();
  });

  test("a list of atoms out of a known set is a group of checkboxes", async () => {
    await page.goto(`${server.url}/admin/config`);
    const group = page.getByRole("group", { name: "Admin privileges", exact: true });
    const box = group.getByLabel("users_manage_invites", { exact: true });
    expect(await box.isChecked()).toBe(true);
    await box.uncheck();
    await page.getByRole("button", { name: "Save", exact: true }).click();
    const stored = async () => {
      const { configs } = await api("/api/v1/ext/admin/config?only_db=true");
      const entry = configs.find((c: { key: string }) => c.key === ":instance");
      return (entry?.value ?? []).find((t: { tuple: unknown[] }) => t.tuple[0] === ":admin_privileges")?.tuple[1] as string[] | undefined;
    };
    await expect.poll(stored, { timeout: 15_000 }).not.toContain(":users_manage_invites");
    expect(await stored()).toContain(":users_read");
    await page.getByRole("button", { name: "Undo last save" }).click();
    await page.getByText("The last save is undone.").waitFor();
    await expect.poll(async () => (await stored()) ?? [":users_manage_invites"]).toContain(":users_manage_invites");
    // the page reads the configuration again after the undo
    await expect.poll(() => group.getByLabel("users_manage_invites", { exact: true }).isChecked()).toBe(true);
  });

  test("bulk tag and role changes on the users list, each after a confirmation", async () => {
    await page.goto(`${server.url}/admin/users`);
    await page.getByLabel("Select @alice").check();
    await page.getByLabel("Select @bob").check();
    await page.getByLabel("Tag", { exact: true }).fill("vip");
    await page.getByRole("button", { name: "Add tag" }).click();
    const dialog = page.getByRole("dialog");
    await expect.poll(() => dialog.textContent()).toContain("Tag alice, bob with vip?");
    await dialog.getByRole("button", { name: "Add tag" }).click();
    await expect.poll(async () => (await api("/api/v1/ext/admin/users/alice")).tags).toContain("vip");
    expect((await api("/api/v1/ext/admin/users/bob")).tags).toContain("vip");

    await page.getByLabel("Select @bob").check();
    await page.getByLabel("Role", { exact: true }).selectOption("moderator");
    await page.getByRole("button", { name: "Grant role" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Grant role" }).click();
    await expect.poll(async () => (await api("/api/v1/ext/admin/users/bob")).roles).toMatchObject({ moderator: true });
    await page.getByLabel("Select @bob").check();
    await page.getByRole("button", { name: "Revoke role" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Revoke role" }).click();
    await expect.poll(async () => (await api("/api/v1/ext/admin/users/bob")).roles).toMatchObject({ moderator: false });

    await page.getByLabel("Select @alice").check();
    await page.getByLabel("Select @bob").check();
    await page.getByRole("button", { name: "Remove tag" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Remove tag" }).click();
    await expect.poll(async () => (await api("/api/v1/ext/admin/users/alice")).tags).not.toContain("vip");
    expect((await api("/api/v1/ext/admin/users/bob")).tags).not.toContain("vip");
  });

  test("the moderation log filters by acting user (nickname), date range and text", async () => {
    await page.goto(`${server.url}/admin/log`);
    await page.getByLabel("Acting user (nickname)").fill("root");
    await page.getByRole("button", { name: "Filter" }).click();
    // root's bulk actions above are there; the admin token's tags (no acting user) are not
    await page.locator(".log").getByText("@root").first().waitFor();
    await expect.poll(() => page.locator(".log").getByText(/watched/).count()).toBe(0);
    await page.getByLabel("Text").fill("vip");
    await page.getByRole("button", { name: "Filter" }).click();
    await expect.poll(async () => (await page.locator(".log li").allTextContents()).every((t) => t.includes("vip") && t.includes("@root"))).toBe(true);
    expect(await page.locator(".log li").count()).toBeGreaterThan(0);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    await page.getByLabel("From").fill(tomorrow);
    await page.getByRole("button", { name: "Filter" }).click();
    await page.getByText("No entries match.").waitFor();
    // a nickname nobody has: the server's own answer
    await page.getByLabel("Acting user (nickname)").fill("nobody-here");
    await page.getByRole("button", { name: "Filter" }).click();
    const refused = await fetch(`${server.url}/api/v1/ext/admin/users/nobody-here`, { headers: { "x-admin-token": ADMIN_TOKEN } });
    const { error } = (await refused.json()) as { error: string };
    await expect.poll(() => page.getByRole("alert").textContent()).toContain(error);
  });

  test("a user's chats: read one, delete a message after a confirmation", async () => {
    const aliceToken = await userToken("alice");
    const chat = await api(`/api/v1/ext/chats/by-account-id/${ids.bob}`, { method: "POST", token: aliceToken });
    const message = await api(`/api/v1/ext/chats/${chat.id}/messages`, { method: "POST", token: aliceToken, json: { content: "meet me at noon" } });
    await page.goto(`${server.url}/admin/users/alice/chats`);
    await page.getByRole("heading", { name: "Chats of @alice" }).waitFor();
    await page.getByRole("button", { name: "Read the chat with @bob" }).click();
    await page.getByRole("list", { name: "Messages with @bob" }).getByText("meet me at noon").waitFor();
    await shoot("user-chat");
    await page.getByRole("button", { name: "Delete message" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Delete message" }).click();
    await page.getByText("No messages.").waitFor();
    const left = await api(`/api/v1/ext/admin/chats/${chat.id}/messages`);
    expect(left.map((m: { id: string }) => m.id)).not.toContain(message.id);
  });

  test("a user's profile fields and images are edited in the credentials form; a backup is requested", async () => {
    await page.goto(`${server.url}/admin/users/bob`);
    await page.getByRole("heading", { name: /@bob/ }).waitFor();
    await page.getByRole("button", { name: "Add a profile field" }).click();
    await page.getByLabel("Name 1", { exact: true }).fill("Pronouns");
    await page.getByLabel("Value 1", { exact: true }).fill("they/them");
    await page.getByLabel("Banner URL").fill("https://cdn.example/banner.png");
    await page.getByRole("button", { name: "Save credentials" }).click();
    await page.getByText("Saved.").waitFor();
    const credentials = await api("/api/v1/ext/admin/users/bob/credentials");
    expect(credentials.raw_fields).toEqual([{ id: 0, name: "Pronouns", value: "they/them" }]);
    expect(credentials.banner).toContain("cdn.example/banner.png");
    expect(credentials.avatar).toContain("/images/avi.png"); // untouched: not sent

    await page.getByRole("button", { name: "Request a backup" }).click();
    await page.getByText("A backup of @bob is queued").waitFor();
    const { items } = await api("/api/v1/ext/admin/moderation_log?page_size=1");
    expect(items[0].message).toMatch(/backup/i);
  });

  test("rules: add, edit, delete after a confirmation", async () => {
    await page.goto(`${server.url}/admin/rules`);
    await page.getByLabel("New rule: text").fill("Be kind");
    await page.getByLabel("New rule: priority").fill("1");
    await page.getByRole("button", { name: "Add rule" }).click();
    await page.getByRole("cell", { name: "Be kind", exact: true }).waitFor();
    const rules = async () => (await api("/api/v1/ext/admin/rules")).map((r: { text: string }) => r.text);
    expect(await rules()).toEqual(["Be kind"]);
    await page.getByRole("button", { name: "Edit the rule Be kind" }).click();
    await page.getByLabel("Edited rule: text").fill("Be kind to each other");
    await page.getByRole("button", { name: "Save rule" }).click();
    await page.getByRole("cell", { name: "Be kind to each other", exact: true }).waitFor();
    expect(await rules()).toEqual(["Be kind to each other"]);
    await page.getByRole("button", { name: "Delete the rule Be kind to each other" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
    await page.getByText("No rules.").waitFor();
    expect(await rules()).toEqual([]);
  });

  test("instances: health, a link to their statuses, and a purge after a confirmation", async () => {
    // an instance this server has met, with one account (as federation would have stored them)
    const client = new pg.Client({ connectionString: dbUrl });
    await client.connect();
    await client.query("INSERT INTO instances (domain, software_name, unreachable_since, failure_count, last_failure_at, updated_at) VALUES ('gone.example', 'mastodon', now() - interval '2 days', 4, now(), now())");
    await client.query("INSERT INTO accounts (id, nickname, domain, local, ap_id, updated_at) VALUES ($1, 'ghost@gone.example', 'gone.example', false, 'https://gone.example/users/ghost', now())", [newId()]);
    await page.goto(`${server.url}/admin/instances`);
    const row = page.getByRole("row", { name: /gone\.example/ });
    await expect.poll(() => row.textContent()).toMatch(/unreachable since .*4 failures/);
    await page.getByLabel("Unreachable only").check();
    await row.waitFor();
    await shoot("instances");
    await row.getByRole("button", { name: "Purge gone.example" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Purge" }).click();
    await page.getByText("The removal of everything from gone.example is queued.").waitFor();
    await expect.poll(async () => (await client.query("SELECT count(*)::int AS n FROM accounts WHERE domain = 'gone.example'")).rows[0].n, { timeout: 30_000 }).toBe(0);
    await client.end();
    await page.getByRole("link", { name: "gone.example" }).click();
    await page.getByRole("heading", { name: "Statuses" }).waitFor();
    expect(await page.getByLabel("Instance (empty: all)").inputValue()).toBe("gone.example");
  });

  test("failures show the server's message: a conflicting name, a value the server rejects, an object deleted meanwhile", async () => {
    // a pack name that is taken
    await page.goto(`${server.url}/admin/emoji`);
    for (let i = 0; i < 2; i++) {
      await page.getByLabel("New pack").fill("party");
      await page.getByRole("button", { name: "Create", exact: true }).click();
      if (i === 0) await page.getByText("party", { exact: true }).waitFor();
    }
    await expect.poll(() => page.getByRole("alert").textContent()).toContain('A pack named "party" already exists');
    await page.getByRole("button", { name: "Manage" }).click();
    await page.getByText("This pack has no emoji.").waitFor();
    await shoot("error-conflict");

    // a limit below its minimum: the server refuses it and keeps the value in force
    const limit = (await api("/api/v1/instance")).description_limit;
    expect(limit).toBeGreaterThan(0);
    await page.goto(`${server.url}/admin/config`);
    await page.locator("#cfg-description_limit").fill("0");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect.poll(() => page.getByRole("alert").first().textContent()).toMatch(/Invalid value: .*description_limit/);
    expect((await api("/api/v1/instance")).description_limit).toBe(limit);
    await shoot("error-invalid");

    // an announcement another administrator deletes while it is being edited
    const created = await api("/api/v1/ext/admin/announcements", { method: "POST", json: { content: "maintenance tonight" } });
    await page.goto(`${server.url}/admin/announcements`);
    await page.getByText("maintenance tonight").waitFor();
    await page.getByRole("button", { name: "Edit" }).click();
    await api(`/api/v1/ext/admin/announcements/${created.id}`, { method: "DELETE" });
    await page.getByRole("textbox", { name: "Text" }).last().fill("maintenance tomorrow");
    await page.getByRole("button", { name: "Save" }).click();
    const gone = await fetch(`${server.url}/api/v1/ext/admin/announcements/${created.id}`, { method: "PATCH", headers: { "x-admin-token": ADMIN_TOKEN, "content-type": "application/json" }, body: JSON.stringify({ content: "x" }) });
    expect(gone.status).toBe(404);
    const { error } = (await gone.json()) as { error: string };
    await expect.poll(() => page.getByRole("alert").textContent()).toContain(error);
  });

  test("every page loads without console errors, is screenshotted, and has no serious or critical axe violations", async () => {
    const problems: string[] = [];
    // the refused sign-ins above logged their 401/403 responses: only what the pages log counts here
    consoleErrors.length = 0;
    for (const [name, url, heading] of PAGES) {
      await page.goto(server.url + url);
      await page.getByRole("heading", { name: heading }).first().waitFor();
      await page.waitForLoadState("networkidle");
      await page.waitForFunction(() => !document.body.textContent?.includes("Loading…"));
      await shoot(name);
      for (const v of await axe()) problems.push(`${name}: ${v}`);
    }
    // phone width: the same pages stay usable
    await page.setViewportSize({ width: 375, height: 800 });
    for (const [name, url, heading] of PAGES) {
      await page.goto(server.url + url);
      await page.getByRole("heading", { name: heading }).first().waitFor();
      await page.waitForFunction(() => !document.body.textContent?.includes("Loading…"));
      await shoot(`${name}-phone`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      if (overflow > 0) problems.push(`${name}: ${overflow}px wider than a phone screen`);
    }
    expect(problems).toEqual([]);
    expect(consoleErrors).toEqual([]);
  }, 240_000);

  test("keyboard only: a confirmation dialog takes the focus, Escape cancels, Tab and Enter confirm", async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${server.url}/admin/users/alice`);
    await page.getByRole("heading", { name: /@alice/ }).waitFor();
    await page.getByRole("button", { name: "Deactivate" }).focus();
    await page.keyboard.press("Enter");
    await page.getByRole("dialog").waitFor();
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Cancel");
    await page.keyboard.press("Escape");
    await expect.poll(() => page.getByRole("dialog").count()).toBe(0);
    expect(await page.getByTestId("user-state").textContent()).toBe("active");
    await page.getByRole("button", { name: "Deactivate" }).focus();
    await page.keyboard.press("Enter");
    await page.getByRole("dialog").waitFor();
    await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    await expect.poll(() => page.getByTestId("user-state").textContent()).toBe("deactivated");
    expect((await api("/api/v1/ext/admin/users/alice")).is_active).toBe(false);
  });

  test("every destructive action asks first: each such button opens a confirmation dialog, and Escape changes nothing", async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    // something to act on for each list
    await api("/api/v1/ext/admin/users/invite_token", { method: "POST", json: {} });
    await api("/api/v1/ext/admin/announcements", { method: "POST", json: { content: "to be kept" } });
    await api("/api/v1/ext/admin/media_proxy_caches/purge", { method: "POST", json: { urls: ["https://cdn.example/x.png"], ban: true } });
    await api("/api/v1/ext/admin/users/tag", { method: "PUT", json: { nicknames: ["bob"], tags: ["kept"] } });
    await api("/api/v1/ext/admin/rules", { method: "POST", json: { text: "Stay on topic" } });
    const DESTRUCTIVE = /^(Delete|Revoke|Remove|Unfollow|Deactivate|Disable|Purge|Restore|Lift ban|Restart|Install|Reinstall|×)/;
    // rows of a form that nothing stores until it is saved (and "Revert" or leaving undoes)
    const UNSAVED = /^Remove profile field/;
    const visits: [string, () => Promise<void>][] = [
      ["/admin/users", async () => void (await page.getByLabel("Select @bob").check(), await page.getByLabel("Tag", { exact: true }).fill("kept"))],
      ["/admin/users/bob", async () => {}],
      ["/admin/invites", async () => {}],
      ["/admin/statuses", async () => {}],
      ["/admin/emoji", async () => {}],
      ["/admin/announcements", async () => {}],
      ["/admin/media-proxy", async () => void (await page.getByLabel("URLs (one per line)").fill("https://cdn.example/y.png"))],
      ["/admin/apps", async () => {}],
      ["/admin/frontends", async () => {}],
      ["/admin/documents", async () => {}],
      ["/admin/rules", async () => {}],
    ];
    const checked: string[] = [];
    for (const [url, prepare] of visits) {
      await page.goto(server.url + url);
      await page.getByRole("heading", { level: 1 }).waitFor();
      await page.waitForFunction(() => !document.body.textContent?.includes("Loading…"));
      await prepare();
      const buttons = page.locator("main button:visible:enabled");
      const labels = await buttons.evaluateAll((els) => els.map((e) => e.getAttribute("aria-label") ?? e.textContent ?? ""));
      for (const [i, label] of labels.entries()) {
        if (!DESTRUCTIVE.test(label.trim()) || UNSAVED.test(label.trim())) continue;
        const before = await api("/api/v1/ext/admin/moderation_log?page_size=1");
        await buttons.nth(i).click();
        const dialog = page.getByRole("dialog");
        await dialog.waitFor({ timeout: 5_000 }).catch(() => {
          throw new Error(`${url}: "${label}" acted without asking`);
        });
        await page.keyboard.press("Escape");
        await expect.poll(() => dialog.count()).toBe(0);
        expect((await api("/api/v1/ext/admin/moderation_log?page_size=1")).items[0]?.id, `${url}: "${label}" was cancelled`).toBe(before.items[0]?.id);
        checked.push(`${url} ${label.trim()}`);
      }
    }
    // the sweep found the actions it is about
    expect(checked).toEqual(expect.arrayContaining(["/admin/users Delete", "/admin/users Remove tag", "/admin/users/bob Deactivate", "/admin/users/bob Remove tag kept", "/admin/invites Revoke", "/admin/statuses Delete status", "/admin/emoji Delete pack", "/admin/announcements Delete", "/admin/media-proxy Purge", "/admin/media-proxy Lift ban", "/admin/apps Delete", "/admin/documents Restore the default", "/admin/rules Delete the rule Stay on topic"]));
  });

  test("keyboard only: Tab reaches every control of every page, at desktop and phone width", async () => {
    const unreached: string[] = [];
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 900 });
      for (const [name, url, heading] of PAGES) {
        await page.goto(server.url + url);
        await page.getByRole("heading", { name: heading }).first().waitFor();
        await page.waitForFunction(() => !document.body.textContent?.includes("Loading…"));
        // number every visible, enabled control of the page
        const total = await page.evaluate(() => {
          const controls = [...document.querySelectorAll<HTMLElement>("a[href], button, input, select, textarea")].filter(
            (el) => !(el as HTMLButtonElement).disabled && el.getClientRects().length > 0 && !el.closest("dialog"),
          );
          controls.forEach((el, i) => el.setAttribute("data-kb", String(i)));
          return controls.length;
        });
        const reached = new Set<string>();
        // date and time inputs take one Tab per segment (day, month, year, hour…): room for those
        for (let i = 0; i < total * 2 + 30 && reached.size < total; i++) {
          await page.keyboard.press("Tab");
          const at = await page.evaluate(() => document.activeElement?.getAttribute("data-kb") ?? null);
          if (at !== null) reached.add(at);
        }
        if (reached.size < total) {
          const missed = await page.evaluate((seen) => [...document.querySelectorAll("[data-kb]")].filter((el) => !seen.includes(el.getAttribute("data-kb")!)).map((el) => el.outerHTML.slice(0, 80)), [...reached]);
          unreached.push(`${name} at ${width}px: ${missed.join(", ")}`);
        }
      }
    }
    expect(unreached).toEqual([]);
  }, 240_000);

  test("keyboard only: sign-out is reachable with Tab and Enter", async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${server.url}/admin/`);
    await page.getByRole("heading", { name: "Dashboard" }).waitFor();
    let focused = "";
    for (let i = 0; i < 20 && focused !== "Sign out"; i++) {
      await page.keyboard.press("Tab");
      focused = await page.evaluate(() => document.activeElement?.textContent ?? "");
    }
    expect(focused).toBe("Sign out");
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { name: "Sign in to the administration" }).waitFor();
    const me = await page.evaluate(() => fetch("/trpc/session.me").then((r) => r.json()));
    expect(me.result.data).toBeNull();
  });
});
