// `npm run bench:soak`: a soak run (not a timed test). Starts the real server as its own process on a fresh
// PostgreSQL database, then drives a steady rate of mixed reads and writes for a fixed time (open loop:
// requests start on schedule whatever the answers take), sampling the server process's memory. Reports
// errors (goal 0), memory over time (goal: flat after warm-up) and latency percentiles.
//
//   npm run bench:soak                         10 minutes at 20 requests/s
//   npm run bench:soak -- --minutes 2 --rps 10  a shorter run
//   npm run bench:soak -- --write              also rewrites the soak section of docs/performance.md
// Env: SOAK_DATABASE_URL (postgresql://postgres@127.0.0.1:5432/bench_soak; dropped and recreated).
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { ascending, percentile as pct } from "./stats.ts";

const argv = process.argv.slice(2);
const opt = (name: string, fallback: number) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? Number(argv[i + 1]) : fallback;
};
const MINUTES = opt("minutes", 10);
const RPS = opt("rps", 20);
const USERS = opt("users", 20);
const MAX_IN_FLIGHT = 64;
const WRITE = argv.includes("--write");
const DB_URL = process.env.SOAK_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/bench_soak";
const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");
const DOC = path.join(ROOT, "docs/performance.md");
const START = "<!-- soak:results:start -->";
const END = "<!-- soak:results:end -->";
const ADMIN_TOKEN = `soak-${process.pid}`;
const PNG = fs.readFileSync(path.join(ROOT, "src/media/assets/avi.png"));
const log = (m: string) => process.stderr.write(`[soak] ${m}\n`);

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

async function startServer(dataDir: string) {
  const { BASE_URL: _b, ...inherited } = process.env;
  const env = { ...inherited, PORT: "0", HOST: "127.0.0.1", BASE_URL: "http://localhost:4000", DATA_DIR: dataDir, DATABASE_URL: DB_URL, ADMIN_TOKEN, LOG_LEVEL: "warn", RATE_LIMITS_ENABLED: "false" };
  const child = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "src/main.ts")], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  for (let i = 0; i < 900; i++) {
    if (child.exitCode !== null) throw new Error(`server exited:\n${output}`);
    try {
      return { child, url: JSON.parse(fs.readFileSync(path.join(dataDir, "server.json"), "utf8")).url as string, output: () => output };
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`server did not start:\n${output}`);
}

const rssMb = (pid: number) => {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
  return m ? Number(m[1]) / 1024 : NaN;
};

async function main() {
  await admin(`DROP DATABASE IF EXISTS "${new URL(DB_URL).pathname.slice(1)}" WITH (FORCE)`);
  await admin(`CREATE DATABASE "${new URL(DB_URL).pathname.slice(1)}"`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "soak-"));
  const server = await startServer(dataDir);
  log(`server pid ${server.child.pid} at ${server.url}; ${MINUTES} min at ${RPS} req/s, ${USERS} users`);
  const json = { "content-type": "application/json" };
  const call = (p: string, init: RequestInit = {}) => fetch(server.url + p, init);

  // set-up: users, tokens, a follow graph, a few statuses each
  const names = Array.from({ length: USERS }, (_, i) => `soak${i}`);
  const created = await call("/api/v1/ext/admin/users", { method: "POST", headers: { ...json, "x-admin-token": ADMIN_TOKEN }, body: JSON.stringify({ users: names.map((n) => ({ nickname: n, email: `${n}@example.test`, password: "soak-password" })) }) });
  if (created.status !== 200) throw new Error(`users: ${created.status} ${await created.text()}`);
  const app = await (await call("/api/v1/apps", { method: "POST", headers: json, body: JSON.stringify({ client_name: "soak", redirect_uris: "urn:ietf:wg:oauth:2.0:oob", scopes: "read write follow" }) })).json();
  const users: { id: string; auth: Record<string, string> }[] = [];
  for (const n of names) {
    const token = await (await call("/oauth/token", { method: "POST", body: new URLSearchParams({ grant_type: "password", client_id: app.client_id, client_secret: app.client_secret, username: n, password: "soak-password", scope: "read write follow" }) })).json();
    const auth = { authorization: `Bearer ${token.access_token}` };
    users.push({ id: (await (await call("/api/v1/accounts/verify_credentials", { headers: auth })).json()).id, auth });
  }
  const statusIds: string[] = [];
  for (const [i, u] of users.entries()) {
    for (let k = 1; k <= 5; k++) await call(`/api/v1/accounts/${users[(i + k) % USERS].id}/follow`, { method: "POST", headers: u.auth });
    const s = await (await call("/api/v1/statuses", { method: "POST", headers: { ...u.auth, ...json }, body: JSON.stringify({ status: `hello from ${names[i]} #soak` }) })).json();
    statusIds.push(s.id);
  }

  // the mix: [weight, name, request]
  const pick = <T>(a: T[]) => a[Math.floor(Math.random() * a.length)];
  const MIX: [number, string, () => Promise<Response>][] = [
    [25, "home timeline", () => call("/api/v1/timelines/home?limit=20", { headers: pick(users).auth })],
    [10, "public timeline", () => call("/api/v1/timelines/public?limit=20")],
    [10, "status", () => call(`/api/v1/statuses/${pick(statusIds)}`, { headers: pick(users).auth })],
    [8, "notifications", () => call("/api/v1/notifications?limit=20", { headers: pick(users).auth })],
    [5, "account statuses", () => call(`/api/v1/accounts/${pick(users).id}/statuses?limit=20`)],
    [4, "hashtag timeline", () => call("/api/v1/timelines/tag/soak?limit=20")],
    [3, "graphql", () => call("/graphql", { method: "POST", headers: { ...pick(users).auth, ...json }, body: JSON.stringify({ query: "{ __typename }" }) })],
    [15, "post", async () => {
      const res = await call("/api/v1/statuses", { method: "POST", headers: { ...pick(users).auth, ...json }, body: JSON.stringify({ status: `soak ${Date.now()} #soak @${pick(names)}` }) });
      if (res.ok) {
        const s = await res.clone().json();
        statusIds.push(s.id);
        if (statusIds.length > 5000) statusIds.splice(0, 1000);
      }
      return res;
    }],
    [8, "favourite", () => call(`/api/v1/statuses/${pick(statusIds)}/favourite`, { method: "POST", headers: pick(users).auth })],
    [4, "reply", () => call("/api/v1/statuses", { method: "POST", headers: { ...pick(users).auth, ...json }, body: JSON.stringify({ status: "a reply", in_reply_to_id: pick(statusIds) }) })],
    [4, "follow/unfollow", () => {
      const i = Math.floor(Math.random() * USERS);
      const j = (i + 1 + Math.floor(Math.random() * (USERS - 1))) % USERS; // never oneself
      return call(`/api/v1/accounts/${users[j].id}/${Math.random() < 0.5 ? "follow" : "unfollow"}`, { method: "POST", headers: users[i].auth });
    }],
    [2, "media upload", () => {
      const form = new FormData();
      form.append("file", new Blob([new Uint8Array(PNG)], { type: "image/png" }), "soak.png");
      return call("/api/v1/media", { method: "POST", headers: pick(users).auth, body: form });
    }],
    [2, "healthcheck", () => call("/api/v1/ext/healthcheck")],
  ];
  const total = MIX.reduce((n, [w]) => n + w, 0);
  const choose = () => {
    let r = Math.random() * total;
    for (const m of MIX) if ((r -= m[0]) < 0) return m;
    return MIX[0];
  };

  const latencies = new Map<string, number[]>();
  const errors = new Map<string, number>();
  const memory: { minute: number; rssMb: number }[] = [];
  let sent = 0;
  let skipped = 0;
  let inFlight = 0;
  const started = Date.now();
  const end = started + MINUTES * 60_000;
  const sampler = setInterval(() => memory.push({ minute: (Date.now() - started) / 60_000, rssMb: rssMb(server.child.pid!) }), 10_000);
  memory.push({ minute: 0, rssMb: rssMb(server.child.pid!) });
  await new Promise<void>((resolve) => {
    const tick = setInterval(() => {
      if (Date.now() >= end) {
        clearInterval(tick);
        const wait = setInterval(() => inFlight === 0 && (clearInterval(wait), resolve()), 50);
        return;
      }
      if (inFlight >= MAX_IN_FLIGHT) return void skipped++;
      const [, name, run] = choose();
      const t0 = performance.now();
      inFlight++;
      sent++;
      run()
        .then(async (res) => {
          await res.arrayBuffer();
          if (res.status >= 400) errors.set(`${name}: ${res.status}`, (errors.get(`${name}: ${res.status}`) ?? 0) + 1);
        })
        .catch((e) => errors.set(`${name}: ${e.cause?.code ?? e.message}`, (errors.get(`${name}: ${e.cause?.code ?? e.message}`) ?? 0) + 1))
        .finally(() => {
          inFlight--;
          const list = latencies.get(name) ?? [];
          list.push(performance.now() - t0);
          latencies.set(name, list);
        });
    }, 1000 / RPS);
    const progress = setInterval(() => (Date.now() >= end ? clearInterval(progress) : log(`${((Date.now() - started) / 60_000).toFixed(1)} min, ${sent} sent, ${[...errors.values()].reduce((a, b) => a + b, 0)} errors, rss ${rssMb(server.child.pid!).toFixed(0)} MB`)), 60_000);
  });
  clearInterval(sampler);
  memory.push({ minute: (Date.now() - started) / 60_000, rssMb: rssMb(server.child.pid!) });
  server.child.kill("SIGTERM");
  await new Promise((r) => server.child.once("exit", r));
  fs.rmSync(dataDir, { recursive: true, force: true });
  await admin(`DROP DATABASE IF EXISTS "${new URL(DB_URL).pathname.slice(1)}" WITH (FORCE)`);

  // the report
  const all = ascending([...latencies.values()].flat());
  const errorCount = [...errors.values()].reduce((a, b) => a + b, 0);
  const perMinute = new Map<number, number[]>();
  for (const m of memory) {
    const k = Math.min(MINUTES - 1, Math.floor(m.minute));
    perMinute.set(k, [...(perMinute.get(k) ?? []), m.rssMb]);
  }
  const lines = [
    `Soak run of ${new Date().toISOString().slice(0, 10)}: ${MINUTES} min at ${RPS} requests/s (open loop, at most ${MAX_IN_FLIGHT} in flight), ${USERS} users, PostgreSQL, the server as its own process, on ${os.cpus().length} cores shared with other work.`,
    "",
    `- requests: ${sent} sent, ${skipped} not sent because ${MAX_IN_FLIGHT} were in flight; **errors: ${errorCount}**${errorCount ? ` (${[...errors].map(([k, n]) => `${k} × ${n}`).join(", ")})` : ""}`,
    `- latency, all requests: p50 ${pct(all, 50).toFixed(1)} ms, p95 ${pct(all, 95).toFixed(1)} ms, **p99 ${pct(all, 99).toFixed(1)} ms**, max ${all.at(-1)?.toFixed(0)} ms`,
    "",
    "| request | share | count | p50 ms | p99 ms |",
    "|---|---|---|---|---|",
    ...MIX.map(([w, name]) => {
      const l = ascending(latencies.get(name) ?? []);
      return `| ${name} | ${Math.round((100 * w) / total)} % | ${l.length} | ${pct(l, 50).toFixed(1)} | ${pct(l, 99).toFixed(1)} |`;
    }),
    "",
    "Server RSS by minute (mean of the 10-second samples):",
    "",
    "| minute | " + [...perMinute.keys()].map((k) => String(k + 1)).join(" | ") + " |",
    "|---|" + [...perMinute.keys()].map(() => "---").join("|") + "|",
    "| RSS MB | " + [...perMinute.values()].map((v) => (v.reduce((a, b) => a + b, 0) / v.length).toFixed(0)).join(" | ") + " |",
  ];
  const report = lines.join("\n");
  console.log(report);
  // what the server logged (warnings and errors), distinct lines, to explain any error above
  const logged = [...new Set(server.output().split("\n").filter((l) => l.trim()).map((l) => l.slice(0, 300)))];
  if (logged.length) log(`server output (${logged.length} distinct lines):\n${logged.slice(0, 40).join("\n")}`);
  if (WRITE) {
    const doc = fs.readFileSync(DOC, "utf8");
    const section = `${START}\n${report}\n${END}`;
    fs.writeFileSync(DOC, doc.includes(START) ? doc.replace(new RegExp(`${START}[\\s\\S]*?${END}`), section) : `${doc.trimEnd()}\n\n## Soak\n\n\`npm run bench:soak\` (\`scripts/bench/soak.ts\`): ${"mixed reads and writes at a steady rate; goals: no errors, memory flat after warm-up."}\n\n${section}\n`);
    log("docs/performance.md updated");
  }
  if (errorCount) process.exitCode = 1;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
