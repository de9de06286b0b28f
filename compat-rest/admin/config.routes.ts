// Admin API: runtime configuration stored in the database, its descriptions, and the restart signal.
import { z } from "zod";
import { describeConfig, getConfig, needReboot, restart, updateConfig } from "../../src/domain/config/config.ops.ts";
import { route } from "../../src/http/routes/route.ts";
import { admin } from "./paths.ts";
import { ConfigDescriptionsSchema, ConfigListSchema } from "../../src/views/schemas/tools.ts";
import { EmptySchema } from "../../src/views/schemas/misc.ts";

const tags = ["Admin: configuration"];

export const adminConfigRoutes = [
  route({
    method: "GET",
    path: admin("/config"),
    view: ConfigListSchema,
    summary: "Settings stored in the database, merged with the defaults unless only_db is true",
    tags,
    operation: getConfig,
    query: getConfig.input,
    handler: (ctx, { query }) => getConfig(ctx, query),
  }),
  route({
    method: "POST",
    path: admin("/config"),
    view: ConfigListSchema,
    summary: "Stores, merges or deletes settings (the family's conversion rules); they apply at once",
    tags,
    operation: updateConfig,
    body: updateConfig.input,
    handler: (ctx, { body }) => updateConfig(ctx, body),
  }),
  route({
    method: "GET",
    path: admin("/config/descriptions"),
    view: ConfigDescriptionsSchema,
    summary: "Descriptions of every setting the server reads",
    tags,
    operation: describeConfig,
    handler: (ctx) => describeConfig(ctx, {}),
  }),
  route({
    method: "GET",
    path: admin("/need_reboot"),
    summary: "Whether a setting the family applies only at start-up changed since the last restart",
    tags,
    operation: needReboot,
    response: { description: "{need_reboot}", schema: z.object({ need_reboot: z.boolean() }) },
    handler: (ctx) => needReboot(ctx, {}),
  }),
  route({
    method: "GET",
    path: admin("/restart"),
    view: EmptySchema,
    summary: "Reloads the configuration in every process and clears need_reboot",
    tags,
    operation: restart,
    handler: (ctx) => restart(ctx, {}),
  }),
];
