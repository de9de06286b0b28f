// Imports every area's types (each registers itself on the builder) and prints the schema.
import { lexicographicSortSchema, printSchema } from "graphql";
import "./accounts.ts";
import "./admin-config.ts";
import "./admin-instance.ts";
import "./admin-misc.ts";
import "./admin-moderation.ts";
import "./admin-reports.ts";
import "./admin-reference.ts";
import "./admin-users.ts";
import "./bookmark-folders.ts";
import "./emoji.ts";
import "./filters.ts";
import "./conversations.ts";
import "./chats.ts";
import "./instance.ts";
import "./mfa.ts";
import "./notifications.ts";
import "./notification-groups.ts";
import "./oauth-apps.ts";
import "./rules.ts";
import "./statuses.ts";
import "./subscriptions.ts";
import "./system.ts";
import "./timelines.ts";
import { builder } from "./builder.ts";

export const schema = builder.toSchema();
export const printedSchema = () => printSchema(lexicographicSortSchema(schema)) + "\n";
