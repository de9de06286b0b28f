// The user's own account actions of the family's API. They live under /api/<ns>/… (and, as the
// family's servers also answer there, /api/v1/<ns>/…); they answer {status: "success"} or {error}.
import { z } from "zod";
import {
  addAlias,
  changeEmail,
  changePassword,
  deleteAlias,
  deleteOwnAccount,
  disableOwnAccount,
  listAliases,
  updateNotificationSettings,
} from "../../src/domain/accounts/account-actions.ops.ts";
import { resendConfirmation } from "../../src/domain/accounts/registration.ops.ts";
import type { AnyOperation } from "../../src/domain/operation.ts";
import { route } from "../../src/http/routes/route.ts";
import { AliasesSchema, SuccessSchema } from "../../src/views/schemas/own.ts";

const both = (name: string) => [`/api/$ns/${name}`, `/api/v1/$ns/${name}`];
const tags = ["Account actions"];

/** An action answering {status: "success"}, declared with its operation's own input schema and guarded as it declares. */
function action(method: "POST" | "PUT" | "DELETE", name: string, summary: string, op: AnyOperation & { input: z.ZodObject }) {
  return route({
    method,
    path: both(name),
    view: SuccessSchema,
    summary,
    tags,
    operation: op,
    body: op.input,
    async handler(ctx, { body }) {
      await op(ctx, body);
      return { status: "success" };
    },
  });
}

export const ownAccountActionRoutes = [
  action("POST", "change_password", "Change the password (signs out every token and session)", changePassword),
  action("POST", "change_email", "Change the e-mail address", changeEmail),
  action("POST", "delete_account", "Delete the account: deactivated at once, its data removed by a background job (password also accepted in the query)", deleteOwnAccount),
  action("POST", "disable_account", "Deactivate the account (an admin can reactivate it)", disableOwnAccount),
  route({
    method: "GET",
    path: both("aliases"),
    view: AliasesSchema,
    summary: "The account's aliases (also_known_as) as nicknames name@host",
    tags,
    operation: listAliases,
    async handler(ctx) {
      return { aliases: await listAliases(ctx, {}) };
    },
  }),
  action("PUT", "aliases", "Add an alias (nickname name@host of a known account)", addAlias),
  action("DELETE", "aliases", "Remove an alias", deleteAlias),
  action("PUT", "notification_settings", "Notification settings: block_from_strangers, hide_notification_contents", updateNotificationSettings),
  route({
    method: "POST",
    path: "/api/v1/$ns/accounts/confirmation_resend",
    summary: "Send the confirmation e-mail again (by email or nickname); 204 whether or not one was sent",
    tags,
    operation: resendConfirmation,
    body: resendConfirmation.input,
    status: 204,
    async handler(ctx, { body }) {
      await resendConfirmation(ctx, body);
      return undefined;
    },
  }),
];
