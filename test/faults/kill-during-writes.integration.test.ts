// kill -9 of the server during a burst of acknowledged writes (statuses, follows, uploads) loses none of
// them after a restart, and jobs left pending by the dead process (a follow import, a backup) run
// exactly once afterwards, on both job engines (the database queue and BullMQ on a private Redis).
// Real processes on PostgreSQL. Federation deliveries: kill-during-deliveries.integration.test.ts.
import fs from "node:fs";
import path from "node:path";
import { Queue } from "bullmq";
import { Redis } from "ioredis";
import pg from "pg";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { serverPerSuite, startPrivateRedis, usersOn, type PrivateRedis } from "../support/processes.ts";
import { waitFor } from "../support/wait.ts";

vi.setConfig({ testTimeout: 240_000, hookTimeout: 120_000 });
const PNG = fs.readFileSync("src/media/assets/avi.png");

/** How the jobs of the backup and the import ran: one row per job, with its tries. */
type JobRun = { name: string; state: string; attempts: number };

describe.each(["database", "redis"] as const)("kill -9 during acknowledged writes (jobs on %s)", (engine) => {
  let redis: PrivateRedis | undefined;
  beforeAll(async () => {
    if (engine === "redis") redis = await startPrivateRedis();
  });
  afterAll(async () => {
    await redis?.stop();
  });
  // jobs off in the first process: whatever it queues is still pending when it dies
  const suite = serverPerSuite({ env: () => ({ JOBS_ENABLED: "false", ...(redis ? { REDIS_URL: redis.url } : {}) }) });

  /** The backup's and the import's jobs as the engine recorded them. */
  async function jobRuns(client: pg.Client): Promise<JobRun[]> {
    const wanted = (name: string) => name.startsWith("backups") || name.includes("import");
    if (!redis) return (await client.query<JobRun>("SELECT name, state::text AS state, attempts FROM jobs")).rows.filter((j) => wanted(j.name));
    // BullMQ's keys are under the instance's prefix (src/jobs/index.ts); the private Redis holds one instance
    const plain = new Redis(redis.url);
    const keys = await plain.keys("*:jobs:meta");
    plain.disconnect();
    expect(keys).toHaveLength(1);
    const ours = new Queue("jobs", { connection: { url: redis.url }, prefix: keys[0].slice(0, -":jobs:meta".length) });
    try {
      const jobs = await ours.getJobs(["completed", "failed", "active", "wait", "delayed"]);
      const runs: JobRun[] = [];
      for (const job of jobs) if (wanted(job.name)) runs.push({ name: job.name, state: (await job.getState()) === "completed" ? "done" : await job.getState(), attempts: job.attemptsStarted });
      return runs;
    } finally {
      await ours.close();
    }
  }

  test("every acknowledged write is there after the restart; pending jobs run once", async () => {
    const { db, server } = suite;
    const nicknames = ["alice", ...Array.from({ length: 12 }, (_, i) => `u${i}`)];
    const users = await usersOn(server.url, nicknames);
    const alice = users.alice;
    const post = (path: string, init: RequestInit) => fetch(server.url + path, { method: "POST", ...init });

    // what needs jobs: a follow import of six accounts and a backup, acknowledged before the kill
    const imported = nicknames.slice(1, 7);
    expect((await post("/api/v1/ext/follow_import", { headers: { ...alice.auth, "content-type": "application/json" }, body: JSON.stringify({ list: imported.join("\n") }) })).status).toBe(200);
    expect((await post("/api/v1/ext/backups", { headers: alice.auth })).status).toBe(200);

    // the burst: statuses, follows and uploads in flight together; the kill comes while they still arrive
    const acknowledged = { statuses: [] as string[], follows: [] as string[], media: [] as { id: string; url: string }[] };
    let stop = false;
    const writer = async (n: number) => {
      for (let i = 0; !stop; i++) {
        try {
          const kind = (n + i) % 3;
          if (kind === 0) {
            const res = await post("/api/v1/statuses", { headers: { ...alice.auth, "content-type": "application/json" }, body: JSON.stringify({ status: `burst ${n}.${i}` }) });
            if (res.status === 200) acknowledged.statuses.push((await res.json()).id);
          } else if (kind === 1) {
            const target = nicknames[7 + ((n + i) % 6)];
            const res = await post(`/api/v1/accounts/${users[target].id}/follow`, { headers: alice.auth });
            if (res.status === 200) acknowledged.follows.push(users[target].id);
          } else {
            const form = new FormData();
            form.append("file", new Blob([PNG], { type: "image/png" }), `f${n}-${i}.png`);
            const res = await post("/api/v1/media", { headers: alice.auth, body: form });
            if (res.status === 200) {
              const media = await res.json();
              acknowledged.media.push({ id: media.id, url: media.url });
            }
          }
        } catch {
          return; // the connection died with the process: that request was never acknowledged
        }
      }
    };
    const writers = Array.from({ length: 6 }, (_, n) => writer(n));
    await waitFor(async () => acknowledged.statuses.length + acknowledged.media.length >= 30, "30 acknowledged writes", { timeoutMs: 60_000 });
    expect(await server.signal("SIGKILL")).toBe(null);
    stop = true;
    await Promise.all(writers);
    expect(acknowledged.statuses.length).toBeGreaterThan(5);
    expect(acknowledged.media.length).toBeGreaterThan(5);

    // restart on the same database and data directory, jobs on
    await server.start({ JOBS_ENABLED: "true" });
    for (const id of acknowledged.statuses) expect((await fetch(`${server.url}/api/v1/statuses/${id}`, { headers: alice.auth })).status, `status ${id}`).toBe(200);
    const following = await (await fetch(`${server.url}/api/v1/accounts/relationships?${[...new Set(acknowledged.follows)].map((id) => `id[]=${id}`).join("&")}`, { headers: alice.auth })).json();
    for (const rel of following) expect(rel.following, `follow ${rel.id}`).toBe(true);
    for (const media of acknowledged.media) {
      expect((await fetch(`${server.url}/api/v1/media/${media.id}`, { headers: alice.auth })).status, `media ${media.id}`).toBe(200);
      const file = await fetch(media.url.replace("http://localhost:4000", server.url));
      expect(file.status, media.url).toBe(200);
      // stored whole (re-encoded without metadata, docs/media.md): a PNG that sharp reads
      const bytes = Buffer.from(await file.arrayBuffer());
      expect(bytes.subarray(0, 8).equals(PNG.subarray(0, 8)), media.url).toBe(true);
      expect((await sharp(bytes).metadata()).width, media.url).toBeGreaterThan(0);
    }
    // no half-written rows: every status row has its author, every attachment a file
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      const orphans = await client.query("SELECT count(*)::int AS n FROM statuses s LEFT JOIN accounts a ON a.id = s.account_id WHERE a.id IS NULL");
      expect(orphans.rows[0].n).toBe(0);

      // the pending jobs ran, once each
      await waitFor(async () => (await client.query("SELECT state FROM backups")).rows.every((r) => r.state === "complete"), "the backup", { timeoutMs: 60_000 });
      const importedIds = imported.map((n) => users[n].id);
      await waitFor(async () => (await client.query("SELECT count(*)::int AS n FROM follows WHERE follower_id = $1 AND following_id = ANY($2)", [alice.id, importedIds])).rows[0].n === imported.length, "the import's follows", { timeoutMs: 60_000 });
      const jobs = await waitFor(async () => {
        const runs = await jobRuns(client);
        return runs.length >= 2 && runs.every((j) => j.state === "done") ? runs : null;
      }, "the jobs recorded done", { timeoutMs: 30_000 });
      for (const job of jobs) expect(job, JSON.stringify(job)).toMatchObject({ state: "done", attempts: 1 });
    } finally {
      await client.end();
    }
    const backups = fs.readdirSync(path.join(server.dataDir, "backups"));
    expect(backups).toHaveLength(1);
  });
});

