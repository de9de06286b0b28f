// `npm run bench`: the reading side on a large PostgreSQL database (issue 5, speed).
// Creates (drops and recreates) a database, starts the real server in-process against it, seeds it with SQL,
// then measures timelines and notifications over HTTP: latency percentiles, requests per second, SQL statements
// per request, and EXPLAIN (ANALYZE, BUFFERS) of every statement one request sends.
//
//   npm run bench                          10,000 accounts, 1,000,000 statuses (a few minutes of seeding)
//   BENCH_STATUSES=20000 npm run bench     a quick smoke run
//   npm run bench -- --write               also rewrites the results section of docs/performance.md
//   npm run bench -- --keep / --reuse      keep the database afterwards / measure an already seeded one
// Env: BENCH_DATABASE_URL (postgresql://postgres@127.0.0.1:5432/bench_reading), BENCH_ACCOUNTS, BENCH_STATUSES,
// BENCH_FOLLOWING, BENCH_NOTIFICATIONS, BENCH_OTHER_NOTIFICATIONS, BENCH_FAVOURITES, BENCH_EXTRAS (docs/performance.md),
// BENCH_REQUESTS (200), BENCH_WARMUP (20), BENCH_CONCURRENCY (4),
// BENCH_BUDGET (60: seconds per phase of a row; slower rows measure fewer requests, the table says how many).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { loadSettings } from "../../src/config/env.ts";
import { createLocalAccount } from "../../src/domain/accounts/accounts.ops.ts";
import { systemCtx } from "../../src/domain/context.ts";
import { startServer, type RunningServer } from "../../src/server.ts";
import { seed, type SeedSizes } from "./seed.ts";
import { percentile } from "./stats.ts";

const args = new Set(process.argv.slice(2));
const env = process.env;
const num = (name: string, fallback: number) => (env[name] ? Number(env[name]) : fallback);
const DB_URL = env.BENCH_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/bench_reading";
const sizes: SeedSizes = {
  accounts: num("BENCH_ACCOUNTS", 10_000),
  statuses: num("BENCH_STATUSES", 1_000_000),
  following: num("BENCH_FOLLOWING", 1_000),
  followsEach: 20,
  notifications: num("BENCH_NOTIFICATIONS", 50_000),
  otherNotifications: num("BENCH_OTHER_NOTIFICATIONS", 450_000),
  favourites: num("BENCH_FAVOURITES", 200_000),
  extras: num("BENCH_EXTRAS", 50_000),
};
const REQUESTS = num("BENCH_REQUESTS", 200);
const WARMUP = num("BENCH_WARMUP", 20);
const CONCURRENCY = num("BENCH_CONCURRENCY", 4);
/** seconds each phase of a row may take: a pathologically slow request type must not hold the run for an hour */
const BUDGET = num("BENCH_BUDGET", 60);
const BENCH_USER = "bench";
const BENCH_PASSWORD = "bench-password";
const DOC = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../../docs/performance.md");
const START = "<!-- bench:results:start -->";
const END = "<!-- bench:results:end -->";

const log = (message: string) => process.stderr.write(`[bench] ${message}\n`);
const dbName = new URL(DB_URL).pathname.slice(1);
const adminUrl = (() => {
  const u = new URL(DB_URL);
  u.pathname = "/postgres";
  return u.toString();
})();

async function withClient<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

async function alreadySeeded(): Promise<boolean> {
  const exists = await withClient(adminUrl, async (c) => (await c.query("SELECT 1 FROM pg_database WHERE datname = $1", [dbName])).rowCount === 1);
  if (!exists) return false;
  return withClient(DB_URL, async (c) => {
    const r = await c.query("SELECT to_regclass('public.statuses') IS NOT NULL AS ok").catch(() => ({ rows: [{ ok: false }] }));
    if (!r.rows[0].ok) return false;
    return (await c.query("SELECT 1 FROM accounts WHERE nickname = $1", [BENCH_USER])).rowCount === 1;
  });
}

async function recreateDatabase() {
  await withClient(adminUrl, async (c) => {
    await c.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
    await c.query(`CREATE DATABASE "${dbName}"`);
  });
}

// ---------- measuring ----------

interface Captured {
  sql: string;
  params: unknown[];
}

/** Counts (and, when asked, records) the SQL statements the server sends; job-queue polling is left out as in the tests. */
function instrument(server: RunningServer) {
  let count = 0;
  let capture: Captured[] | null = null;
  server.database.onQuery((sql) => void (/\bjobs\b/.test(sql) || count++));
  (server.database.prisma as unknown as { $on(e: "query", cb: (e: { query: string; params: string }) => void): void }).$on("query", (e) => {
    if (!capture || /\bjobs\b/.test(e.query)) return;
    let params: unknown[] = [];
    try {
      params = JSON.parse(e.params);
    } catch {
      /* statements without parameters */
    }
    capture.push({ sql: e.query, params });
  });
  return {
    count: () => count,
    async capture(fn: () => Promise<unknown>): Promise<Captured[]> {
      capture = [];
      try {
        await fn();
        return capture;
      } finally {
        capture = null;
      }
    },
  };
}

interface Scenario {
  name: string;
  path: string;
  /** EXPLAIN its statements in the report */
  explain?: boolean;
}

interface Result {
  scenario: Scenario;
  p50: number;
  p95: number;
  p99: number;
  mean: number;
  rpsSequential: number;
  rpsConcurrent: number;
  /** sequential requests measured (fewer than REQUESTS when the budget ran out) */
  requests: number;
  queries: { min: number; max: number };
  items: number;
}


async function measure(url: string, token: string, scenario: Scenario, counter: ReturnType<typeof instrument>): Promise<Result> {
  const get = async () => {
    const res = await fetch(url + scenario.path, { headers: { authorization: `Bearer ${token}` } });
    const body = await res.text();
    if (res.status !== 200) throw new Error(`${scenario.path}: ${res.status} ${body.slice(0, 300)}`);
    return body;
  };
  const deadline = (seconds: number) => {
    const end = performance.now() + seconds * 1000;
    return () => performance.now() > end;
  };
  const warmupOver = deadline(BUDGET / 4);
  for (let i = 0; i < WARMUP && !warmupOver(); i++) await get();
  const times: number[] = [];
  const queries: number[] = [];
  let items = 0;
  const started = performance.now();
  const sequentialOver = deadline(BUDGET);
  for (let i = 0; i < REQUESTS && (i < 5 || !sequentialOver()); i++) {
    const before = counter.count();
    const t = performance.now();
    const body = await get();
    times.push(performance.now() - t);
    queries.push(counter.count() - before);
    items = (JSON.parse(body) as unknown[]).length;
  }
  const sequentialSeconds = (performance.now() - started) / 1000;
  let sent = 0;
  let done = 0;
  const concurrentStart = performance.now();
  const concurrentOver = deadline(BUDGET);
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (sent < REQUESTS && (sent < CONCURRENCY || !concurrentOver())) {
        sent++;
        await get();
        done++;
      }
    }),
  );
  const concurrentSeconds = (performance.now() - concurrentStart) / 1000;
  times.sort((a, b) => a - b);
  return {
    scenario,
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    p99: percentile(times, 99),
    mean: times.reduce((a, b) => a + b, 0) / times.length,
    rpsSequential: times.length / sequentialSeconds,
    rpsConcurrent: done / concurrentSeconds,
    requests: times.length,
    queries: { min: Math.min(...queries), max: Math.max(...queries) },
    items,
  };
}

/** Follows `Link: <…max_id=…>; rel="next"` `pages - 1` times and returns that max_id. */
async function cursorAfter(url: string, token: string, basePath: string, pages: number): Promise<string> {
  let p = basePath;
  let maxId = "";
  for (let i = 1; i < pages; i++) {
    const res = await fetch(url + p, { headers: { authorization: `Bearer ${token}` } });
    const items = (await res.json()) as { id: string }[];
    if (!items.length) throw new Error(`${basePath} has fewer than ${pages} pages`);
    maxId = items[items.length - 1].id;
    p = `${basePath}${basePath.includes("?") ? "&" : "?"}max_id=${maxId}`;
  }
  return maxId;
}

// ---------- EXPLAIN ----------

interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  Plans?: PlanNode[];
}

interface Explained {
  sql: string;
  table: string;
  ms: number;
  planningMs: number;
  accesses: string[];
  seqScanOnStatuses: boolean;
  text: string;
}

function walk(node: PlanNode, out: PlanNode[] = []): PlanNode[] {
  out.push(node);
  for (const child of node.Plans ?? []) walk(child, out);
  return out;
}

function access(n: PlanNode): string | null {
  if (n["Index Name"]) return `${n["Node Type"].replace(/ Scan$/, "")} ${n["Index Name"]}`;
  if (n["Relation Name"]) return `${n["Node Type"]} ${n["Relation Name"]}`;
  return null;
}

async function explain(c: pg.Client, stmt: Captured): Promise<Explained> {
  const json = await c.query(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${stmt.sql}`, stmt.params);
  const plan = json.rows[0]["QUERY PLAN"][0] as { Plan: PlanNode; "Execution Time": number; "Planning Time": number };
  const nodes = walk(plan.Plan);
  const text = await c.query(`EXPLAIN (ANALYZE, BUFFERS) ${stmt.sql}`, stmt.params);
  return {
    sql: stmt.sql,
    table: /FROM "public"\."(\w+)"/.exec(stmt.sql)?.[1] ?? stmt.sql.slice(0, 40),
    ms: plan["Execution Time"],
    planningMs: plan["Planning Time"],
    accesses: [...new Set(nodes.map(access).filter((a): a is string => !!a))],
    seqScanOnStatuses: nodes.some((n) => n["Node Type"] === "Seq Scan" && n["Relation Name"] === "statuses"),
    text: text.rows.map((r) => r["QUERY PLAN"]).join("\n"),
  };
}

/** The statement that selects the page itself: the ordered, limited one on the list's table. */
function pageStatement(list: Explained[], table: string): Explained | undefined {
  return list.find((e) => e.table === table && /ORDER BY/.test(e.sql) && /LIMIT/.test(e.sql));
}

// ---------- report ----------

const f1 = (n: number) => n.toFixed(1);
const f0 = (n: number) => n.toFixed(0);

async function dataSizes(c: pg.Client) {
  const one = async (sql: string) => Number((await c.query(sql)).rows[0].n);
  return {
    accounts: await one("SELECT count(*) n FROM accounts"),
    statuses: await one("SELECT count(*) n FROM statuses"),
    reblogs: await one("SELECT count(*) n FROM statuses WHERE reblog_of_id IS NOT NULL"),
    replies: await one("SELECT count(*) n FROM statuses WHERE in_reply_to_id IS NOT NULL"),
    byVisibility: (await c.query("SELECT visibility v, count(*) n FROM statuses GROUP BY 1 ORDER BY 2 DESC")).rows.map((r) => `${r.v} ${Number(r.n).toLocaleString("en")}`).join(", "),
    statusTags: await one("SELECT count(*) n FROM status_tags"),
    mentions: await one("SELECT count(*) n FROM mentions"),
    follows: await one("SELECT count(*) n FROM follows"),
    benchFollowing: await one(`SELECT count(*) n FROM follows f JOIN accounts a ON a.id = f.follower_id WHERE a.nickname = '${BENCH_USER}'`),
    notifications: await one("SELECT count(*) n FROM notifications"),
    benchNotifications: await one(`SELECT count(*) n FROM notifications n JOIN accounts a ON a.id = n.account_id WHERE a.nickname = '${BENCH_USER}'`),
    bookmarks: await one("SELECT count(*) n FROM bookmarks"),
    reactions: await one("SELECT count(*) n FROM reactions"),
    media: await one("SELECT count(*) n FROM media_attachments"),
    relationships: await one("SELECT count(*) n FROM user_relationships"),
    tokens: await one("SELECT count(*) n FROM oauth_tokens"),
    favourites: await one("SELECT count(*) n FROM favourites"),
    dbSize: (await c.query("SELECT pg_size_pretty(pg_database_size(current_database())) s")).rows[0].s as string,
  };
}

function report(loadBefore: string, results: Result[], explained: Map<string, Explained[]>, sizesSeen: Awaited<ReturnType<typeof dataSizes>>, seedSeconds: number | null): string {
  const n = (x: number) => x.toLocaleString("en");
  const cpu = os.cpus();
  const lines: string[] = [];
  lines.push(
    `Run on ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC — ${cpu.length} × ${cpu[0]?.model.trim() ?? "CPU"}, ${Math.round(os.totalmem() / 2 ** 30)} GB RAM, ` +
      `Node ${process.version}, server and client in one process; load average ${loadBefore} before the measurements, ${os.loadavg()[0].toFixed(1)} after.`,
  );
  lines.push("");
  lines.push(
    `Data: ${n(sizesSeen.accounts)} accounts, ${n(sizesSeen.statuses)} statuses (${n(sizesSeen.reblogs)} reblogs, ${n(sizesSeen.replies)} replies; ${sizesSeen.byVisibility}), ` +
      `${n(sizesSeen.statusTags)} hashtag links, ${n(sizesSeen.mentions)} mentions, ${n(sizesSeen.follows)} follows (the benchmark user follows ${n(sizesSeen.benchFollowing)}), ` +
      `${n(sizesSeen.notifications)} notifications (${n(sizesSeen.benchNotifications)} of the benchmark user), ${n(sizesSeen.favourites)} favourites, ` +
      `${n(sizesSeen.bookmarks)} bookmarks, ${n(sizesSeen.reactions)} reactions, ${n(sizesSeen.media)} media attachments, ${n(sizesSeen.relationships)} mutes/blocks, ` +
      `${n(sizesSeen.tokens)} OAuth tokens; database ${sizesSeen.dbSize}` +
      (seedSeconds !== null ? `, seeded in ${f0(seedSeconds)} s.` : "."),
  );
  lines.push("");
  lines.push(
    `Each row: up to ${WARMUP} warm-up requests, then ${REQUESTS} sequential requests (fewer when a row exceeds its ${BUDGET} s budget; column n), ` +
      `then as many again from ${CONCURRENCY} concurrent clients for the "req/s (${CONCURRENCY} clients)" column. Latency is measured by the client, over HTTP on 127.0.0.1.`,
  );
  lines.push("");
  lines.push(`| request | items | n | p50 ms | p95 ms | p99 ms | req/s (1 client) | req/s (${CONCURRENCY} clients) | SQL statements |`);
  lines.push("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
  for (const r of results) {
    const q = r.queries.min === r.queries.max ? `${r.queries.min}` : `${r.queries.min}–${r.queries.max}`;
    lines.push(`| ${r.scenario.name} (\`${r.scenario.path}\`) | ${r.items} | ${r.requests} | ${f1(r.p50)} | ${f1(r.p95)} | ${f1(r.p99)} | ${f0(r.rpsSequential)} | ${f0(r.rpsConcurrent)} | ${q} |`);
  }
  lines.push("");
  for (const [name, list] of explained) {
    lines.push(`#### Statements of one request: ${name}`);
    lines.push("");
    lines.push("| # | table | planning ms | execution ms | access paths |");
    lines.push("|---:|---|---:|---:|---|");
    list.forEach((e, i) =>
      lines.push(`| ${i + 1} | ${e.table} | ${e.planningMs.toFixed(2)} | ${e.ms.toFixed(2)} | ${e.accesses.join(", ")}${e.seqScanOnStatuses ? " **(Seq Scan on statuses)**" : ""} |`),
    );
    lines.push("");
  }
  lines.push("#### EXPLAIN (ANALYZE, BUFFERS) of the page queries");
  lines.push("");
  for (const [name, list] of explained) {
    const main = pageStatement(list, name.startsWith("notifications") ? "notifications" : "statuses");
    if (!main) continue;
    lines.push(`<details><summary>${name}: planning ${main.planningMs.toFixed(2)} ms, execution ${main.ms.toFixed(2)} ms</summary>`);
    lines.push("");
    lines.push("```sql");
    lines.push(main.sql);
    lines.push("```");
    lines.push("");
    lines.push("```");
    lines.push(main.text);
    lines.push("```");
    lines.push("");
    lines.push("</details>");
    lines.push("");
  }
  return lines.join("\n");
}

function writeDoc(section: string) {
  const existing = fs.existsSync(DOC) ? fs.readFileSync(DOC, "utf8") : `# Performance\n\n## Results\n\n${START}\n${END}\n`;
  const block = `${START}\n${section}\n${END}`;
  const updated = existing.includes(START) && existing.includes(END) ? existing.replace(new RegExp(`${START}[\\s\\S]*${END}`), () => block) : `${existing.trimEnd()}\n\n## Results\n\n${block}\n`;
  fs.writeFileSync(DOC, updated);
  log(`wrote ${path.relative(process.cwd(), DOC)}`);
}

// ---------- main ----------

async function main() {
  const reuse = args.has("--reuse") && (await alreadySeeded());
  if (!reuse) {
    log(`recreating database ${dbName}`);
    await recreateDatabase();
  } else log(`reusing the seeded database ${dbName}`);

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "ext-bench-"));
  // jobs off: a web-only node, so queue polling does not share the two cores with the measurement
  const settings = loadSettings({ PORT: "0", DATA_DIR: dataDir, DATABASE_URL: DB_URL, BASE_URL: "http://localhost:4000", LOG_LEVEL: "error", JOBS_ENABLED: "false" });
  const server = await startServer(settings);
  const counter = instrument(server);
  const client = new pg.Client({ connectionString: DB_URL });
  await client.connect();
  let seedSeconds: number | null = null;
  try {
    if (!reuse) {
      const started = performance.now();
      const bench = await createLocalAccount(systemCtx(server.services), { nickname: BENCH_USER, email: "bench@example.test", password: BENCH_PASSWORD, admin: false, moderator: false });
      log(`seeding ${sizes.accounts} accounts, ${sizes.statuses} statuses`);
      await seed(client, { base: settings.baseUrl, benchId: bench.id, sizes, log });
      seedSeconds = (performance.now() - started) / 1000;
      log(`seeded in ${f0(seedSeconds)} s`);
    }

    const app = await (await fetch(`${server.url}/api/v1/apps`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ client_name: "bench", redirect_uris: "urn:ietf:wg:oauth:2.0:oob", scopes: "read" }) })).json();
    const tokenRes = await fetch(`${server.url}/oauth/token`, {
      method: "POST",
      body: new URLSearchParams({ grant_type: "password", client_id: app.client_id, client_secret: app.client_secret, username: BENCH_USER, password: BENCH_PASSWORD, scope: "read" }),
    });
    if (tokenRes.status !== 200) throw new Error(`token: ${tokenRes.status} ${await tokenRes.text()}`);
    const token = ((await tokenRes.json()) as { access_token: string }).access_token;

    const rareTag = (await client.query(`SELECT t.name FROM tags t JOIN status_tags st ON st.tag_id = t.id GROUP BY t.name HAVING count(*) BETWEEN 20 AND 200 ORDER BY count(*) LIMIT 1`)).rows[0]?.name ?? "tag999";
    const homeP5 = await cursorAfter(server.url, token, "/api/v1/timelines/home", 5);
    const homeP50 = await cursorAfter(server.url, token, "/api/v1/timelines/home?limit=40", 25);
    const notificationsP5 = await cursorAfter(server.url, token, "/api/v1/notifications", 5);
    const scenarios: Scenario[] = [
      { name: "home, page 1", path: "/api/v1/timelines/home", explain: true },
      { name: "home, page 1, limit=40", path: "/api/v1/timelines/home?limit=40" },
      { name: "home, page 5", path: `/api/v1/timelines/home?max_id=${homeP5}`, explain: true },
      { name: "home, ~1,000 statuses back", path: `/api/v1/timelines/home?max_id=${homeP50}` },
      { name: "public, federated", path: "/api/v1/timelines/public", explain: true },
      { name: "public, local", path: "/api/v1/timelines/public?local=true", explain: true },
      { name: "tag, popular (tag0)", path: "/api/v1/timelines/tag/tag0", explain: true },
      { name: `tag, rare (${rareTag})`, path: `/api/v1/timelines/tag/${rareTag}`, explain: true },
      { name: "notifications, page 1", path: "/api/v1/notifications", explain: true },
      { name: "notifications, page 5", path: `/api/v1/notifications?max_id=${notificationsP5}` },
    ];

    const loadBefore = os.loadavg()[0].toFixed(1);
    const results: Result[] = [];
    for (const s of scenarios) {
      const r = await measure(server.url, token, s, counter);
      results.push(r);
      log(`${s.name}: p50 ${f1(r.p50)} ms, p95 ${f1(r.p95)} ms, p99 ${f1(r.p99)} ms, ${f0(r.rpsSequential)} req/s (${f0(r.rpsConcurrent)} with ${CONCURRENCY} clients), ${r.queries.max} SQL, ${r.items} items`);
    }

    const explained = new Map<string, Explained[]>();
    for (const s of scenarios.filter((x) => x.explain)) {
      const statements = await counter.capture(() => fetch(server.url + s.path, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.text()));
      const list: Explained[] = [];
      for (const stmt of statements) list.push(await explain(client, stmt));
      explained.set(s.name, list);
      const bad = list.filter((e) => e.seqScanOnStatuses);
      if (bad.length) log(`WARNING ${s.name}: Seq Scan on statuses in ${bad.length} statement(s)`);
    }

    const section = report(loadBefore, results, explained, await dataSizes(client), seedSeconds);
    process.stdout.write(section + "\n");
    if (args.has("--write")) writeDoc(section);
  } finally {
    await client.end();
    await server.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (!args.has("--keep") && !args.has("--reuse")) {
      await withClient(adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`));
      log(`dropped ${dbName}`);
    }
  }
}

await main();
