// Prints how many REST routes and GraphQL root fields derive their guard from their operation's access
// declaration and how many declare it by hand (issue 20, criterion 4). Run: npx tsx scripts/dev/access-count.ts
import { allRoutes } from "../../src/routes.ts";
import { schema } from "../../src/graphql/schema.ts";
import { countAccess } from "../../test/support/access-count.ts";

const { routes, fields } = countAccess(allRoutes, schema);
console.log(`REST routes:    ${routes.derived} derive their auth from their operation, ${routes.byHand} declare it by hand`);
console.log(`GraphQL fields: ${fields.derived} derive their guard from their operation, ${fields.byHand} declare it by hand, ${fields.open} unguarded`);
process.exit(0);
