// A vitest reporter naming the tests that passed only on a retry. CI retries a failed test once
// (vitest.config.ts), which would otherwise let a flaky test pass unseen: .ci/run lists these in its summary.
// Writes one line per such test, `<file> > <full name> (retried N)`, to the file RETRIED_REPORT names
// (an empty file when there were none), and the same lines to stderr at the end of the run.
import fs from "node:fs";
import type { Reporter, TestCase } from "vitest/node";

export default class RetriedReporter implements Reporter {
  private lines: string[] = [];

  onTestRunStart() {
    this.lines = [];
  }

  onTestCaseResult(testCase: TestCase) {
    const diagnostic = testCase.diagnostic();
    if (testCase.result().state === "passed" && diagnostic && diagnostic.retryCount > 0)
      this.lines.push(`${testCase.module.relativeModuleId} > ${testCase.fullName} (retried ${diagnostic.retryCount})`);
  }

  onTestRunEnd() {
    const file = process.env.RETRIED_REPORT;
    if (file) fs.writeFileSync(file, this.lines.map((l) => `${l}\n`).join(""));
    for (const line of this.lines) process.stderr.write(`passed only on retry: ${line}\n`);
  }
}
