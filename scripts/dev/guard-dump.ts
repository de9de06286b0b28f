// Prints the resolved guard of every REST route and every GraphQL root field, one per line, sorted: run it
// before and after moving a guard from a route or field onto its operation (issue 20, criterion 4) and diff
// the two outputs — an empty diff shows the conversion changed no one's access. Run: npx tsx scripts/dev/guard-dump.ts
import { allRoutes } from "../../src/routes.ts";
import { schema } from "../../src/graphql/schema.ts";
import { fieldGuard, keyOf, norm, routeGuard } from "../../test/support/graphql-parity.ts";
import { authOf } from "../../src/http/routes/route.ts";

const lines: string[] = [];
for (const r of allRoutes) {
  const auth = authOf(r);
  const appToken = auth !== "public" && auth.appToken ? " appToken" : "";
  lines.push(`${keyOf(r)} ${norm(routeGuard(r))}${appToken}`);
}
for (const t of [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()]) {
  for (const [name, f] of Object.entries(t?.getFields() ?? {})) lines.push(`${t!.name}.${name} ${norm(fieldGuard(f))}`);
}
console.log(lines.sort().join("\n"));
process.exit(0);
