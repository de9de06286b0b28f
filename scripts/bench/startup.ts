// `npm run bench:startup`: start-up time and idle memory of the built server (what `npm start` runs),
// on PGlite and on PostgreSQL, with the migrations up to date.
//
//   - cold start to ready: from spawning the process to its first successful HTTP answer
//     (GET /api/v1/instance), the median of --runs starts of `node dist/main.js` and of `npm start`
//     (npm and the build steps' "nothing changed" checks included), with the CPU time the server used;
//   - resident memory (RSS) right after start, after each of --rounds rounds of load (concurrent reads
//     of a few endpoints and some posts, --load seconds each) and after --idle seconds of quiet after
//     the last one; with the breakdown of scripts/bench/memory-probe.mjs (V8 heap, buffers outside it,
//     WebAssembly) and the live heap after a full collection, to tell growth from garbage not yet
//     collected.
//
//   npm run bench:startup                              3 runs, 3 rounds of 20 s, a minute idle
//   npm run bench:startup -- --runs 5 --db pglite      one database only
//   npm run bench:startup -- --write                   also rewrites the results in docs/performance.md
// Env: STARTUP_DATABASE_URL (postgresql://postgres@127.0.0.1:5432/bench_startup; dropped and recreated).
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";

const argv = process.argv.slice(2);
const opt = (name: string, fallback: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : fallback;
};
const RUNS = Number(opt("runs", "3"));
const ROUNDS = Number(opt("rounds", "3"));
const LOAD_S = Number(opt("load", "20"));
const IDLE_S = Number(opt("idle", "60"));
const CONCURRENCY = Number(opt("concurrency", "16"));
const DBS = opt("db", "pglite,postgres").split(",") as ("pglite" | "postgres")[];
const WRITE = argv.includes("--write");
const DB_URL = process.env.STARTUP_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/bench_startup";
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const DOC = path.join(ROOT, "docs/performance.md");
const START = "<!-- startup:results:start -->";
const END = "<!-- startup:results:end -->";
const ADMIN_TOKEN = `startup-${process.pid}`;
// the node flags `npm start` passes (package.json), so that `node dist/main.js` here runs as npm start does
const START_SCRIPT = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")).scripts.start as string;
const START_FLAGS = START_SCRIPT.split(/\s+/).filter((a) => a.startsWith("--"));
/** the environment `npm start` sets before node (its `NAME=${NAME:-default}` words), so `node dist/main.js` runs match it */
const START_ENV = Object.fromEntries([...START_SCRIPT.matchAll(/(?:^|\s)([A-Z_]+)=\$\{\1:-([^}\s]*)\}/g)].map((m) => [m[1], process.env[m[1]] ?? m[2]]));
const TICK_MS = 10; // /proc/<pid>/stat counts CPU time in clock ticks of 10 ms (USER_HZ = 100 on Linux)
const log = (m: string) => process.stderr.write(`[startup] ${m}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const mb = (bytes: number) => Math.round(bytes / 1048576);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
const load = () => os.loadavg().map((l) => l.toFixed(1)).join(" ");

async function adminSql(sql: string) {
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

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
    s.on("error", reject);
  });
}

/** The server's own process: `npm start` runs it under npm and sh, so its pid is found by command line. */
function serverPid(child: ChildProcess, dataDir: string): number | undefined {
  for (const pid of fs.readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
    try {
      const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8");
      const env = fs.readFileSync(`/proc/${pid}/environ`, "utf8");
      if (cmd.includes("dist/main.js") && env.includes(`DATA_DIR=${dataDir}\0`)) return Number(pid);
    } catch {
      // a process that ended meanwhile
    }
  }
  return child.pid;
}
const cpuMs = (pid: number) => {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS; // utime + stime
};
const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? NaN) / 1024;

interface Started {
  child: ChildProcess;
  pid: number;
  url: string;
  readyMs: number;
  cpuMs: number;
  output: () => string;
  probe: (gc?: boolean) => Promise<Record<string, number>>;
  stop: () => Promise<void>;
}

/** Starts the server (`npm start` or `node dist/main.js`) and resolves at its first successful answer. */
async function start(how: "npm" | "node", db: "pglite" | "postgres", dataDir: string): Promise<Started> {
  const port = await freePort();
  const probeFile = path.join(dataDir, `memory-${port}.jsonl`);
  const { BASE_URL: _b, ...inherited } = process.env;
  const env: NodeJS.ProcessEnv = {
    ...inherited,
    ...START_ENV,
    PORT: String(port),
    HOST: "127.0.0.1",
    BASE_URL: `http://localhost:${port}`,
    DATA_DIR: dataDir,
    ADMIN_TOKEN,
    LOG_LEVEL: "warn",
    RATE_LIMITS_ENABLED: "false",
    MEMORY_PROBE_FILE: probeFile,
  };
  if (db === "postgres") env.DATABASE_URL = DB_URL;
  else delete env.DATABASE_URL;
  const t0 = performance.now();
  const child =
    how === "npm"
      ? spawn("npm", ["start", "--silent"], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"], detached: true })
      : spawn(process.execPath, [...START_FLAGS, "--expose-gc", "--import", "./scripts/bench/memory-probe.mjs", "dist/main.js"], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output}`);
    if (performance.now() - t0 > 300_000) throw new Error(`no answer after 300 s:\n${output}`);
    const ok = await fetch(`${url}/api/v1/instance`).then((r) => r.ok, () => false);
    if (ok) break;
    await sleep(20);
  }
  const readyMs = performance.now() - t0;
  const pid = serverPid(child, dataDir)!;
  const exited = new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : child.once("exit", () => resolve())));
  return {
    child,
    pid,
    url,
    readyMs,
    cpuMs: cpuMs(pid),
    output: () => output,
    async probe(gc = false) {
      const before = fs.existsSync(probeFile) ? fs.readFileSync(probeFile, "utf8").length : 0;
      // the probe collects garbage first when `<file>.gc` exists
      if (gc) fs.writeFileSync(`${probeFile}.gc`, "");
      else fs.rmSync(`${probeFile}.gc`, { force: true });
      process.kill(pid, "SIGUSR2");
      for (let i = 0; i < 200; i++) {
        await sleep(50);
        const text = fs.existsSync(probeFile) ? fs.readFileSync(probeFile, "utf8") : "";
        if (text.length > before && text.endsWith("\n")) return JSON.parse(text.slice(before).trim().split("\n").at(-1)!);
      }
      throw new Error("the memory probe did not answer");
    },
    async stop() {
      if (how === "npm") process.kill(-child.pid!, "SIGTERM");
      else child.kill("SIGTERM");
      await exited;
    },
  };
}

/** Load: CONCURRENCY loops of reads over a few endpoints (and one post in ten) for LOAD_S seconds. */
async function loadRound(url: string, auth: Record<string, string>, accountId: string, statusIds: string[]) {
  const json = { "content-type": "application/json" };
  const pick = <T>(a: T[]) => a[Math.floor(Math.random() * a.length)];
  const requests: (() => Promise<Response>)[] = [
    () => fetch(`${url}/api/v1/timelines/public?limit=20`),
    () => fetch(`${url}/api/v1/timelines/home?limit=20`, { headers: auth }),
    () => fetch(`${url}/api/v1/statuses/${pick(statusIds)}`),
    () => fetch(`${url}/api/v1/accounts/${accountId}/statuses?limit=20`),
    () => fetch(`${url}/api/v1/instance`),
    () => fetch(`${url}/nodeinfo/2.1`),
    () => fetch(`${url}/users/bench`, { headers: { accept: "application/activity+json" } }),
    () => fetch(`${url}/graphql`, { method: "POST", headers: { ...auth, ...json }, body: JSON.stringify({ query: "{ __typename }" }) }),
    () => fetch(`${url}/api/v1/statuses`, { method: "POST", headers: { ...auth, ...json }, body: JSON.stringify({ status: `load ${Date.now()} #bench` }) }),
  ];
  const deadline = Date.now() + LOAD_S * 1000;
  let count = 0;
  let errors = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (Date.now() < deadline) {
        const res = await pick(requests)().catch(() => null);
        count++;
        if (!res || res.status >= 500) errors++;
        await res?.arrayBuffer().catch(() => {});
      }
    }),
  );
  return { count, errors };
}

interface DbResult {
  db: string;
  firstStartMs: number;
  node: { readyMs: number[]; cpuMs: number[] };
  npm: { readyMs: number[] };
  memory: { label: string; rss: number; heapUsed: number; heapTotal: number; external: number; liveHeap: number; requests?: number; errors?: number }[];
}

async function benchDb(db: "pglite" | "postgres"): Promise<DbResult> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `startup-${db}-`));
  if (db === "postgres") {
    const name = new URL(DB_URL).pathname.slice(1);
    await adminSql(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await adminSql(`CREATE DATABASE "${name}"`);
  }
  const result: DbResult = { db, firstStartMs: 0, node: { readyMs: [], cpuMs: [] }, npm: { readyMs: [] }, memory: [] };
  try {
    // through npm: its build steps do whatever they have to once (later starts measure their "nothing to do")
    log(`${db}: first start (builds what is stale, creates the database and applies every migration)`);
    const first = await start("npm", db, dataDir);
    result.firstStartMs = first.readyMs;
    await first.stop();
    for (let i = 0; i < RUNS; i++) {
      const npm = await start("npm", db, dataDir);
      result.npm.readyMs.push(npm.readyMs);
      await npm.stop();
      const s = await start("node", db, dataDir);
      result.node.readyMs.push(s.readyMs);
      result.node.cpuMs.push(s.cpuMs);
      log(`${db}: run ${i + 1}: npm start ${Math.round(npm.readyMs)} ms, node dist/main.js ${Math.round(s.readyMs)} ms (${s.cpuMs} ms CPU); load ${load()}`);
      if (i < RUNS - 1) await s.stop();
      else await memory(s, result);
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  return result;
}

async function memory(s: Started, result: DbResult) {
  // RSS and the heap as they are, then the live heap after a full collection (what the process holds:
  // the figure that tells growth from garbage not yet collected)
  const sample = async (label: string, extra: { requests?: number; errors?: number } = {}) => {
    const rss = rssMb(s.pid);
    const m = await s.probe();
    const live = await s.probe(true);
    result.memory.push({ label, rss, heapUsed: mb(m.heapUsed), heapTotal: mb(m.heapTotal), external: mb(m.external), liveHeap: mb(live.heapUsed), ...extra });
    log(`${result.db}: ${label}: RSS ${Math.round(rss)} MB (heap ${mb(m.heapUsed)}/${mb(m.heapTotal)} MB, live ${mb(live.heapUsed)} MB, external ${mb(m.external)} MB)`);
  };
  try {
    await sleep(5_000);
    await sample("after start (5 s)");
    // a user, a token and some statuses for the load to read
    const json = { "content-type": "application/json" };
    const made = await fetch(`${s.url}/api/v1/ext/admin/users`, { method: "POST", headers: { ...json, "x-admin-token": ADMIN_TOKEN }, body: JSON.stringify({ users: [{ nickname: "bench", email: "bench@example.test", password: "bench-password" }] }) });
    if (!made.ok) throw new Error(`user: ${made.status} ${await made.text()}`);
    const app = await (await fetch(`${s.url}/api/v1/apps`, { method: "POST", headers: json, body: JSON.stringify({ client_name: "startup", redirect_uris: "urn:ietf:wg:oauth:2.0:oob", scopes: "read write" }) })).json();
    const token = await (await fetch(`${s.url}/oauth/token`, { method: "POST", body: new URLSearchParams({ grant_type: "password", client_id: app.client_id, client_secret: app.client_secret, username: "bench", password: "bench-password", scope: "read write" }) })).json();
    const auth = { authorization: `Bearer ${token.access_token}` };
    const me = await (await fetch(`${s.url}/api/v1/accounts/verify_credentials`, { headers: auth })).json();
    const statusIds: string[] = [];
    for (let i = 0; i < 20; i++) statusIds.push((await (await fetch(`${s.url}/api/v1/statuses`, { method: "POST", headers: { ...auth, ...json }, body: JSON.stringify({ status: `status ${i} #bench` }) })).json()).id);
    for (let round = 1; round <= ROUNDS; round++) {
      const r = await loadRound(s.url, auth, me.id, statusIds);
      await sample(`after load round ${round} (${LOAD_S} s)`, { requests: r.count, errors: r.errors });
    }
    await sleep(IDLE_S * 1000);
    await sample(`after ${IDLE_S} s idle`);
  } finally {
    await s.stop();
  }
}

function report(results: DbResult[], loadBefore: string, loadAfter: string) {
  const lines: string[] = [];
  const when = new Date().toISOString().slice(0, 16).replace("T", " ");
  lines.push(
    `Run of ${when} UTC on ${os.cpus().length} cores (${os.cpus()[0]?.model ?? "?"}), Node ${process.version}, node flags \`${START_FLAGS.join(" ") || "none"}\`${Object.keys(START_ENV).length ? ` with ${Object.entries(START_ENV).map(([k, v]) => `${k}=${v}`).join(" ")}` : ""}, load average ${loadBefore} before and ${loadAfter} after (1, 5, 15 min; the machine is shared: wall times stretch with the load, CPU times much less). ${RUNS} cold starts per database; ${ROUNDS} load rounds of ${LOAD_S} s with ${CONCURRENCY} concurrent clients, then ${IDLE_S} s idle.`,
    "",
    "| database | first `npm start` (migrates) | `npm start` to ready (median) | `node dist/main.js` to ready (median) | CPU to ready (median) |",
    "|---|---|---|---|---|",
  );
  for (const r of results) {
    lines.push(`| ${r.db} | ${(r.firstStartMs / 1000).toFixed(1)} s | ${(median(r.npm.readyMs) / 1000).toFixed(1)} s (${r.npm.readyMs.map((x) => (x / 1000).toFixed(1)).join(", ")}) | ${(median(r.node.readyMs) / 1000).toFixed(1)} s (${r.node.readyMs.map((x) => (x / 1000).toFixed(1)).join(", ")}) | ${(median(r.node.cpuMs) / 1000).toFixed(2)} s |`);
  }
  lines.push("", "| database | moment | RSS | V8 heap used / total | live heap (after a full GC) | external (PGlite's WebAssembly memory on PGlite) | requests (5xx) |", "|---|---|---|---|---|---|---|");
  for (const r of results) {
    for (const m of r.memory) lines.push(`| ${r.db} | ${m.label} | ${Math.round(m.rss)} MB | ${m.heapUsed} / ${m.heapTotal} MB | ${m.liveHeap} MB | ${m.external} MB | ${m.requests === undefined ? "" : `${m.requests} (${m.errors})`} |`);
    const rounds = r.memory.filter((m) => m.label.startsWith("after load round"));
    if (rounds.length >= 2) lines.push(`| ${r.db} | growth from round 1 to round ${rounds.length} | ${Math.round(rounds.at(-1)!.rss - rounds[0].rss)} MB | ${rounds.at(-1)!.heapUsed - rounds[0].heapUsed} MB | **${rounds.at(-1)!.liveHeap - rounds[0].liveHeap} MB** | | |`);
  }
  return lines.join("\n");
}

async function main() {
  if (!fs.existsSync(path.join(ROOT, "dist/main.js"))) throw new Error("dist/main.js is missing: npm run bench:startup builds it");
  const loadBefore = load();
  const results: DbResult[] = [];
  for (const db of DBS) results.push(await benchDb(db));
  const text = report(results, loadBefore, load());
  console.log(text);
  if (WRITE) {
    const doc = fs.readFileSync(DOC, "utf8");
    const a = doc.indexOf(START);
    const b = doc.indexOf(END);
    if (a < 0 || b < 0) throw new Error(`${DOC} has no ${START} … ${END} section`);
    fs.writeFileSync(DOC, `${doc.slice(0, a + START.length)}\n${text}\n${doc.slice(b)}`);
    log(`wrote ${path.relative(ROOT, DOC)}`);
  }
}

await main();
