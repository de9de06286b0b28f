// `npm run bench:stream`: streaming fan-out (issue 8, criterion 7). Starts the real server in-process on a
// fresh database, opens BENCH_CLIENTS streaming WebSockets subscribed to `public` from a child process
// (scripts/bench/stream-clients.ts, so this process's memory is the server's alone), measures the server's
// memory per idle connection, then posts public statuses through the REST API and measures, for every
// client, the time from sending the POST to the client receiving the `update`.
//
//   npm run bench:stream                         2,000 clients, 20 posts 500 ms apart
//   BENCH_CLIENTS=200 npm run bench:stream       a quick smoke run
//   npm run bench:stream -- --write              also rewrites the streaming results in docs/performance.md
// Env: BENCH_DATABASE_URL (postgresql://postgres@127.0.0.1:5432/bench_stream, dropped and recreated; `pglite:memory://`
// for the embedded database), BENCH_CLIENTS (2000), BENCH_POSTS (20), BENCH_INTERVAL_MS (500), BENCH_WARMUP_POSTS (2),
// BENCH_READERS (accounts the clients sign in as, round robin; default one per client, 0 = anonymous clients),
// BENCH_CONNECT_CONCURRENCY (50 connection attempts in flight), BENCH_PROFILE (a file: the server's CPU profile while
// the measured statuses fan out, in the .cpuprofile format of Chrome's and VS Code's profilers), BENCH_TRACE_SQL=1 (prints
// the timeline of the last post's SQL statements, POST and fan-out, against its bus and frame times).
import { fork, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import { Session } from "node:inspector/promises";
import os from "node:os";
import path from "node:path";
import v8 from "node:v8";
import vm from "node:vm";
import pg from "pg";
import WebSocket from "ws";
import { loadSettings } from "../../src/config/env.ts";
import { newId } from "../../src/db/ids.ts";
import { createLocalAccount, localApId } from "../../src/domain/accounts/accounts.ops.ts";
import { issueToken } from "../../src/domain/auth/tokens.ops.ts";
import { systemCtx } from "../../src/domain/context.ts";
import type { Bus } from "../../src/realtime/bus.ts";
import { streamHub } from "../../src/domain/streams/hub.ts";
import { startServer } from "../../src/server.ts";
import { ascending, percentile } from "./stats.ts";

const args = new Set(process.argv.slice(2));
const env = process.env;
const num = (name: string, fallback: number) => (env[name] ? Number(env[name]) : fallback);
const DB_URL = env.BENCH_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/bench_stream";
const PGLITE = DB_URL.startsWith("pglite:");
const CLIENTS = num("BENCH_CLIENTS", 2000);
const POSTS = num("BENCH_POSTS", 20);
const INTERVAL_MS = num("BENCH_INTERVAL_MS", 500);
const WARMUP_POSTS = num("BENCH_WARMUP_POSTS", 2);
const READERS = Math.min(num("BENCH_READERS", CLIENTS), CLIENTS);
const CONNECT_CONCURRENCY = num("BENCH_CONNECT_CONCURRENCY", 50);
const POSTER = "poster";
const POSTER_PASSWORD = "bench-password";
const DOC = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../../docs/performance.md");
const START = "<!-- bench:stream:start -->";
const END = "<!-- bench:stream:end -->";

const log = (message: string) => process.stderr.write(`[bench:stream] ${message}\n`);
/** wall-clock milliseconds with sub-millisecond resolution; the client process stamps arrivals the same way */
const now = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

v8.setFlagsFromString("--expose-gc");
const gc = vm.runInNewContext("gc") as () => void;

// ---------- the database ----------

const dbName = PGLITE ? "" : new URL(DB_URL).pathname.slice(1);

async function admin(sql: string) {
  const u = new URL(DB_URL);
  u.pathname = "/postgres";
  const c = new pg.Client({ connectionString: u.toString() });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

// ---------- measuring ----------

interface Memory {
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
}

/**
 * After full collections, once the resident size has settled: V8 hands freed pages back to the system some time
 * after a collection, so a single reading right after one says as much about the last minute's garbage as about
 * what is live.
 */
async function memory(): Promise<Memory> {
  let last = 0;
  for (let i = 0; i < 20; i++) {
    gc();
    await sleep(500);
    const rss = process.memoryUsage.rss();
    if (i >= 2 && Math.abs(rss - last) < 256 * 1024) break;
    last = rss;
  }
  gc();
  const m = process.memoryUsage();
  return { rss: m.rss, heapUsed: m.heapUsed, heapTotal: m.heapTotal, external: m.external };
}

interface ServerSends {
  first: number;
  last: number;
  count: number;
  bytes: number;
}

/**
 * When the server handed each status's frames to the sockets: `ws.send` is wrapped in this process (the
 * server's), and each distinct envelope buffer (subscribers with equal renderings share one) is decoded once.
 */
function watchServerSends() {
  const sends = new Map<string, ServerSends>();
  const ids = new WeakMap<object, string | null>();
  const idOf = (data: unknown): string | null => {
    if (!(data instanceof Buffer) && typeof data !== "string") return null;
    const key = typeof data === "string" ? null : data;
    if (key && ids.has(key)) return ids.get(key)!;
    let id: string | null = null;
    try {
      const m = JSON.parse(String(data)) as { event?: string; payload?: string };
      if (m.event === "update" && m.payload) id = (JSON.parse(m.payload) as { id: string }).id;
    } catch {
      /* not an envelope */
    }
    if (key) ids.set(key, id);
    return id;
  };
  const proto = WebSocket.prototype as unknown as { send: (...a: unknown[]) => void; ping: (...a: unknown[]) => void };
  const original = proto.send;
  const originalPing = proto.ping;
  // heartbeats: every server ping, so that a post that coincides with a round of them can be told apart
  const pings: number[] = [];
  proto.ping = function (this: unknown, ...a: unknown[]) {
    pings.push(now());
    return originalPing.apply(this, a);
  };
  proto.send = function (this: unknown, ...a: unknown[]) {
    const at = now();
    const id = idOf(a[0]);
    if (id) {
      const s = sends.get(id);
      if (s) {
        s.last = at;
        s.count++;
      } else sends.set(id, { first: at, last: at, count: 1, bytes: Buffer.byteLength(a[0] as Buffer | string) });
    }
    return original.apply(this, a);
  };
  return { sends, pings, restore: () => void Object.assign(proto, { send: original, ping: originalPing }) };
}

/** When each status reached the bus (the hub hears it in the same turn of the event loop). */
function watchBus(bus: Bus) {
  const published = new Map<string, number>();
  const it = bus.subscribe("status_created")[Symbol.asyncIterator]();
  void (async () => {
    for (;;) {
      const next = await it.next();
      if (next.done) return;
      published.set(next.value.statusId, now());
    }
  })();
  return { published, stop: () => it.return?.() };
}

interface TracedStatement {
  start: number;
  end: number;
  sql: string;
}

/** Every statement's start and end (Prisma's query event comes at the end, with the duration). */
function traceStatements(prisma: unknown) {
  const statements: TracedStatement[] = [];
  let on = true;
  (prisma as { $on(e: "query", cb: (e: { query: string; duration: number }) => void): void }).$on("query", (e) => {
    if (!on || /\bjobs\b/.test(e.query)) return;
    const end = now();
    statements.push({ start: end - e.duration, end, sql: e.query });
  });
  return { statements, stop: () => void (on = false) };
}

/** The statements around one post, in ms after its POST was sent, with the table each reads or writes. */
function printTrace(statements: TracedStatement[], p: { sent: number; published: number; firstFrame: number; lastFrame: number }) {
  const events = [
    ...statements.filter((s) => s.end >= p.sent).map((s) => ({ at: s.start - p.sent, text: `${f1(s.start - p.sent).padStart(7)} → ${f1(s.end - p.sent).padStart(7)}  ${s.sql.replace(/\s+/g, " ").replace(/"public"\./g, "").slice(0, 110)}` })),
    { at: p.published, text: `${f1(p.published).padStart(7)}            ── on the bus` },
    { at: p.firstFrame, text: `${f1(p.firstFrame).padStart(7)}            ── first frame` },
    { at: p.lastFrame, text: `${f1(p.lastFrame).padStart(7)}            ── last frame` },
  ].sort((a, b) => a.at - b.at);
  log("SQL of the last post (ms after the POST was sent):");
  for (const e of events) process.stderr.write(`  ${e.text}\n`);
}


// ---------- the client process ----------

class Clients {
  private readonly child: ChildProcess;
  private waiting = new Map<string, { resolve: (m: any) => void; reject: (e: Error) => void }>();

  constructor() {
    const script = path.join(path.dirname(new URL(import.meta.url).pathname), "stream-clients.ts");
    this.child = fork(script, [], { execArgv: ["--import", "tsx"], stdio: ["ignore", "inherit", "inherit", "ipc"] });
    this.child.on("message", (m: { type: string }) => {
      const w = this.waiting.get(m.type);
      this.waiting.delete(m.type);
      w?.resolve(m);
    });
    this.child.once("exit", (code) => {
      for (const w of this.waiting.values()) w.reject(new Error(`the client process exited (${code})`));
      this.waiting.clear();
    });
  }

  ask<T>(message: { type: string } & Record<string, unknown>, answer = message.type): Promise<T> {
    return new Promise((resolve, reject) => {
      this.waiting.set(answer, { resolve, reject });
      this.child.send(message, (e) => e && reject(e));
    });
  }

  /** The child's clock minus ours, from the quickest of a few round trips. */
  async clockOffset(): Promise<{ offset: number; roundTrip: number }> {
    let best = { offset: 0, roundTrip: Infinity };
    for (let i = 0; i < 10; i++) {
      const sent = now();
      const { now: theirs } = await this.ask<{ now: number }>({ type: "clock" });
      const back = now();
      if (back - sent < best.roundTrip) best = { offset: theirs - (sent + back) / 2, roundTrip: back - sent };
    }
    return best;
  }

  kill() {
    if (this.child.exitCode === null) this.child.kill();
  }
}

// ---------- report ----------

const kib = (bytes: number) => bytes / 1024;
const f1 = (x: number) => x.toFixed(1);
const f0 = (x: number) => x.toFixed(0);
const n = (x: number) => x.toLocaleString("en");
const sorted = ascending;

/** One measured status; times in ms after its POST was sent. */
interface PostRecord {
  id: string;
  sent: number;
  response: number;
  published: number;
  firstFrame: number;
  lastFrame: number;
  /** arrival at each client that got it */
  arrivals: number[];
  /** heartbeat pings the server sent between this POST and its last arrival */
  pings: number;
}

interface Outcome {
  loadBefore: string;
  connect: { opened: number; failed: number; ms: number };
  clock: { offset: number; roundTrip: number };
  idle: { before: Memory; after: Memory };
  afterPosts: Memory;
  posts: PostRecord[];
  missed: number;
  duplicates: number;
  frameBytes: number;
  /** SQL statements of a POST that nobody streams, and of a POST and its fan-out */
  statements: { post: number; withFanout: number };
  /** the server process's CPU time per measured post (its POST, its fan-out, and whatever else ran meanwhile) */
  cpuMs: { user: number; system: number };
}

function report(o: Outcome): string {
  const cpu = os.cpus();
  const all = sorted(o.posts.flatMap((p) => p.arrivals));
  const fromBus = sorted(o.posts.flatMap((p) => p.arrivals.map((a) => a - p.published)));
  const p99 = all.length ? percentile(all, 99) : NaN;
  const per = (k: keyof Memory) => kib((o.idle.after[k] - o.idle.before[k]) / o.connect.opened);
  const who = READERS === 0 ? "anonymous" : READERS === CLIENTS ? `each signed in as an account of its own` : `signed in as ${n(READERS)} accounts, round robin`;
  const dist = (xs: number[]) => `${f1(percentile(xs, 50))} / ${f1(percentile(xs, 95))} / ${f1(percentile(xs, 99))} / ${f1(xs[xs.length - 1]!)}`;
  const lines: string[] = [];
  lines.push(
    `Run on ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC — ${cpu.length} × ${cpu[0]?.model.trim() ?? "CPU"}, ${Math.round(os.totalmem() / 2 ** 30)} GB RAM, ` +
      `Node ${process.version}, ${PGLITE ? "PGlite (in the server process)" : "PostgreSQL on 127.0.0.1"}; the server in one process, the clients in another; ` +
      `load average ${o.loadBefore} before the posts, ${os.loadavg()[0]!.toFixed(1)} after${env.BENCH_PROFILE ? "; with the CPU profiler running" : ""}.`,
  );
  lines.push("");
  lines.push(
    `${n(o.connect.opened)} clients on \`/api/v1/streaming?stream=public\` (${who}; ${o.connect.failed} failed; all open in ${f1(o.connect.ms / 1000)} s), ` +
      `${o.posts.length} public statuses posted every ${INTERVAL_MS} ms through \`POST /api/v1/statuses\` after ${WARMUP_POSTS} unmeasured ones; ` +
      `${n(o.frameBytes)} bytes per \`update\` frame. The clocks of the two processes agree within ${f1(Math.abs(o.clock.offset))} ms (round trip ${f1(o.clock.roundTrip)} ms).`,
  );
  lines.push("");
  lines.push("| measure | value | target |");
  lines.push("|---|---:|---|");
  lines.push(`| deliveries (clients × posts) | ${n(o.connect.opened)} × ${o.posts.length} = ${n(o.connect.opened * o.posts.length)} | |`);
  lines.push(`| delivery latency, POST sent → client received: p50 / p95 / p99 / max | ${dist(all)} ms | p99 < 500 ms ${p99 < 500 ? "✔" : "✘"} |`);
  lines.push(`| of which after the status reached the bus: p50 / p95 / p99 / max | ${dist(fromBus)} ms | |`);
  lines.push(`| deliveries missed | ${n(o.missed)}${o.duplicates ? ` (and ${n(o.duplicates)} duplicates)` : ""} | 0 ${o.missed === 0 && o.duplicates === 0 ? "✔" : "✘"} |`);
  lines.push(`| server RSS per idle connection | ${f1(per("rss"))} KiB | < 50 KiB ${per("rss") < 50 ? "✔" : "✘"} |`);
  lines.push(`| server JS heap used per idle connection | ${f1(per("heapUsed"))} KiB | |`);
  const cpuMs = o.cpuMs.user + o.cpuMs.system;
  lines.push(`| server CPU time per post (the POST and its fan-out): user + system | ${f1(o.cpuMs.user)} + ${f1(o.cpuMs.system)} = ${f1(cpuMs)} ms (${f1((cpuMs * 1000) / o.connect.opened)} µs per delivery) | |`);
  lines.push(`| SQL statements: a POST alone / its fan-out to all clients | ${f0(o.statements.post)} / ${f0(o.statements.withFanout - o.statements.post)} | |`);
  lines.push("");
  const mib = (b: number) => `${f1(b / 2 ** 20)} MiB`;
  const m = (x: Memory) => `RSS ${mib(x.rss)}, heap used ${mib(x.heapUsed)} of ${mib(x.heapTotal)}`;
  lines.push(
    `Server memory after full collections, once RSS settled: before the clients ${m(o.idle.before)}; with ${n(o.connect.opened)} idle clients ${m(o.idle.after)}; after the posts ${m(o.afterPosts)}.`,
  );
  lines.push("");
  lines.push(`Each post, in ms after its POST was sent (frames: the server's \`ws.send\` calls for it; arrivals: at the clients):`);
  lines.push("");
  lines.push("| # | POST answered | on the bus | first frame | last frame | first arrival | median arrival | last arrival | heartbeat pings meanwhile |");
  lines.push("|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
  o.posts.forEach((p, i) => {
    const a = sorted(p.arrivals);
    lines.push(`| ${i + 1} | ${f1(p.response)} | ${f1(p.published)} | ${f1(p.firstFrame)} | ${f1(p.lastFrame)} | ${f1(a[0] ?? NaN)} | ${f1(a.length ? percentile(a, 50) : NaN)} | ${f1(a[a.length - 1] ?? NaN)} | ${p.pings ? n(p.pings) : ""} |`);
  });
  return lines.join("\n");
}

function writeDoc(section: string) {
  const existing = fs.readFileSync(DOC, "utf8");
  const block = `${START}\n${section}\n${END}`;
  const updated =
    existing.includes(START) && existing.includes(END)
      ? existing.replace(new RegExp(`${START}[\\s\\S]*${END}`), () => block)
      : `${existing.trimEnd()}\n\n## Streaming fan-out\n\n${block}\n`;
  fs.writeFileSync(DOC, updated);
  log(`wrote ${path.relative(process.cwd(), DOC)}`);
}

// ---------- main ----------

async function main() {
  if (!PGLITE) {
    log(`recreating database ${dbName}`);
    await admin(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
    await admin(`CREATE DATABASE "${dbName}"`);
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "ext-bench-stream-"));
  // jobs off, as a web-only node: queue polling does not share the two cores with the measurement
  const settings = loadSettings({ PORT: "0", DATA_DIR: dataDir, DATABASE_URL: DB_URL, BASE_URL: "http://localhost:4000", LOG_LEVEL: "error", JOBS_ENABLED: "false" });
  const server = await startServer(settings);
  const clients = new Clients();
  const sends = watchServerSends();
  const bus = watchBus(server.services.bus);
  try {
    const ctx = systemCtx(server.services);
    await createLocalAccount(ctx, { nickname: POSTER, email: "poster@example.test", password: POSTER_PASSWORD, admin: false, moderator: false });
    const appRes = await fetch(`${server.url}/api/v1/apps`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ client_name: "bench", redirect_uris: "urn:ietf:wg:oauth:2.0:oob", scopes: "read write" }),
    });
    const app = (await appRes.json()) as { client_id: string; client_secret: string };
    const tokenRes = await fetch(`${server.url}/oauth/token`, {
      method: "POST",
      body: new URLSearchParams({ grant_type: "password", client_id: app.client_id, client_secret: app.client_secret, username: POSTER, password: POSTER_PASSWORD, scope: "read write" }),
    });
    if (tokenRes.status !== 200) throw new Error(`token: ${tokenRes.status} ${await tokenRes.text()}`);
    const posterToken = ((await tokenRes.json()) as { access_token: string }).access_token;

    // the readers without passwords (they only stream), each with a token issued as the OAuth grants issue them
    const readerTokens: string[] = [];
    if (READERS > 0) {
      log(`creating ${READERS} reader accounts and tokens`);
      const readers = Array.from({ length: READERS }, (_, i) => ({ id: newId(), nickname: `reader${i}`, email: `reader${i}@example.test`, apId: localApId(ctx, `reader${i}`) }));
      // in slices: a createMany of thousands of rows becomes a chunked transaction that pg warns about
      for (let i = 0; i < readers.length; i += 500) await server.services.db.account.createMany({ data: readers.slice(i, i + 500) });
      const oauthApp = await server.services.db.oAuthApp.findFirstOrThrow({ where: { clientId: app.client_id } });
      const accounts = await server.services.db.account.findMany({ where: { id: { in: readers.map((r) => r.id) } } });
      for (const account of accounts) readerTokens.push((await issueToken(ctx, oauthApp, account, ["read"])).accessToken);
    }
    const tokens = Array.from({ length: CLIENTS }, (_, i) => (READERS > 0 ? readerTokens[i % READERS]! : null));

    const post = async (status: string) => {
      const sent = now();
      const res = await fetch(`${server.url}/api/v1/statuses`, {
        method: "POST",
        headers: { authorization: `Bearer ${posterToken}`, "content-type": "application/json" },
        body: JSON.stringify({ status, visibility: "public" }),
      });
      const body = (await res.json()) as { id: string };
      if (res.status !== 200) throw new Error(`post: ${res.status} ${JSON.stringify(body)}`);
      return { id: body.id, sent, response: now() - sent };
    };
    const countStatements = () => {
      let count = 0;
      const stop = server.database.onQuery((sql) => void (/\bjobs\b/.test(sql) || count++));
      return () => (stop(), count);
    };
    // compiles the code paths and fills the caches before anything is measured
    await post("warming up before the clients connect");
    // nobody streams yet, so the hub returns at once: these are the POST's own statements
    const stopPostCount = countStatements();
    await post("counting the statements of a POST alone");
    const postStatements = stopPostCount();

    const clock = await clients.clockOffset();
    log(`client clock offset ${f1(clock.offset)} ms (round trip ${f1(clock.roundTrip)} ms)`);
    const before = await memory();
    log(`opening ${CLIENTS} clients`);
    const wsUrl = `${server.url.replace(/^http/, "ws")}/api/v1/streaming?stream=public`;
    const connect = await clients.ask<{ opened: number; failed: number; errors: string[]; ms: number }>({ type: "open", url: wsUrl, tokens, concurrency: CONNECT_CONCURRENCY }, "opened");
    if (connect.failed) log(`${connect.failed} clients failed to connect: ${connect.errors.join("; ")}`);
    // the query's stream is registered with the hub before the upgrade is answered: open = subscribed
    const stats = streamHub(server.services).stats();
    log(`${connect.opened} open in ${f1(connect.ms / 1000)} s; the hub counts ${stats.listeners} listeners, ${stats.subscriptions} subscriptions`);
    if (stats.subscriptions < connect.opened) throw new Error("not every open client is subscribed");
    const after = await memory();
    log(`idle memory per connection: RSS ${f1(kib((after.rss - before.rss) / connect.opened))} KiB, heap ${f1(kib((after.heapUsed - before.heapUsed) / connect.opened))} KiB`);

    for (let i = 0; i < WARMUP_POSTS; i++) {
      await post(`warm-up ${i + 1} of the streaming benchmark #bench`);
      await sleep(INTERVAL_MS);
    }
    const loadBefore = os.loadavg()[0]!.toFixed(1);
    const profiler = env.BENCH_PROFILE ? new Session() : null;
    if (profiler) {
      profiler.connect();
      await profiler.post("Profiler.enable");
      await profiler.post("Profiler.start");
    }
    const stopCount = countStatements();
    const cpuBefore = process.cpuUsage();
    const trace = env.BENCH_TRACE_SQL ? traceStatements(server.database.prisma) : null;
    const sent: { id: string; sent: number; response: number }[] = [];
    const cadence = now();
    for (let i = 0; i < POSTS; i++) {
      // a fixed cadence: a slow fan-out gets no extra time before the next post
      const due = cadence + i * INTERVAL_MS;
      if (due > now()) await sleep(due - now());
      const p = await post(`Benchmark status ${i + 1} of ${POSTS}: a public post fanned out to every streaming client. #bench`);
      sent.push(p);
      log(`post ${i + 1}/${POSTS}: answered in ${f1(p.response)} ms`);
    }
    // every update arrives, or nothing more comes for 10 s
    const expected = (WARMUP_POSTS + POSTS) * connect.opened;
    let seen = -1;
    let quietSince = now();
    for (;;) {
      const { updates } = await clients.ask<{ updates: number }>({ type: "count" });
      if (updates >= expected) break;
      if (updates !== seen) [seen, quietSince] = [updates, now()];
      else if (now() - quietSince > 10_000) {
        log(`stopped waiting: ${updates} of ${expected} updates arrived`);
        break;
      }
      await sleep(200);
    }
    const withFanout = stopCount() / POSTS;
    trace?.stop();
    const cpu = process.cpuUsage(cpuBefore);
    if (profiler) {
      const { profile } = await profiler.post("Profiler.stop");
      fs.writeFileSync(env.BENCH_PROFILE!, JSON.stringify(profile));
      profiler.disconnect();
      log(`wrote the CPU profile to ${env.BENCH_PROFILE}`);
    }
    const afterPosts = await memory();

    const { received } = await clients.ask<{ received: Record<string, number[]> }>({ type: "results" });
    let missed = 0;
    let duplicates = 0;
    let frameBytes = 0;
    const posts: PostRecord[] = sent.map((p) => {
      const times = received[p.id] ?? [];
      missed += Math.max(0, connect.opened - times.length);
      duplicates += Math.max(0, times.length - connect.opened);
      const s = sends.sends.get(p.id);
      frameBytes = s?.bytes ?? frameBytes;
      return {
        id: p.id,
        sent: p.sent,
        response: p.response,
        published: (bus.published.get(p.id) ?? NaN) - p.sent,
        firstFrame: (s?.first ?? NaN) - p.sent,
        lastFrame: (s?.last ?? NaN) - p.sent,
        // child clock → ours
        arrivals: times.map((t) => t - clock.offset - p.sent),
        pings: 0,
      };
    });

    for (const p of posts) {
      const end = p.sent + Math.max(p.lastFrame, ...p.arrivals);
      p.pings = sends.pings.filter((t) => t >= p.sent && t <= end).length;
    }
    if (trace) printTrace(trace.statements, posts[posts.length - 1]!);
    const section = report({
      loadBefore,
      connect,
      clock,
      idle: { before, after },
      afterPosts,
      posts,
      missed,
      duplicates,
      frameBytes,
      statements: { post: postStatements, withFanout },
      cpuMs: { user: cpu.user / 1000 / POSTS, system: cpu.system / 1000 / POSTS },
    });
    process.stdout.write(section + "\n");
    if (args.has("--write")) writeDoc(section);
    await clients.ask({ type: "close" }, "closed").catch(() => undefined);
  } finally {
    sends.restore();
    await bus.stop();
    clients.kill();
    await server.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (!PGLITE) {
      await admin(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
      log(`dropped ${dbName}`);
    }
  }
}

await main();
