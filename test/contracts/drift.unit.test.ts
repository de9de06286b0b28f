import fs from "node:fs";
import { expect, test } from "vitest";
import { contracts } from "../../scripts/schema-contracts.ts";
import { pendingSchemaDiff } from "../../src/db/migrate.ts";

test.each(Object.entries(contracts()))("%s matches the code (run `npm run schema:write` after changing routes or GraphQL types)", (file, generated) => {
  expect(fs.readFileSync(file, "utf8")).toBe(generated);
});

test("prisma/schema.prisma matches the committed migrations (run `npm run migrate:dev -- <name>`)", async () => {
  expect(await pendingSchemaDiff()).toBe("");
});
