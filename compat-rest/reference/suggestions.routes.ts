// Reference API suggestions: the staff's suggested accounts (v2) and dismissing one.
import { z } from "zod";
import { dismissSuggestion, listSuggestions, suggestionsInput } from "../../src/domain/statuses/collections.ops.ts";
import { route, type RouteDef } from "../../src/http/routes/route.ts";
import { renderAccounts } from "../../src/views/account.ts";
import { EmptySchema, SuggestionSchema } from "../../src/views/schemas/misc.ts";
import { listOf } from "../../src/views/schemas/view.ts";

export const suggestionRoutes: RouteDef[] = [
  route({
    method: "GET",
    path: "/api/v2/suggestions",
    view: listOf(SuggestionSchema),
    summary: "Suggested accounts as {source: staff, account}",
    tags: ["Accounts"],
    operation: listSuggestions,
    query: suggestionsInput,
    async handler(ctx, { query }) {
      const accounts = await renderAccounts(ctx, await listSuggestions(ctx, query));
      return accounts.map((account) => ({ source: "staff", account }));
    },
  }),
  route({
    method: "DELETE",
    path: "/api/v1/suggestions/:account_id",
    view: EmptySchema,
    summary: "Dismiss a suggested account: suggestions leave it out for the viewer from then on",
    tags: ["Accounts"],
    operation: dismissSuggestion,
    params: z.object({ account_id: z.string() }),
    response: { description: "`{}`; 404 for an unknown account" },
    async handler(ctx, { params }) {
      await dismissSuggestion(ctx, params);
      return {};
    },
  }),
];
