import { defineConfig } from "vitest/config";

export default defineConfig({
  // graphql ships CJS and ESM builds; Pothos and our code must share one copy ("another realm" error)
  resolve: { alias: { graphql: "graphql/index.js" } },
  test: {
    include: ["test/**/*.test.ts"],
    pool: "forks",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // two cores: a couple of files at a time keeps PostgreSQL and PGlite servers from starving each other
    maxWorkers: 2,
  },
});
