// Tests wait for conditions, not for time: test/support/wait.ts's `waitFor` is the one polling loop, and a
// timer a test awaits outright is allowed only where time itself is what is tested (a lease, a timeout, a
// rate), said by a `time is the behaviour` comment on its line or just above. A timer inside Promise.race
// (a bound on another wait) is not awaited outright and is not matched.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");
const HELPER = "test/support/wait.ts";
const SELF = "test/contracts/fixed-waits.unit.test.ts";
/** awaiting a timer outright: `await new Promise((r) => setTimeout(r, …))`, `await sleep(…)` */
const AWAITED_TIMER = /await (new Promise\(\(?\w*\)? => setTimeout\(|sleep\()/;
/** a polling loop of its own: a deadline computed to loop against */
const OWN_DEADLINE = /\b(const|let) (deadline|end) = Date\.now\(\) \+/;
const REASON = /time is the behaviour/;

function testFiles(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) return e.name === "node_modules" ? [] : testFiles(rel);
    return /\.(ts|mts|mjs)$/.test(e.name) ? [rel] : [];
  });
}

describe("waits in tests", () => {
  const files = testFiles("test").filter((f) => f !== HELPER && f !== SELF);

  test("every timer a test awaits outright says why time is the behaviour", () => {
    const unexplained: string[] = [];
    for (const file of files) {
      const lines = fs.readFileSync(path.join(ROOT, file), "utf8").split("\n");
      lines.forEach((line, i) => {
        if (!AWAITED_TIMER.test(line)) return;
        if (lines.slice(Math.max(0, i - 3), i + 1).some((l) => REASON.test(l))) return;
        unexplained.push(`${file}:${i + 1}: ${line.trim()}`);
      });
    }
    expect(unexplained, "wait for a condition with waitFor (test/support/wait.ts), or say why time is the behaviour").toEqual([]);
  });

  test("no test file has a polling loop of its own", () => {
    const loops = files.flatMap((file) =>
      fs
        .readFileSync(path.join(ROOT, file), "utf8")
        .split("\n")
        .flatMap((line, i) => (OWN_DEADLINE.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(loops, "poll with waitFor (test/support/wait.ts)").toEqual([]);
  });

  test("the rules see what they are meant to see", () => {
    expect(AWAITED_TIMER.test("    await new Promise((r) => setTimeout(r, 1000));")).toBe(true);
    expect(AWAITED_TIMER.test("  await sleep(300);")).toBe(true);
    expect(AWAITED_TIMER.test("  await Promise.race([answer, new Promise((r) => setTimeout(r, 12_000))]);")).toBe(false);
    expect(OWN_DEADLINE.test("  const deadline = Date.now() + 15_000;")).toBe(true);
    expect(OWN_DEADLINE.test("  const tomorrow = new Date(Date.now() + DAY);")).toBe(false);
  });
});
