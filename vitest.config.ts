import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { defineConfig } from "vitest/config";

// Federation tests talk HTTPS between servers on loopback under `*.fed.test` names: every test process
// (forked from this one, so it inherits the variable) trusts the test network's CA. NODE_EXTRA_CA_CERTS
// names one file, so a CA the environment already adds is kept in a combined bundle.
const testCa = fs.readFileSync(path.resolve("test/support/federation/pki/ca.pem"), "utf8");
const inheritedCa = process.env.NODE_EXTRA_CA_CERTS && fs.existsSync(process.env.NODE_EXTRA_CA_CERTS) ? fs.readFileSync(process.env.NODE_EXTRA_CA_CERTS, "utf8") : "";
if (!inheritedCa.includes(testCa)) {
  const bundle = path.join(os.tmpdir(), `ext-test-ca-${process.pid}.pem`);
  fs.writeFileSync(bundle, `${inheritedCa}\n${testCa}`);
  process.env.NODE_EXTRA_CA_CERTS = bundle;
}

export default defineConfig({
  // graphql ships CJS and ESM builds; Pothos and our code must share one copy ("another realm" error)
  resolve: { alias: { graphql: "graphql/index.js" } },
  test: {
    include: ["test/**/*.test.ts"],
    // spawned servers and CLIs run the built dist/ (test/support/built.ts): build it once, first
    globalSetup: ["test/support/build-once.ts"],
    pool: "forks",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // two cores: a couple of files at a time keeps PostgreSQL and PGlite servers from starving each other
    maxWorkers: 2,
    // CI runs the whole suite twice on a shared 2-core machine where a spawned server can miss a timing window;
    // a test that fails again on its retry is a real failure. Locally nothing is retried, so a flake shows.
    retry: process.env.CI ? 1 : 0,
  },
});
