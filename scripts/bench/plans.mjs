// How PostgreSQL plans one statement that `npm run bench:http -- --explain` captured: runs it twelve times as one
// named prepared statement on one connection (to the quick benchmark's database), prints pg_prepared_statements'
// generic and custom plan counts and the mean of the last six runs, then the same under
// plan_cache_mode = force_generic_plan. A statement whose generic plans stay at 0 is planned anew at every request.
//   node scripts/bench/plans.mjs /tmp/ext-bench-http-quick/statements-<row>.json <index of the statement>
import fs from "node:fs";
import pg from "pg";
const list = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const st = list[Number(process.argv[3])];
const c = new pg.Client("postgresql://postgres@127.0.0.1:5432/bench_http_quick"); await c.connect();
const times = [];
for (let i = 0; i < 12; i++) { const t = performance.now(); await c.query({ name: "probe", text: st.text, values: st.values }); times.push(performance.now() - t); }
const { rows } = await c.query("SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE name = 'probe'");
console.log(rows[0], "last 6 mean ms", (times.slice(6).reduce((a, b) => a + b) / 6).toFixed(2));
await c.query("SET plan_cache_mode = force_generic_plan"); 
const t2 = []; for (let i = 0; i < 8; i++) { const t = performance.now(); await c.query({ name: "probe2", text: st.text, values: st.values }); t2.push(performance.now() - t); }
console.log("forced generic: last 6 mean ms", (t2.slice(2).reduce((a, b) => a + b) / 6).toFixed(2));
await c.end();
