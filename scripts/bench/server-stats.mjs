// Loaded into the benchmarked server with --import (NODE_OPTIONS) by `npm run bench:http`, never in production:
// counts the SQL statements the process sends through `pg` (job-queue statements apart, as in the tests) and
// answers GET http://127.0.0.1:$BENCH_STATS_PORT/ with {pid, statements, jobStatements, cpu (µs), rss, heapUsed,
// heapTotal, external} (bytes; the V8 heap as process.memoryUsage() reads it, garbage not yet collected included).
// The listener opens on the first statement, so only the process that talks to the database (the server, not a
// launcher such as npm or tsx that passes NODE_OPTIONS on) serves it.
import http from "node:http";
import { createRequire } from "node:module";
import path from "node:path";

const require = createRequire(path.join(process.cwd(), "package.json"));
const port = Number(process.env.BENCH_STATS_PORT);
let statements = 0;
let jobStatements = 0;
let listening = false;
/** @type {{ text: string, values?: unknown[] }[] | null} */
let captured = null;

function listen() {
  listening = true;
  http
    .createServer((req, res) => {
      const cpu = process.cpuUsage();
      res.setHeader("content-type", "application/json");
      if (req.url === "/capture") {
        // the statements (with their parameters) sent from now until the next GET /captured, to EXPLAIN them
        captured = [];
        return res.end("[]");
      }
      if (req.url === "/captured") {
        res.end(JSON.stringify(captured ?? []));
        captured = null;
        return;
      }
      const { rss, heapUsed, heapTotal, external } = process.memoryUsage();
      res.end(JSON.stringify({ pid: process.pid, statements, jobStatements, cpu: cpu.user + cpu.system, rss, heapUsed, heapTotal, external }));
    })
    .on("error", (error) => console.error(`bench stats: ${error.message}`))
    .listen(port, "127.0.0.1");
}

function count(config, values) {
  if (!listening && port) listen();
  const text = typeof config === "string" ? config : (config?.text ?? "");
  const job = /\bjobs\b/.test(text);
  const control = /^\s*(BEGIN|COMMIT|ROLLBACK)\b/i.test(text);
  if (job) jobStatements++;
  else if (!control) statements++;
  // every round trip, the uncounted ones marked: a write's BEGIN/COMMIT and job enqueues cost the server too
  if (captured && captured.length < 1000) captured.push({ text, values: Array.isArray(values) ? values : config?.values, ...(job || control ? { uncounted: true } : {}) });
}

function wrap(proto, method) {
  const original = proto[method];
  proto[method] = function (config, ...rest) {
    count(config, rest[0]);
    return original.call(this, config, ...rest);
  };
}

try {
  wrap(require("pg").Client.prototype, "query");
} catch {
  // not installed here
}
// only on PGlite: importing it into a server on PostgreSQL would add its ~7 MB to the RSS the benchmark reports
if (process.env.DATABASE_URL?.startsWith("pglite:")) {
  try {
    // PGlite's adapter sends each statement through query (parameters) or exec (scripts)
    const { PGlite } = await import("@electric-sql/pglite");
    wrap(PGlite.prototype, "query");
    wrap(PGlite.prototype, "exec");
    countNamedStatements(PGlite.prototype);
  } catch {
    // not installed here
  }
}

/**
 * src/db/pglite-sql.ts runs the hot statements as named prepared statements through execProtocolStream,
 * not query: a Bind to a named statement is one of them (PGlite's own query binds the unnamed one), and
 * the named Parse before it gives its text.
 */
function countNamedStatements(proto) {
  const texts = new Map();
  const decoder = new TextDecoder();
  /** the NUL-terminated string at `at` in `bytes`, and where the next one starts */
  const cstring = (bytes, at) => {
    const end = bytes.indexOf(0, at);
    return [decoder.decode(bytes.subarray(at, end)), end + 1];
  };
  const original = proto.execProtocolStream;
  proto.execProtocolStream = function (message, ...rest) {
    if (message[0] === 0x50 /* Parse */) {
      const [name, next] = cstring(message, 5);
      if (name) texts.set(name, cstring(message, next)[0]);
    } else if (message[0] === 0x42 /* Bind */) {
      const [, next] = cstring(message, 5); // the portal
      const [name] = cstring(message, next);
      if (name) count(texts.get(name) ?? "");
    }
    return original.call(this, message, ...rest);
  };
}
