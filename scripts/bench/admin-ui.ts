// `npm run bench:admin`: how long each page of the admin UI takes to become usable on a large instance
// (issue 15, criterion 7: under a second against a local server with 10,000 users and 1,000 reports).
// Drops and recreates a PostgreSQL database, starts the real server in-process, seeds users and reports,
// signs in with Debian's Chromium and, per page, times navigation until the page's heading is shown and
// nothing is loading any more (median of BENCH_RUNS visits). Also prints the gzipped size of the initial
// JavaScript of /admin (the 300 KB budget).
//
// Env: BENCH_DATABASE_URL (postgresql://postgres@127.0.0.1:5432/bench_admin), BENCH_USERS (10000),
// BENCH_REPORTS (1000), BENCH_RUNS (5), CHROMIUM_PATH (/usr/bin/chromium).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import pg from "pg";
import { chromium } from "playwright-core";
import { loadSettings } from "../../src/config/env.ts";
import { newId } from "../../src/db/ids.ts";
import { createLocalAccount } from "../../src/domain/accounts/accounts.ops.ts";
import { systemCtx } from "../../src/domain/context.ts";
import { startServer } from "../../src/server.ts";

const env = process.env;
const DB_URL = env.BENCH_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/bench_admin";
const USERS = Number(env.BENCH_USERS ?? 10_000);
const REPORTS = Number(env.BENCH_REPORTS ?? 1_000);
const RUNS = Number(env.BENCH_RUNS ?? 5);
const PASSWORD = "bench-admin-password";
const log = (m: string) => process.stderr.write(`[bench:admin] ${m}\n`);

const PAGES: [string, RegExp][] = [
  ["/admin/", /^Dashboard$/],
  ["/admin/users", /^Users$/],
  ["/admin/users/user1", /@user1/],
  ["/admin/users/user1/chats", /Chats of @user1/],
  ["/admin/reports", /^Reports$/],
  ["/admin/statuses", /^Statuses$/],
  ["/admin/invites", /^Invites$/],
  ["/admin/config", /^Configuration$/],
  ["/admin/log", /^Moderation log$/],
  ["/admin/relays", /^Relays$/],
  ["/admin/emoji", /^Emoji packs$/],
  ["/admin/announcements", /^Announcements$/],
  ["/admin/media-proxy", /^Media-proxy bans$/],
  ["/admin/apps", /^OAuth apps$/],
  ["/admin/frontends", /^Frontends$/],
  ["/admin/documents", /^Instance documents$/],
  ["/admin/instances", /^Instances$/],
  ["/admin/rules", /^Rules$/],
];

const dbName = new URL(DB_URL).pathname.slice(1);
const adminUrl = Object.assign(new URL(DB_URL), { pathname: "/postgres" }).toString();
const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
await admin.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
await admin.query(`CREATE DATABASE "${dbName}"`);
await admin.end();

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-admin-"));
const server = await startServer(loadSettings({ ...env, PORT: "0", HOST: "127.0.0.1", DATA_DIR: dataDir, DATABASE_URL: DB_URL, LOG_LEVEL: "error", CONFIGURABLE_FROM_DATABASE: "true", RATE_LIMITS_ENABLED: "false" }));
const db = server.services.db;
try {
  log(`seeding ${USERS} users and ${REPORTS} reports`);
  const base = server.services.settings.baseUrl;
  const ids: string[] = [];
  for (let start = 0; start < USERS; start += 1000) {
    const rows = Array.from({ length: Math.min(1000, USERS - start) }, (_, i) => {
      const n = start + i;
      const id = newId();
      ids.push(id);
      return { id, nickname: `user${n}`, apId: `${base}/users/user${n}`, email: `user${n}@example.test`, displayName: `User ${n}` };
    });
    await db.account.createMany({ data: rows });
  }
  for (let start = 0; start < REPORTS; start += 500) {
    const rows = Array.from({ length: Math.min(500, REPORTS - start) }, (_, i) => ({
      id: newId(),
      reporterId: ids[(start + i) % ids.length]!,
      targetId: ids[(start + i * 7 + 1) % ids.length]!,
      comment: `report ${start + i}`,
    }));
    await db.report.createMany({ data: rows });
  }
  await createLocalAccount(systemCtx(server.services), { nickname: "benchadmin", email: "benchadmin@example.test", password: PASSWORD, admin: true, moderator: false });

  const html = await (await fetch(`${server.url}/admin/`)).text();
  const initial = [...html.matchAll(/\/admin\/assets\/[^"]+\.js/g)].map((m) => m[0]);
  let gz = 0;
  for (const asset of initial) gz += gzipSync(Buffer.from(await (await fetch(server.url + asset)).arrayBuffer())).length;
  console.log(`initial JavaScript of /admin: ${(gz / 1024).toFixed(1)} KB gzipped (budget 300 KB)`);

  const browser = await chromium.launch({
    executablePath: env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  const page = await browser.newPage();
  await page.goto(`${server.url}/admin/`);
  await page.getByLabel("Nickname or e-mail").fill("benchadmin");
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("heading", { name: "Dashboard" }).waitFor();

  console.log("\n| page | median ms | max ms |\n|---|---|---|");
  let worst = 0;
  for (const [url, heading] of PAGES) {
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      await page.goto(server.url + url);
      await page.getByRole("heading", { name: heading }).first().waitFor();
      await page.waitForFunction(() => !document.body.textContent?.includes("Loading…"));
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    const median = times[Math.floor(times.length / 2)]!;
    worst = Math.max(worst, median);
    console.log(`| ${url} | ${median.toFixed(0)} | ${times.at(-1)!.toFixed(0)} |`);
  }
  console.log(`\nslowest page median: ${worst.toFixed(0)} ms (budget 1000 ms)`);
  await browser.close();
} finally {
  await server.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
process.exit(0);
