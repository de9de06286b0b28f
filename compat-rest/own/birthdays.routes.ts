// Own API: birthdays of followed accounts on a given day.
import { listBirthdays } from "../../src/domain/accounts/birthdays.ops.ts";
import { route } from "../../src/http/routes/route.ts";
import { renderAccounts } from "../../src/views/account.ts";
import { AccountSchema } from "../../src/views/schemas/account.ts";
import { listOf } from "../../src/views/schemas/view.ts";

export const birthdayRoutes = [
  route({
    method: "GET",
    path: "/api/v1/$ns/birthdays",
    view: listOf(AccountSchema),
    summary: "Accounts the viewer follows whose birthday (shown to others) is on `day` of `month`",
    tags: ["Accounts"],
    operation: listBirthdays,
    query: listBirthdays.input,
    handler: async (ctx, { query }) => renderAccounts(ctx, await listBirthdays(ctx, query)),
  }),
];
