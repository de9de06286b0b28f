// Paired comparison of two builds of the server on the database `npm run bench:http -- --quick --keep` left
// (bench_http_quick): both run at once, and bursts of load (16 connections, 3 s) alternate between them, row by row,
// so that this shared host's drifting speed weighs on both alike. Prints, per row and build, the medians of the
// server's and PostgreSQL's CPU per request (/proc), req/s and p99, and each round's server CPU.
//   node scripts/bench/paired.mjs <dist A> <dist B> <rounds> <row>...   rows: home public tag notifications account verify context graphql
// A build is a copy of `dist/` kept inside the repository (so that its packages resolve): for instance
//   git stash; node scripts/build-server.mjs --force; cp -r dist .tmp/dist-before; git stash pop; node scripts/build-server.mjs --force
//   node scripts/bench/paired.mjs .tmp/dist-before dist 4 home notifications
import { spawn } from "node:child_process";
import fs from "node:fs";
import autocannon from "autocannon";
import pg from "pg";
const [distA, distB, roundsArg, ...rowNames] = process.argv.slice(2);
const rounds = Number(roundsArg);
const DB = "postgresql://postgres@127.0.0.1:5432/bench_http_quick";
const ticks = (pid) => { const f = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" "); return Number(f[11]) + Number(f[12]); };
const pgc = new pg.Client(DB); await pgc.connect();
const pgTicks = async () => { const { rows } = await pgc.query("SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"); let t = 0; for (const r of rows) { try { t += ticks(r.pid); } catch {} } return t; };
function start(dist, port) {
  const child = spawn("node", ["--max-semi-space-size=4", `${dist}/main.js`], { env: { ...process.env, DATA_DIR: "/tmp/ext-bench-http-quick", DATABASE_URL: DB, BASE_URL: "http://localhost:4000", RATE_LIMITS_ENABLED: "false", LOG_LEVEL: "warn", PORT: String(port), GLIBC_TUNABLES: "glibc.malloc.trim_threshold=2097152" }, stdio: ["ignore", "ignore", "inherit"] });
  return { child, url: `http://127.0.0.1:${port}`, dist };
}
const servers = [start(distA, 4101), start(distB, 4102)];
for (const s of servers) for (;;) { if (await fetch(`${s.url}/api/v1/instance`).then((r) => r.ok, () => false)) break; await new Promise((r) => setTimeout(r, 200)); }
const app = await (await fetch(`${servers[0].url}/api/v1/apps`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ client_name: "ab", redirect_uris: "urn:ietf:wg:oauth:2.0:oob", scopes: "read write follow" }) })).json();
const tok = (await (await fetch(`${servers[0].url}/oauth/token`, { method: "POST", body: new URLSearchParams({ grant_type: "password", client_id: app.client_id, client_secret: app.client_secret, username: "bench", password: "bench-password", scope: "read write follow" }) })).json()).access_token;
const H = { authorization: `Bearer ${tok}` };
const gq = fs.readFileSync("scripts/bench/http.ts", "utf8").match(/const GRAPHQL_HOME = `([^`]*)`/)[1];
const someAccount = (await pgc.query("SELECT id FROM accounts WHERE nickname = 'user1'")).rows[0]?.id;
const someReply = (await pgc.query("SELECT id FROM statuses WHERE in_reply_to_id IS NOT NULL AND visibility = 'public' AND reblog_of_id IS NULL ORDER BY id DESC LIMIT 1")).rows[0]?.id;
const ROWS = {
  home: { path: "/api/v1/timelines/home" },
  public: { path: "/api/v1/timelines/public" },
  tag: { path: "/api/v1/timelines/tag/tag3" },
  notifications: { path: "/api/v1/notifications" },
  account: { path: `/api/v1/accounts/${someAccount}/statuses` },
  verify: { path: "/api/v1/accounts/verify_credentials" },
  context: { path: `/api/v1/statuses/${someReply}/context` },
  graphql: { path: "/graphql", method: "POST", body: JSON.stringify({ query: gq }), headers: { ...H, "content-type": "application/json" } },
};
const res = {};
const burst = async (s, name, secs) => {
  const k = ROWS[name];
  const [c0, p0] = [ticks(s.child.pid), await pgTicks()];
  const r = await autocannon({ url: s.url + k.path, method: k.method ?? "GET", body: k.body, headers: k.headers ?? H, connections: 16, duration: secs });
  const [c1, p1] = [ticks(s.child.pid), await pgTicks()];
  const n = r.requests.total;
  if (r.non2xx || r.errors) console.error(name, s.dist, "non2xx", r.non2xx, "errors", r.errors);
  return { rps: r.requests.average, srv: ((c1 - c0) * 10) / n, pg: ((p1 - p0) * 10) / n, p99: r.latency.p99 };
};
for (const s of servers) for (const name of rowNames) await burst(s, name, 1); // warm-up
for (let i = 0; i < rounds; i++) {
  const order = i % 2 ? [servers[1], servers[0]] : servers;
  for (const name of rowNames) for (const s of order) {
    const m = await burst(s, name, 3);
    ((res[name] ??= {})[s.dist] ??= []).push(m);
  }
}
const med = (xs) => { const a = [...xs].sort((x, y) => x - y); return a[Math.floor(a.length / 2)]; };
for (const name of rowNames) {
  const line = servers.map((s) => { const ms = res[name][s.dist]; return `${s.dist.split("/").pop()}: srv ${med(ms.map((m) => m.srv)).toFixed(2)} pg ${med(ms.map((m) => m.pg)).toFixed(2)} req/s ${med(ms.map((m) => m.rps)).toFixed(0)} p99 ${med(ms.map((m) => m.p99))}  [srv ${ms.map((m) => m.srv.toFixed(2)).join(" ")}]`; });
  console.log(name.padEnd(14), line.join("  |  "));
}
for (const s of servers) s.child.kill();
await pgc.end();
process.exit(0);
