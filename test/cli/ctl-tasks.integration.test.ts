// Long ctl tasks: db prune on the database with no server (run in ctl's process), resumed from where an
// interrupted run stopped; instance purge and refetch through a running server's job queue, watched.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openDatabase, type Database } from "../../src/db/client.ts";
import { newId } from "../../src/db/ids.ts";
import { execFileSync } from "node:child_process";
import { ctlEntry } from "../support/built.ts";
import { json, runCtl } from "../support/ctl.ts";
import { freshDatabase } from "../support/databases.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { waitFor } from "../support/wait.ts";

const DAY = 86_400_000;
const daysAgo = (n: number) => new Date(Date.now() - n * DAY);

type Prisma = Database["prisma"];

async function account(db: Prisma, nickname: string, host?: string) {
  const domain = host ?? null;
  return db.account.create({ data: { id: newId(), nickname: host ? `${nickname}@${host}` : nickname, domain, local: !host, apId: `https://${host ?? "local.test"}/users/${nickname}` } });
}

async function status(db: Prisma, author: { id: string; local: boolean }, createdAt: Date, extra: { inReplyToId?: string } = {}) {
  const id = newId(createdAt.getTime());
  return db.status.create({ data: { id, uri: `https://x.test/objects/${id}`, accountId: author.id, local: author.local, content: "<p>hi</p>", context: `ctx-${id}`, createdAt, ...extra } });
}

describe("ctl db on PostgreSQL with no server running", () => {
  let pg: Awaited<ReturnType<typeof freshDatabase>>;
  let database: Database;
  let env: Record<string, string>;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "ext-ctl-tasks-"));
  beforeAll(async () => {
    pg = await freshDatabase("postgres");
    database = await openDatabase(pg.url);
    await database.migrate();
    env = { DATA_DIR: dataDir, DATABASE_URL: pg.url };
  });
  afterAll(async () => {
    await database?.close();
    await pg?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test("db prune deletes old remote statuses no local user touched, with progress lines", async () => {
    const db = database.prisma;
    const local = await account(db, "lou");
    const remote = await account(db, "rem", "r.example");
    const old = daysAgo(60);
    const plain1 = await status(db, remote, old);
    const faved = await status(db, remote, old);
    const bookmarked = await status(db, remote, old);
    const mentioning = await status(db, remote, old);
    const repliedTo = await status(db, remote, old);
    const plain2 = await status(db, remote, old);
    const recent = await status(db, remote, daysAgo(5));
    await db.favourite.create({ data: { id: newId(), accountId: local.id, statusId: faved.id } });
    await db.bookmark.create({ data: { id: newId(), accountId: local.id, statusId: bookmarked.id } });
    await db.mention.create({ data: { statusId: mentioning.id, accountId: local.id } });
    const reply = await status(db, local, daysAgo(1), { inReplyToId: repliedTo.id });

    const r = await runCtl(env, "db", "prune", "--days", "30");
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^started task \w+ \(prune_remote_statuses\) via database postgres$/m);
    expect(r.stderr).toContain("progress: 0/2 (0%) running");
    expect(r.stderr).toContain("progress: 2/2 (100%) done");
    expect(r.stdout).toMatch(/^pruned 2 remote status\(es\) older than /m);

    const left = (await db.status.findMany({ select: { id: true } })).map((s) => s.id).sort();
    expect(left).toEqual([faved.id, bookmarked.id, mentioning.id, repliedTo.id, recent.id, reply.id].sort());
    expect(left).not.toContain(plain1.id);
    expect(left).not.toContain(plain2.id);
    expect(await db.task.findFirstOrThrow({ where: { kind: "prune_remote_statuses" } })).toMatchObject({ state: "done", done: 2, total: 2 });
  });

  test("an interrupted prune resumes from its cursor, and --json prints the finished task", async () => {
    const db = database.prisma;
    const remote = await account(db, "rem2", "r2.example");
    const [a, b, c] = [await status(db, remote, daysAgo(90)), await status(db, remote, daysAgo(90)), await status(db, remote, daysAgo(90))];
    // what a ctl killed after its first batch leaves: a running task not heard from for minutes, its
    // cursor at `a` (kept here, so the test sees that the resumed run starts after the cursor)
    const stale = daysAgo(0.01);
    const task = await db.task.create({
      data: { id: newId(), kind: "prune_remote_statuses", key: "prune_remote_statuses:all", params: { days: 30, before: daysAgo(30).toISOString() }, done: 1, total: 3, cursor: a.id, createdAt: stale, updatedAt: stale },
    });

    const r = await runCtl(env, "db", "prune", "--days", "30", "--json");
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`resuming task ${task.id} (prune_remote_statuses) via database postgres at 1/3`);
    expect(r.stderr).toContain("progress: 3/3 (100%) done");
    expect(json(r)).toMatchObject({ id: task.id, state: "done", done: 3, total: 3, result: { deleted: 2 } });
    expect(await db.status.findUnique({ where: { id: a.id } })).not.toBeNull();
    expect(await db.status.count({ where: { id: { in: [b.id, c.id] } } })).toBe(0);
    expect(await db.task.count({ where: { kind: "prune_remote_statuses", state: { not: "done" } } })).toBe(0);
  });

  test("db vacuum, and refetch refuses without a server (exit 1)", async () => {
    const v = await runCtl(env, "db", "vacuum");
    expect(v.code).toBe(0);
    expect(v.stdout).toMatch(/^VACUUM \(ANALYZE\) done in \d+ ms$/m);
    const refetch = await runCtl(env, "instance", "refetch", "r.example");
    expect(refetch.code).toBe(1);
    expect(refetch.stderr).toContain("error: instance refetch needs the running server");
    expect((await runCtl(env, "db", "prune")).code).toBe(2);
  });

  // util-linux `script` gives ctl a terminal; without it (a minimal CI image) this test is skipped
  const hasScript = (() => {
    try {
      execFileSync("script", ["--version"], { stdio: "ignore" });
      return true;
    } catch {
      return false;
    }
  })();
  test.skipIf(!hasScript)("on a terminal the progress is a bar redrawn in place", async () => {
    const db = database.prisma;
    const remote = await account(db, "rem3", "r3.example");
    await status(db, remote, daysAgo(400));
    const { BASE_URL: _vite, ...parentEnv } = process.env;
    const out = execFileSync("script", ["-qec", `"${process.execPath}" "${ctlEntry}" db prune --days 300`, "/dev/null"], { env: { ...parentEnv, LOG_LEVEL: "error", ...env }, encoding: "utf8" });
    expect(out).toContain("\r[------------------------------] 0/1 (0%) running\x1b[K");
    expect(out).toContain("\r[##############################] 1/1 (100%) done\x1b[K");
    expect(out).not.toContain("progress:");
  });
});

describe("ctl instance purge and refetch through a running server", () => {
  let server: TestServer;
  let env: Record<string, string>;
  beforeAll(async () => {
    server = await startTestServer("postgres");
    env = { DATA_DIR: server.dataDir };
  });
  afterAll(() => server?.close());

  test("instance purge runs as the server's job and ctl follows it to the end", async () => {
    const db = server.services.db as Prisma;
    const a = await account(db, "p1", "purge.example");
    const b = await account(db, "p2", "purge.example");
    await status(db, a, daysAgo(1));
    await status(db, b, daysAgo(1));
    await status(db, b, daysAgo(2));

    const r = await runCtl(env, "instance", "purge", "purge.example");
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(new RegExp(`^started task \\w+ \\(instance_purge\\) via server at ${server.url}$`, "m"));
    expect(r.stderr).toContain("progress: 2/2 (100%) done");
    expect(r.stdout).toContain("purged purge.example: 2 account(s), 3 status(es)");
    expect(await db.account.count({ where: { domain: "purge.example" } })).toBe(0);
    expect(await db.moderationLogEntry.count({ where: { action: "instance_delete" } })).toBe(1);
    expect(await db.job.count({ where: { name: "tasks.run", state: "done" } })).toBe(1);

    // asking again starts a new task (the first is finished) that finds nothing left
    const again = json(await runCtl(env, "instance", "purge", "purge.example", "--json"));
    expect(again).toMatchObject({ kind: "instance_purge", state: "done", total: 0, result: { accounts: 0, statuses: 0 } });
  });

  test("asking again while the server's job runs the task attaches to it instead of starting another", async () => {
    const db = server.services.db as Prisma;
    await account(db, "t1", "attach.example");
    // a task the server is working on (heard from just now); its job is queued a moment after ctl attached
    const task = await db.task.create({ data: { id: newId(), kind: "instance_purge", key: "instance_purge:attach.example", params: { host: "attach.example" }, total: 1 } });
    const watching = runCtl(env, "instance", "purge", "attach.example");
    await waitFor(() => watching.soFar().includes("attached to running task"), () => `ctl to attach; it printed: ${watching.soFar()}`);
    await server.services.jobs.enqueue("tasks.run", { taskId: task.id });
    const r = await watching;
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`attached to running task ${task.id} (instance_purge)`);
    expect(r.stdout).toContain("purged attach.example: 1 account(s), 0 status(es)");
    expect(await db.task.count({ where: { key: "instance_purge:attach.example" } })).toBe(1);
    expect(await db.job.count({ where: { name: "tasks.run", payload: { path: ["taskId"], equals: task.id } } })).toBe(1);
  });

  test("instance refetch schedules a refresh of every stored account of the host", async () => {
    const db = server.services.db as Prisma;
    await account(db, "f1", "refetch.example");
    await account(db, "f2", "refetch.example");
    const r = await runCtl(env, "instance", "refetch", "refetch.example");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("scheduled a refresh of 2 account(s) of refetch.example");
    expect(await db.task.findFirstOrThrow({ where: { kind: "instance_refetch" } })).toMatchObject({ state: "done", done: 2, total: 2 });

    const tasks = json(await runCtl(env, "task", "list", "--json"));
    expect(tasks.map((t: { kind: string }) => t.kind)).toEqual(["instance_refetch", "instance_purge", "instance_purge", "instance_purge"]);
    const shown = await runCtl(env, "task", "show", tasks[0].id);
    expect(shown.stdout).toMatch(new RegExp(`^${tasks[0].id} {2}instance_refetch {2}refetch\\.example {2}done {2}2/2 `, "m"));
    expect(shown.stdout).toContain('result: {"scheduled":2}');
    expect((await runCtl(env, "task", "show", "nope")).code).toBe(1);
  });
});
