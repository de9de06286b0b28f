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
import { bool } from "../inputs.ts";
import { route } from "../route.ts";

const text = z.string().optional().nullable();
const both = (name: string) => [`/api/$ns/${name}`, `/api/v1/$ns/${name}`];
const success = { status: "success" } as const;
const write = { scopes: ["write:accounts"] } as const;
const tags = ["Account actions"];

export const ownAccountActionRoutes = [
  route({
    method: "POST",
    path: both("change_password"),
    summary: "Change the password (signs out every token and session)",
    tags,
    auth: write,
    body: z.object({ password: text, new_password: text, new_password_confirmation: text }),
    async handler(ctx, { body }) {
      await changePassword(ctx, body);
      return success;
    },
  }),
  route({
    method: "POST",
    path: both("change_email"),
    summary: "Change the e-mail address",
    tags,
    auth: write,
    body: z.object({ password: text, email: text }),
    async handler(ctx, { body }) {
      await changeEmail(ctx, body);
      return success;
    },
  }),
  route({
    method: "POST",
    path: both("delete_account"),
    summary: "Delete the account: deactivated at once, its data removed by a background job (password also accepted in the query)",
    tags,
    auth: write,
    body: z.object({ password: text }),
    async handler(ctx, { body }) {
      await deleteOwnAccount(ctx, body);
      return success;
    },
  }),
  route({
    method: "POST",
    path: both("disable_account"),
    summary: "Deactivate the account (an admin can reactivate it)",
    tags,
    auth: write,
    body: z.object({ password: text }),
    async handler(ctx, { body }) {
      await disableOwnAccount(ctx, body);
      return success;
    },
  }),
  route({
    method: "GET",
    path: both("aliases"),
    summary: "The account's aliases (also_known_as) as nicknames name@host",
    tags,
    auth: { scopes: ["read:accounts"] },
    async handler(ctx) {
      return { aliases: await listAliases(ctx, {}) };
    },
  }),
  route({
    method: "PUT",
    path: both("aliases"),
    summary: "Add an alias (nickname name@host of a known account)",
    tags,
    auth: write,
    body: z.object({ alias: z.string() }),
    async handler(ctx, { body }) {
      await addAlias(ctx, body);
      return success;
    },
  }),
  route({
    method: "DELETE",
    path: both("aliases"),
    summary: "Remove an alias",
    tags,
    auth: write,
    body: z.object({ alias: z.string() }),
    async handler(ctx, { body }) {
      await deleteAlias(ctx, body);
      return success;
    },
  }),
  route({
    method: "PUT",
    path: both("notification_settings"),
    summary: "Notification settings: block_from_strangers, hide_notification_contents",
    tags,
    auth: write,
    body: z.object({ block_from_strangers: bool().optional(), hide_notification_contents: bool().optional() }),
    async handler(ctx, { body }) {
      await updateNotificationSettings(ctx, body);
      return success;
    },
  }),
  route({
    method: "POST",
    path: "/api/v1/$ns/accounts/confirmation_resend",
    summary: "Send the confirmation e-mail again (by email or nickname); 204 whether or not one was sent",
    tags,
    auth: "public",
    body: z.object({ email: text, nickname: text }),
    status: 204,
    async handler(ctx, { body }) {
      await resendConfirmation(ctx, body);
      return undefined;
    },
  }),
];
