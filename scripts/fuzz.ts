// `npm run fuzz -- --requests 50000 [--seed 7] [--db postgres|pglite] [--only <regex>]`: the fuzz test's
// longer run (test/fuzz/harness.ts), outside vitest. Prints a summary and every failure; exits 1 on any.
import { runFuzz } from "../test/fuzz/harness.ts";
import { startTestServer } from "../test/support/server.ts";

const args = process.argv.slice(2);
const arg = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1] : fallback;
};
const requests = Number(arg("requests", "5000"));
const seed = Number(arg("seed", String(Date.now() % 1_000_000)));
const kind = arg("db", "postgres") as "postgres" | "pglite";
const only = args.includes("--only") ? new RegExp(arg("only", "")) : undefined;

const t0 = Date.now();
const server = await startTestServer(kind, { JOBS_ENABLED: "false" });
try {
  console.log(`fuzzing ${server.url} (${kind}) with seed ${seed}, ${requests} requests`);
  const result = await runFuzz(server, {
    seed,
    requests,
    only,
    onProgress: (done, r) => {
      if (done % 1000 === 0) console.log(`  ${done} requests, ${r.failures.length} failures, ${Math.round((Date.now() - t0) / 1000)} s`);
    },
  });
  const seen = new Set<string>();
  for (const f of result.failures) {
    const key = `${f.reason} ${f.request.split(/[?\s]/)[0]} ${f.request.split(" ")[1]?.split("?")[0]}`;
    if (seen.has(key) && !args.includes("--all")) continue;
    seen.add(key);
    console.log(`\nFAIL (${f.reason}) as ${f.persona}, ${f.variant}: ${f.request}\n  → ${f.status} ${f.body}`);
  }
  console.log(`\n${result.sent} requests over ${result.operations} operations in ${(result.ms / 1000).toFixed(1)} s; statuses ${JSON.stringify(result.byStatus)}; ${result.failures.length} failures (${seen.size} distinct)`);
  process.exitCode = result.failures.length ? 1 : 0;
} finally {
  await server.close();
}
