// npm run bench:federation — the federation benchmark (issue 13, criterion 9), on the test network
// (real server process on PostgreSQL behind the TLS front, loopback host names, test CA):
//   (i)  inbox throughput: signed `Create` activities (draft-cavage, 20 remote actors of a Fedify peer in
//        this process) POSTed concurrently to the server's shared inbox; accepted/s (202s) and
//        processed/s (remote statuses stored by the inbox jobs);
//   (ii) fan-out: one public status of an account with 10,000 remote followers on 500 instances
//        (`i1.fed.test`…, seeded in the database, all routed to one sink in this process that counts
//        POSTs per host and verifies a sample of signatures); time until every instance has it, and the
//        server process's RSS sampled meanwhile.
// Environment: BENCH_INBOX (activities, default 2000), BENCH_CONCURRENCY (default 32),
// BENCH_FOLLOWERS (10000), BENCH_INSTANCES (500).
import http from "node:http";
import os from "node:os";
import fs from "node:fs";
import path from "node:path";
import { execFileSync, spawnSync } from "node:child_process";
import { verifyRequest } from "@fedify/fedify";
import { getDocumentLoader } from "@fedify/vocab-runtime";
import { startFederationNet, type TestInstance } from "../../test/support/federation/network.ts";
import { waitFor } from "../../test/support/wait.ts";
import { startPeer } from "../../test/support/federation/peer.ts";

const INBOX_ACTIVITIES = Number(process.env.BENCH_INBOX ?? 2000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const FOLLOWERS = Number(process.env.BENCH_FOLLOWERS ?? 10_000);
const INSTANCES = Number(process.env.BENCH_INSTANCES ?? 500);
const PROCESSES = Number(process.env.BENCH_PROCESSES ?? 1);
const ACTORS = 20;
const ACCEPT_ONLY = JSON.parse(process.env.BENCH_SERVER_ENV ?? "{}").JOBS_ENABLED === "false";
const PUBLIC = "https://www.w3.org/ns/activitystreams#Public";

const log = (...args: unknown[]) => console.log(`[bench ${new Date().toISOString().slice(11, 19)}]`, ...args);

/** The pid of the process listening on `port` (a spawned server: not always the spawned pid itself). */
const CLK_TCK = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim());

/** CPU time the process has used so far, in milliseconds: user and system (kernel) apart. */
function cpuSplit(pid: number): { user: number; system: number } {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    // utime, stime (fields 14 and 15 of the whole line)
    return { user: (Number(fields[11]) * 1000) / CLK_TCK, system: (Number(fields[12]) * 1000) / CLK_TCK };
  } catch {
    return { user: 0, system: 0 }; // gone (a backend that closed)
  }
}

/** CPU time (user + system) the processes have used, in milliseconds. */
function cpuMs(pids: number | number[]): number {
  return [pids].flat().reduce((sum, pid) => {
    const { user, system } = cpuSplit(pid);
    return sum + user + system;
  }, 0);
}

/** The server processes' user and system time together. */
function serverCpu(pids: number[]): { user: number; system: number } {
  return pids.map(cpuSplit).reduce((a, b) => ({ user: a.user + b.user, system: a.system + b.system }), { user: 0, system: 0 });
}

/** The PostgreSQL backends serving this instance's database (their CPU is part of each activity's cost). */
async function backendPids(a: TestInstance): Promise<number[]> {
  const rows = await a.sql<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()");
  return rows.map((r) => r.pid);
}

/**
 * Where the CPU of a measured part went: the server process (user and kernel time apart), the database
 * backends of its database, and this process (the load generator, the peer and the TLS front).
 */
async function cpuMeter(a: TestInstance, pids: number[]) {
  const backends = await backendPids(a);
  const server0 = serverCpu(pids);
  const db0 = new Map(backends.map((b) => [b, cpuMs(b)]));
  const self0 = process.cpuUsage();
  return async (activities: number) => {
    const server = serverCpu(pids);
    const self = process.cpuUsage(self0);
    let db = 0;
    for (const b of new Set([...backends, ...(await backendPids(a))])) db += cpuMs(b) - (db0.get(b) ?? 0);
    const per = (ms: number) => +(ms / activities).toFixed(2);
    return {
      serverUser: per(server.user - server0.user),
      serverSystem: per(server.system - server0.system),
      database: per(db),
      loadGenerator: per((self.user + self.system) / 1000),
    };
  };
}

/** Resident memory of the server processes together, in MB. */
const rssMb = (pids: number[]) =>
  pids.reduce((sum, pid) => {
    try {
      return sum + Number(fs.readFileSync(`/proc/${pid}/status`, "utf8").match(/VmRSS:\s+(\d+)/)![1]) / 1024;
    } catch {
      throw new Error(`the server process ${pid} is gone`);
    }
  }, 0);

function sampler(pid: number[]) {
  const samples: number[] = [];
  const timer = setInterval(() => {
    try {
      samples.push(rssMb(pid));
    } catch (error) {
      clearInterval(timer);
      console.error(String(error));
    }
  }, 200);
  return {
    stop() {
      clearInterval(timer);
      return { start: samples[0] ?? rssMb(pid), peak: Math.max(...samples, rssMb(pid)), end: rssMb(pid) };
    },
  };
}

async function pool<T>(n: number, concurrency: number, task: (i: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array(n);
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) {
        const i = next++;
        results[i] = await task(i);
      }
    }),
  );
  return results;
}

/** Transactions committed in the server's database so far (each autocommit statement is one). */
async function commits(a: TestInstance): Promise<number> {
  await new Promise((r) => setTimeout(r, 1500)); // statistics are flushed about every second
  return Number((await a.sql<{ n: string }>("SELECT xact_commit AS n FROM pg_stat_database WHERE datname = current_database()"))[0].n);
}

type TableStats = Map<string, { reads: number; writes: number }>;

/** Per table: index and sequential scans (reads) and inserted/updated/deleted rows (writes) so far. */
async function tableStats(a: TestInstance): Promise<TableStats> {
  await new Promise((r) => setTimeout(r, 1500)); // flushed about every second, like xact_commit
  const rows = await a.sql<{ relname: string; reads: string; writes: string }>(
    `SELECT relname, coalesce(idx_scan, 0) + coalesce(seq_scan, 0) AS reads, n_tup_ins + n_tup_upd + n_tup_del AS writes FROM pg_stat_user_tables`,
  );
  return new Map(rows.map((r) => [r.relname, { reads: Number(r.reads), writes: Number(r.writes) }]));
}

/** What each activity cost each table, for the tables it touched ("statuses: 2 reads, 1 write"). */
function tablesPerActivity(before: TableStats, after: TableStats, activities: number): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [table, now] of after) {
    const was = before.get(table) ?? { reads: 0, writes: 0 };
    const reads = (now.reads - was.reads) / activities;
    const writes = (now.writes - was.writes) / activities;
    if (reads >= 0.05 || writes >= 0.05) out[table] = `${reads.toFixed(2)} reads, ${writes.toFixed(2)} writes`;
  }
  return out;
}

async function count(a: TestInstance, sql: string, params: unknown[] = []): Promise<number> {
  return Number((await a.sql<{ n: number }>(sql, params))[0].n);
}

async function inboxThroughput(net: Awaited<ReturnType<typeof startFederationNet>>, a: TestInstance, pid: number[]) {
  const peer = await startPeer(net, "peer");
  const actors = await Promise.all(Array.from({ length: ACTORS }, (_, i) => peer.actor(`bench${i}`)));
  let serial = 0;
  const create = (actorIndex: number) => {
    const actor = actors[actorIndex % ACTORS];
    const id = `${peer.baseUrl}/notes/${++serial}-${Date.now()}`;
    const note = { id, type: "Note", attributedTo: actor.id, to: [PUBLIC], cc: [actor.followers], content: `<p>benchmark note ${serial}</p>`, published: new Date().toISOString() };
    return { "@context": "https://www.w3.org/ns/activitystreams", id: `${id}/activity`, type: "Create", actor: actor.id, to: [PUBLIC], cc: [actor.followers], object: note };
  };
  const send = async (i: number) => {
    const res = await peer.send(actors[i % ACTORS].id.split("/").pop()!, `${a.baseUrl}/inbox`, create(i));
    await res.arrayBuffer();
    return res.status;
  };
  // The measured activities are signed before the clock starts: signing is the sender's cost, and in this
  // one process it would take CPU from the server under test (their Date stays well inside the server's window).
  const post = async (request: Request) => {
    const res = await fetch(request);
    await res.arrayBuffer();
    return res.status;
  };
  // warm-up: every actor once (the server fetches and stores each actor and its key the first time)
  log(`inbox: warm-up with ${ACTORS} actors`);
  const warm = await pool(ACTORS, ACTORS, send);
  if (warm.some((s) => s !== 202)) throw new Error(`warm-up answers: ${warm.join(",")}`);
  const remoteStatuses = () => count(a, "SELECT count(*)::int AS n FROM statuses WHERE local = false");
  if (!ACCEPT_ONLY) await waitFor(async () => (await remoteStatuses()) >= ACTORS, "warm-up processed", { timeoutMs: 60_000 });
  const base = await remoteStatuses();

  if (process.env.BENCH_CPU_PROF) {
    // the profile so far (start-up, warm-up) is written and dropped; the next one covers the measured part
    for (const p of pid) process.kill(p, "SIGUSR2");
    await new Promise((r) => setTimeout(r, 2000));
  }
  log(`inbox: signing ${INBOX_ACTIVITIES} Creates`);
  const signed = await pool(INBOX_ACTIVITIES, 4, (i) => peer.sign(actors[(ACTORS + i) % ACTORS].id.split("/").pop()!, `${a.baseUrl}/inbox`, create(ACTORS + i)));
  log(`inbox: ${INBOX_ACTIVITIES} signed Creates, ${CONCURRENCY} at a time`);
  const commits0 = await commits(a);
  const tables0 = await tableStats(a);
  const rss = sampler(pid);
  const cpu0 = cpuMs(pid);
  const meter = await cpuMeter(a, pid);
  const t0 = performance.now();
  const statuses = await pool(INBOX_ACTIVITIES, CONCURRENCY, (i) => post(signed[i]));
  const acceptedMs = performance.now() - t0;
  const accepted = statuses.filter((s) => s === 202).length;
  // BENCH_SERVER_ENV='{"JOBS_ENABLED":"false"}' measures accepting alone (nothing is processed)
  if (!ACCEPT_ONLY) await waitFor(async () => (await remoteStatuses()) - base >= accepted, "inbox processed", { timeoutMs: 600_000, intervalMs: 250 });
  const processedMs = performance.now() - t0;
  const serverCpuMs = cpuMs(pid) - cpu0;
  const cpuPerActivityMs = await meter(accepted);
  const memory = rss.stop();
  const failedJobs = await count(a, "SELECT count(*)::int AS n FROM jobs WHERE state = 'failed'");
  const transactions = (await commits(a)) - commits0;
  const tables = tablesPerActivity(tables0, await tableStats(a), accepted);
  await peer.close();
  return {
    activities: INBOX_ACTIVITIES,
    concurrency: CONCURRENCY,
    accepted,
    refused: statuses.length - accepted,
    acceptedPerSecond: Math.round((accepted / acceptedMs) * 1000),
    processedPerSecond: Math.round((accepted / processedMs) * 1000),
    acceptSeconds: +(acceptedMs / 1000).toFixed(2),
    processSeconds: +(processedMs / 1000).toFixed(2),
    failedJobs,
    /** the server process's CPU time per activity (accepting and processing), whatever the machine's load */
    serverCpuMsPerActivity: +(serverCpuMs / accepted).toFixed(2),
    /** CPU per activity of each part on the machine: server (user, kernel), its database backends, this process */
    cpuPerActivityMs,
    /** database transactions (mostly single statements) per activity, accepting and processing */
    transactionsPerActivity: +(transactions / accepted).toFixed(1),
    /** per activity, the tables' scans and written rows (pg_stat_user_tables) */
    tables,
    rssMb: { start: Math.round(memory.start), peak: Math.round(memory.peak), end: Math.round(memory.end) },
  };
}

async function fanOut(net: Awaited<ReturnType<typeof startFederationNet>>, a: TestInstance, pid: number[]) {
  // the sink: every instance's shared inbox
  const perHost = new Map<string, number>();
  const firstAt = new Map<string, number>();
  let posts = 0;
  let sampled = 0;
  let verified = 0;
  const documentLoader = getDocumentLoader({ allowPrivateAddress: true });
  const verifications: Promise<void>[] = [];
  const sink = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const host = String(req.headers.host ?? "").split(":")[0];
    posts++;
    perHost.set(host, (perHost.get(host) ?? 0) + 1);
    if (!firstAt.has(host)) firstAt.set(host, performance.now());
    if (posts % 50 === 1) {
      // a sample of the signatures, checked against the sender's published key
      sampled++;
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
      const request = new Request(`https://${host}${req.url}`, { method: "POST", headers, body: Buffer.concat(chunks) });
      verifications.push(verifyRequest(request, { documentLoader }).then((key) => void (key && verified++)));
    }
    res.writeHead(202).end();
  });
  await new Promise<void>((r) => sink.listen(0, "127.0.0.1", r));
  const sinkPort = (sink.address() as { port: number }).port;
  for (let i = 1; i <= INSTANCES; i++) net.route(`i${i}`, sinkPort);

  const author = await a.createUser("popular");
  log(`fan-out: seeding ${FOLLOWERS} remote followers on ${INSTANCES} instances`);
  await a.sql(
    `INSERT INTO accounts (id, nickname, domain, local, ap_id, inbox, shared_inbox, url, created_at, updated_at)
     SELECT '0bench' || lpad(g::text, 6, '0'), 'u' || g || '@i' || h || '.fed.test', 'i' || h || '.fed.test', false,
            'https://i' || h || '.fed.test/users/u' || g, 'https://i' || h || '.fed.test/users/u' || g || '/inbox',
            'https://i' || h || '.fed.test/inbox', 'https://i' || h || '.fed.test/@u' || g, now(), now()
     FROM generate_series(1, $1::int) g, LATERAL (SELECT (g - 1) % $2::int + 1 AS h) x`,
    [FOLLOWERS, INSTANCES],
  );
  await a.sql(
    `INSERT INTO follows (id, follower_id, following_id, state, created_at, updated_at)
     SELECT '0bfollow' || lpad(g::text, 6, '0'), '0bench' || lpad(g::text, 6, '0'), $1, 'accept', now(), now() FROM generate_series(1, $2::int) g`,
    [author.id, FOLLOWERS],
  );
  await a.sql("ANALYZE accounts; ANALYZE follows");

  log("fan-out: posting");
  const commits0 = await commits(a);
  const rss = sampler(pid);
  const cpu0 = cpuMs(pid);
  const t0 = performance.now();
  const res = await a.api("/api/v1/statuses", { token: author.token, json: { status: "one status for ten thousand followers", visibility: "public" } });
  if (res.status !== 200) throw new Error(`post: ${res.status}`);
  const postMs = performance.now() - t0;
  await waitFor(async () => firstAt.size >= INSTANCES, "every instance delivered", { timeoutMs: 300_000, intervalMs: 100 });
  const doneMs = performance.now() - t0;
  const serverCpuMs = cpuMs(pid) - cpu0;
  await new Promise((r) => setTimeout(r, 1000)); // anything more would be a duplicate
  const memory = rss.stop();
  await Promise.all(verifications);
  const transactions = (await commits(a)) - commits0;
  const times = [...firstAt.values()].map((t) => t - t0).sort((x, y) => x - y);
  sink.close();
  return {
    followers: FOLLOWERS,
    instances: INSTANCES,
    instancesReached: firstAt.size,
    posts,
    duplicates: [...perHost.values()].filter((n) => n > 1).length,
    postRequestMs: Math.round(postMs),
    firstDeliveryMs: Math.round(times[0]),
    medianDeliveryMs: Math.round(times[Math.floor(times.length / 2)]),
    allDeliveredSeconds: +(doneMs / 1000).toFixed(2),
    serverCpuSeconds: +(serverCpuMs / 1000).toFixed(2),
    transactions,
    signaturesSampled: sampled,
    signaturesVerified: verified,
    rssMb: { start: Math.round(memory.start), peak: Math.round(memory.peak), end: Math.round(memory.end) },
  };
}

async function main() {
  const load = () => os.loadavg().map((l) => +l.toFixed(2));
  const loadBefore = load();
  log(`machine: ${os.cpus().length} cores, load ${loadBefore.join(" ")}`);
  const net = await startFederationNet();
  let server: TestInstance | undefined;
  try {
    // BENCH_CPU_PROF=<file>: the server's CPU profile of the inbox part is written there (cpu-profile.mjs)
    const preload = path.resolve("test/support/federation/loopback-dns.mjs");
    const profiler = path.resolve("scripts/bench/cpu-profile.mjs");
    const profile: Record<string, string> = process.env.BENCH_CPU_PROF ? { NODE_OPTIONS: `--import ${preload} --import ${profiler}`, CPU_PROF_FILE: path.resolve(process.env.BENCH_CPU_PROF) } : {};
    // BENCH_SERVER_ENV='{"JOBS_CONCURRENCY":"16"}': extra environment of the server
    const extra = JSON.parse(process.env.BENCH_SERVER_ENV ?? "{}") as Record<string, string>;
    // BENCH_PROCESSES=2: the instance served by that many processes on its database, the TLS front taking
    // turns (docs/deployment.md); each accepts and runs jobs
    const a = (server = await net.start("a", { LOG_LEVEL: "error", ...profile, ...extra }, PROCESSES));
    if (process.env.BENCH_LOG_STATEMENTS) {
      // diagnosis: PostgreSQL logs every statement on this database (its server log), from a restart on
      await a.sql(`ALTER DATABASE "${(await a.sql<{ db: string }>("SELECT current_database() AS db"))[0].db}" SET log_statement = 'all'`);
      await a.restart();
    }
    const pid = a.pids();
    const inbox = process.env.BENCH_SKIP_INBOX ? null : await inboxThroughput(net, a, pid);
    log("inbox", inbox);
    if (process.env.BENCH_CPU_PROF) {
      for (const p of pid) process.kill(p, "SIGUSR2");
      await new Promise((r) => setTimeout(r, 3000));
    }
    if (process.env.BENCH_SKIP_FANOUT) return;
    const loadMiddle = load();
    const fanout = await fanOut(net, a, pid);
    log("fan-out", fanout);
    const result = { date: new Date().toISOString(), cores: os.cpus().length, node: process.version, processes: PROCESSES, load: { before: loadBefore, middle: loadMiddle, after: load() }, inbox, fanout };
    console.log(JSON.stringify(result, null, 2));
  } catch (error) {
    if (server) console.error(`server output:\n${server.logs().slice(-4000)}`);
    throw error;
  } finally {
    await net.close();
  }
}

/**
 * Node reads NODE_EXTRA_CA_CERTS at start-up only: unless the test CA is already trusted, run again
 * with a bundle of the environment's extra CAs and the test CA (as vitest.config.ts does for tests).
 */
function trustTestCa(): boolean {
  const testCa = fs.readFileSync(path.resolve("test/support/federation/pki/ca.pem"), "utf8");
  const current = process.env.NODE_EXTRA_CA_CERTS && fs.existsSync(process.env.NODE_EXTRA_CA_CERTS) ? fs.readFileSync(process.env.NODE_EXTRA_CA_CERTS, "utf8") : "";
  if (current.includes(testCa)) return true;
  const bundle = path.join(os.tmpdir(), `bench-federation-ca-${process.pid}.pem`);
  fs.writeFileSync(bundle, `${current}\n${testCa}`);
  const run = spawnSync(process.execPath, [...process.execArgv, ...process.argv.slice(1)], { stdio: "inherit", env: { ...process.env, NODE_EXTRA_CA_CERTS: bundle } });
  fs.rmSync(bundle, { force: true });
  process.exit(run.status ?? 1);
}

if (trustTestCa()) main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
