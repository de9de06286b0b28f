// Scheduled statuses: listing (paged), showing, rescheduling (the stale job does nothing, the new one
// publishes), cancelling, and publishing by a new server process after a restart.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { loadSettings } from "../../src/config/env.ts";
import { openDatabase } from "../../src/db/client.ts";
import { createLocalAccount } from "../../src/domain/accounts/accounts.ops.ts";
import { systemCtx } from "../../src/domain/context.ts";
import { PUBLISH_SCHEDULED_JOB } from "../../src/domain/statuses/statuses.job-names.ts";
import { startServer, type RunningServer } from "../../src/server.ts";
import { freshDatabase, suiteKinds } from "../support/databases.ts";
import { passwordToken, startTestServer, type TestServer } from "../support/server.ts";
import { waitFor } from "../support/wait.ts";

vi.setConfig({ testTimeout: 40_000, hookTimeout: 120_000 });

const HOUR = 60 * 60 * 1000;
const inFuture = (ms: number) => new Date(Date.now() + ms).toISOString();
const auth = (token: string) => ({ authorization: `Bearer ${token}` });

describe.each(suiteKinds(import.meta.url))("scheduled statuses on %s", (kind) => {
  let server: TestServer;
  let ana: string;
  let ben: string;
  let anaReadOnly: string;
  let benId: string;
  const jobsOf = async (id: string) => (await server.services.db.job.findMany({ where: { name: PUBLISH_SCHEDULED_JOB }, orderBy: { createdAt: "asc" } })).filter((j) => (j.payload as { id: string }).id === id);
  const schedule = async (token: string, body: Record<string, unknown>) => {
    const res = await server.fetch("/api/v1/statuses", { json: body, headers: auth(token) });
    expect(res.status).toBe(200);
    return res.json();
  };

  beforeAll(async () => {
    server = await startTestServer(kind);
    await server.createUser("ana");
    benId = (await server.createUser("ben")).id;
    ana = (await passwordToken(server, "ana")).access_token;
    ben = (await passwordToken(server, "ben")).access_token;
    anaReadOnly = (await passwordToken(server, "ana", "read")).access_token;
  });
  afterAll(() => server?.close());

  test("posting with scheduled_at lists it (newest first, paged with Link headers); show; others get 404", async () => {
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(fs.readFileSync("src/media/assets/avi.png"))], { type: "image/png" }), "a.png");
    const media = await (await server.fetch("/api/v1/media", { method: "POST", body: form, headers: auth(ana) })).json();

    const at = inFuture(HOUR);
    const first = await schedule(ana, { status: "first, with a picture", media_ids: [media.id], visibility: "unlisted", spoiler_text: "cw", sensitive: true, language: "en", scheduled_at: at });
    expect(first).toEqual({
      id: expect.any(String),
      scheduled_at: at,
      params: expect.objectContaining({ text: "first, with a picture", media_ids: [media.id], visibility: "unlisted", spoiler_text: "cw", sensitive: true, language: "en", in_reply_to_id: null, poll: null }),
      media_attachments: [expect.objectContaining({ id: media.id, type: "image" })],
    });
    const second = await schedule(ana, { status: "second", scheduled_at: inFuture(2 * HOUR) });
    const third = await schedule(ana, { status: "third", scheduled_at: inFuture(3 * HOUR) });
    expect(await server.services.db.status.count({ where: { source: { in: ["first, with a picture", "second", "third"] } } })).toBe(0);
    expect(await server.services.db.scheduledStatus.count({ where: { id: { in: [first.id, second.id, third.id] } } })).toBe(3);

    const page1 = await server.fetch("/api/v1/scheduled_statuses?limit=2", { headers: auth(ana) });
    expect(page1.status).toBe(200);
    expect((await page1.json()).map((s: { id: string }) => s.id)).toEqual([third.id, second.id]);
    const link = page1.headers.get("link") ?? "";
    expect(link).toContain(`max_id=${second.id}`);
    expect(link).toContain(`min_id=${third.id}`);
    const next = link.match(/<([^>]+)>; rel="next"/)![1];
    expect(next).toMatch(/^http:\/\/localhost:4000\/api\/v1\/scheduled_statuses\?/);
    expect(next).toContain("limit=2");
    const page2 = await server.fetch(new URL(next).pathname + new URL(next).search, { headers: auth(ana) });
    expect((await page2.json()).map((s: { id: string }) => s.id)).toEqual([first.id]);
    const newer = await (await server.fetch(`/api/v1/scheduled_statuses?min_id=${first.id}`, { headers: auth(ana) })).json();
    expect(newer.map((s: { id: string }) => s.id)).toEqual([third.id, second.id]);

    const shown = await server.fetch(`/api/v1/scheduled_statuses/${first.id}`, { headers: auth(ana) });
    expect(shown.status).toBe(200);
    expect(await shown.json()).toEqual(first);

    // another account neither sees nor touches it
    expect(await (await server.fetch("/api/v1/scheduled_statuses", { headers: auth(ben) })).json()).toEqual([]);
    for (const method of ["GET", "DELETE"]) {
      const res = await server.fetch(`/api/v1/scheduled_statuses/${first.id}`, { method, headers: auth(ben) });
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error: "Record not found" });
    }
    const put = await server.fetch(`/api/v1/scheduled_statuses/${first.id}`, { method: "PUT", json: { scheduled_at: inFuture(5 * HOUR) }, headers: auth(ben) });
    expect(put.status).toBe(404);
    expect((await server.services.db.scheduledStatus.findUniqueOrThrow({ where: { id: first.id } })).scheduledAt.toISOString()).toBe(at);
    expect(await server.services.db.scheduledStatus.count({ where: { accountId: benId } })).toBe(0);
  });

  test("credentials and scopes: anonymous 403, a read token may list but not change", async () => {
    const s = await schedule(ana, { status: "scoped", scheduled_at: inFuture(HOUR) });
    expect((await server.fetch("/api/v1/scheduled_statuses")).status).toBe(403);
    expect((await server.fetch("/api/v1/scheduled_statuses", { headers: auth(anaReadOnly) })).status).toBe(200);
    const put = await server.fetch(`/api/v1/scheduled_statuses/${s.id}`, { method: "PUT", json: { scheduled_at: inFuture(2 * HOUR) }, headers: auth(anaReadOnly) });
    expect(put.status).toBe(403);
    expect(await put.json()).toEqual({ error: "Insufficient permissions: write:statuses." });
    expect((await server.fetch(`/api/v1/scheduled_statuses/${s.id}`, { method: "DELETE", headers: auth(anaReadOnly) })).status).toBe(403);
    expect(await server.services.db.scheduledStatus.count({ where: { id: s.id } })).toBe(1);
  });

  test("rescheduling: too soon is 422; the stale job publishes nothing, the new job publishes", async () => {
    const original = inFuture(HOUR);
    const s = await schedule(ana, { status: "moved around", scheduled_at: original });
    const [oldJob] = await jobsOf(s.id);
    expect(oldJob).toMatchObject({ state: "pending", payload: { id: s.id, scheduledAt: original } });

    const soon = await server.fetch(`/api/v1/scheduled_statuses/${s.id}`, { method: "PUT", json: { scheduled_at: inFuture(60_000) }, headers: auth(ana) });
    expect(soon.status).toBe(422);
    expect(await soon.json()).toEqual({ error: "Validation failed: Scheduled at must be at least 5 minutes in the future" });
    const missing = await server.fetch(`/api/v1/scheduled_statuses/${s.id}`, { method: "PUT", json: {}, headers: auth(ana) });
    expect(missing.status).toBe(400);
    expect(await jobsOf(s.id)).toHaveLength(1);

    const later = inFuture(2 * HOUR);
    const put = await server.fetch(`/api/v1/scheduled_statuses/${s.id}`, { method: "PUT", form: { scheduled_at: later }, headers: auth(ana) });
    expect(put.status).toBe(200);
    expect(await put.json()).toMatchObject({ id: s.id, scheduled_at: later, params: { text: "moved around" } });
    expect((await server.services.db.scheduledStatus.findUniqueOrThrow({ where: { id: s.id } })).scheduledAt.toISOString()).toBe(later);
    const jobs = await jobsOf(s.id);
    expect(jobs).toHaveLength(2);
    const newJob = jobs.find((j) => j.id !== oldJob.id)!;
    expect(newJob).toMatchObject({ state: "pending", payload: { id: s.id, scheduledAt: later } });
    expect(newJob.runAt.toISOString()).toBe(later);

    // the old job comes due: it runs and does nothing
    await server.services.db.job.update({ where: { id: oldJob.id }, data: { runAt: new Date(Date.now() - 1000) } });
    await waitFor(async () => (await server.services.db.job.findUniqueOrThrow({ where: { id: oldJob.id } })).state === "done", "the stale job to run");
    expect(await server.services.db.scheduledStatus.count({ where: { id: s.id } })).toBe(1);
    expect(await server.services.db.status.count({ where: { source: "moved around" } })).toBe(0);

    // the new job, made due early, publishes the status and removes the scheduled one
    await server.services.db.job.update({ where: { id: newJob.id }, data: { runAt: new Date(Date.now() - 1000) } });
    const published = await waitFor(() => server.services.db.status.findFirst({ where: { source: "moved around" } }), "the status to be published");
    expect(published).toMatchObject({ visibility: "public", idempotencyKey: `scheduled:${s.id}` });
    await waitFor(async () => (await server.services.db.scheduledStatus.count({ where: { id: s.id } })) === 0, "the scheduled row to go");
    const shown = await (await server.fetch(`/api/v1/statuses/${published!.id}`)).json();
    expect(shown).toMatchObject({ id: published!.id, content: "moved around", account: { acct: "ana" } });
    expect((await server.fetch(`/api/v1/scheduled_statuses/${s.id}`, { headers: auth(ana) })).status).toBe(404);
  });

  test("cancelling answers {} and its job then does nothing", async () => {
    const s = await schedule(ana, { status: "never mind", scheduled_at: inFuture(HOUR) });
    const del = await server.fetch(`/api/v1/scheduled_statuses/${s.id}`, { method: "DELETE", headers: auth(ana) });
    expect(del.status).toBe(200);
    expect(await del.json()).toEqual({});
    expect(await server.services.db.scheduledStatus.count({ where: { id: s.id } })).toBe(0);
    expect((await server.fetch(`/api/v1/scheduled_statuses/${s.id}`, { method: "DELETE", headers: auth(ana) })).status).toBe(404);

    const [job] = await jobsOf(s.id);
    await server.services.db.job.update({ where: { id: job.id }, data: { runAt: new Date(Date.now() - 1000) } });
    await waitFor(async () => (await server.services.db.job.findUniqueOrThrow({ where: { id: job.id } })).state === "done", "the job to run");
    expect(await server.services.db.status.count({ where: { source: "never mind" } })).toBe(0);
  });
});

/** A read/write token through the password grant, against any running server. */
async function tokenFor(base: string, username: string): Promise<string> {
  const app = await (await fetch(`${base}/api/v1/apps`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ client_name: "c", redirect_uris: "urn:ietf:wg:oauth:2.0:oob", scopes: "read write" }) })).json();
  const res = await fetch(`${base}/oauth/token`, { method: "POST", body: new URLSearchParams({ grant_type: "password", client_id: app.client_id, client_secret: app.client_secret, username, password: "secret-password", scope: "read write" }) });
  return (await res.json()).access_token;
}

describe.each(suiteKinds(import.meta.url))("scheduled status published after a restart on %s", (kind) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ext-scheduled-"));
  let url = "";
  let drop = async () => {};
  let running: RunningServer | undefined;
  const settings = () => loadSettings({ DATA_DIR: dir, DATABASE_URL: url, PORT: "0", LOG_LEVEL: "error", BASE_URL: "http://localhost:4000" });
  const call = (path: string, init: RequestInit = {}) => fetch(running!.url + path, init);

  beforeAll(async () => {
    if (kind === "postgres") ({ url, drop } = await freshDatabase("postgres"));
    else url = `pglite:${path.join(dir, "db")}`;
  });
  afterAll(async () => {
    await running?.close();
    await drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test("scheduled status published after a restart", async () => {
    running = await startServer(settings());
    await createLocalAccount(systemCtx(running.services), { nickname: "cleo", email: "cleo@example.test", password: "secret-password" });
    const token = await tokenFor(running.url, "cleo");
    const res = await call("/api/v1/statuses", { method: "POST", headers: { ...auth(token), "content-type": "application/json" }, body: JSON.stringify({ status: "from the past", scheduled_at: inFuture(HOUR) }) });
    expect(res.status).toBe(200);
    const scheduled = await res.json();
    await running.close();
    running = undefined;

    // while no server runs, the status and its job come due
    const past = new Date(Date.now() - 60_000);
    const db = await openDatabase(url);
    try {
      const jobs = await db.prisma.job.findMany({ where: { name: PUBLISH_SCHEDULED_JOB } });
      expect(jobs).toHaveLength(1);
      expect(jobs[0]).toMatchObject({ state: "pending", payload: { id: scheduled.id, scheduledAt: scheduled.scheduled_at } });
      await db.prisma.scheduledStatus.update({ where: { id: scheduled.id }, data: { scheduledAt: past } });
      await db.prisma.job.update({ where: { id: jobs[0].id }, data: { runAt: past, payload: { id: scheduled.id, scheduledAt: past.toISOString() } } });
    } finally {
      await db.close();
    }

    running = await startServer(settings());
    const { db: prisma } = running.services;
    const status = await waitFor(() => prisma.status.findFirst({ where: { source: "from the past" } }), "the status to be published");
    await waitFor(async () => (await prisma.scheduledStatus.count()) === 0, "the scheduled row to go");
    expect(await prisma.job.findMany({ where: { name: PUBLISH_SCHEDULED_JOB } })).toMatchObject([{ state: "done", attempts: 1 }]);
    expect(await prisma.status.count({ where: { source: "from the past" } })).toBe(1);
    const shown = await call(`/api/v1/statuses/${status!.id}`);
    expect(await shown.json()).toMatchObject({ content: "from the past", account: { acct: "cleo" } });
    expect(await (await call("/api/v1/scheduled_statuses", { headers: auth(token) })).json()).toEqual([]);
    // two server starts (on PGlite each opens its database and checks migrations): minutes on a loaded machine
  }, 120_000);
});
