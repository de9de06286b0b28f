// Every GraphQL document of the admin UI is valid against the committed schema. gql.tada types a
// document from the schema, but `tsc` does not reject a field the schema lacks (its result is typed `{}`
// and the server answers 400 at run time), so the documents are validated here with graphql-js.
import fs from "node:fs";
import path from "node:path";
import { buildSchema, parse, validate } from "graphql";
import { expect, test } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sources(p) : /\.tsx?$/.test(e.name) && !e.name.endsWith(".d.ts") ? [p] : [];
  });
}

test("every graphql(`…`) document in web-admin/src validates against schema/schema.graphql", () => {
  const schema = buildSchema(fs.readFileSync(path.join(root, "schema/schema.graphql"), "utf8"));
  const documents = sources(path.join(root, "web-admin/src")).flatMap((file) =>
    [...fs.readFileSync(file, "utf8").matchAll(/graphql\(\s*`([\s\S]*?)`/g)].map((m) => ({ file: path.relative(root, file), text: m[1]!.replaceAll("@_unmask", "") })),
  );
  const isFragment = (text: string) => /^\s*fragment /.test(text);
  const fragments = documents.filter((d) => isFragment(d.text)).map((d) => d.text).join("\n");
  const problems = documents
    .filter((d) => !isFragment(d.text))
    .flatMap((d) => validate(schema, parse(d.text.includes("...") ? `${d.text}\n${fragments}` : d.text)).filter((e) => !/is never used/.test(e.message)).map((e) => `${d.file}: ${e.message}`));
  expect(documents.length).toBeGreaterThan(50);
  expect(problems).toEqual([]);
});
