// CI retries a failed test once (vitest.config.ts); test/support/retried-reporter.ts names the tests that
// passed only on that retry, for .ci/run's summary, so a flaky test shows instead of passing unseen.
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "vitest";
import { ROOT } from "../support/built.ts";

test("a run with a retry names the test that passed only on it, and no other", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ext-retried-"));
  const report = path.join(dir, "retried.txt");
  try {
    const run = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const { BASE_URL: _vitestBase, ...env } = process.env;
      const child = execFile(
        process.execPath,
        ["node_modules/vitest/vitest.mjs", "run", "--config", "test/support/fixtures/retried/vitest.config.ts", "--reporter=./test/support/retried-reporter.ts", "--reporter=default"],
        { cwd: ROOT, env: { ...env, RETRIED_REPORT: report } },
        (_error, _stdout, stderr) => resolve({ code: child.exitCode, stderr }),
      );
    });
    expect(run.code).toBe(1); // "fails every time" fails the run
    expect(fs.readFileSync(report, "utf8")).toBe("outcomes.fixture.ts > outcomes > fails once, then passes (retried 1)\n");
    expect(run.stderr).toContain("passed only on retry: outcomes.fixture.ts > outcomes > fails once, then passes (retried 1)");
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);
