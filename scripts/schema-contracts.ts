// The generated contracts, committed under schema/: printed GraphQL schema and the OpenAPI document.
// `npm run schema:write` rewrites them; test/contracts checks that they match the code.
import { allRoutes } from "../src/routes.ts";
import { openApiDocument } from "../src/http/routes/openapi.ts";
import { printedSchema } from "../src/graphql/schema.ts";

/** Printed with the default namespace and URL so the files do not depend on the environment. */
export function contracts(): Record<string, string> {
  const openapi = openApiDocument(allRoutes, { namespace: "ext", family: "own", baseUrl: "http://localhost:4000" });
  return {
    "schema/schema.graphql": printedSchema(),
    "schema/openapi.json": JSON.stringify(openapi, null, 2) + "\n",
  };
}
