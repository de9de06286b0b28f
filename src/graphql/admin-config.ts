// Runtime configuration over GraphQL: the operations of the admin config routes, each field guarded as
// its operation declares (admin role and OAuth scope; the admin token passes). Family values are
// arbitrary JSON terms, so they travel JSON-encoded, as the moderation log's `dataJson` does.
import { describeConfig, getConfig, needReboot, restart, updateConfig, type ConfigList, type ConfigObject } from "../domain/config/config.ops.ts";
import { Invalid } from "../kernel/errors.ts";
import { accessOf } from "./access.ts";
import { builder } from "./builder.ts";


const ConfigSettingType = builder.objectRef<ConfigObject>("ConfigSetting").implement({
  description: "One stored (or default) setting in the family's form: `:pleroma` / `:instance` / keyword value",
  fields: (t) => ({
    group: t.exposeString("group"),
    key: t.exposeString("key"),
    valueJson: t.string({ description: "the value in the admin API's JSON form, JSON-encoded", resolve: (c) => JSON.stringify(c.value) }),
    db: t.stringList({ nullable: true, description: "the keyword keys (or the key) stored in the database", resolve: (c) => c.db ?? null }),
  }),
});

const ConfigListType = builder.objectRef<ConfigList>("ConfigList").implement({
  fields: (t) => ({
    configs: t.field({ type: [ConfigSettingType], resolve: (l) => l.configs }),
    needReboot: t.boolean({ resolve: (l) => l.need_reboot }),
  }),
});

type Description = ReturnType<typeof describeConfig> extends Promise<(infer D)[]> ? D : never;

const ConfigDescriptionType = builder.objectRef<Description>("ConfigDescription").implement({
  description: "What GET /config/descriptions answers for one family key",
  fields: (t) => ({
    group: t.exposeString("group"),
    key: t.exposeString("key"),
    label: t.exposeString("label"),
    description: t.exposeString("description"),
    childrenJson: t.string({ description: "the `children` array, JSON-encoded", resolve: (d) => JSON.stringify(d.children) }),
  }),
});

const ConfigChangeInput = builder.inputType("ConfigChangeInput", {
  fields: (t) => ({
    group: t.string({ required: true }),
    key: t.string({ required: true }),
    valueJson: t.string({ description: "the value in the admin API's JSON form, JSON-encoded; required unless delete" }),
    delete: t.boolean(),
    subkeys: t.stringList(),
  }),
});

builder.queryField("config", (t) =>
  t.field({
    type: ConfigListType,
    ...accessOf(getConfig),
    description: "The stored settings merged with the defaults (GET /config); onlyDb: only the stored ones",
    args: { onlyDb: t.arg.boolean() },
    resolve: (_root, args, ctx) => getConfig(ctx, { only_db: args.onlyDb ?? undefined }),
  }),
);

builder.queryField("configDescriptions", (t) =>
  t.field({
    type: [ConfigDescriptionType],
    ...accessOf(describeConfig),
    description: "Descriptions of every setting the server reads (GET /config/descriptions)",
    resolve: (_root, _args, ctx) => describeConfig(ctx, {}),
  }),
);

builder.queryField("needReboot", (t) =>
  t.boolean({
    ...accessOf(needReboot),
    description: "Whether a restart-only setting changed since the last restart (GET /need_reboot)",
    resolve: async (_root, _args, ctx) => (await needReboot(ctx, {})).need_reboot,
  }),
);

function parseValue(json: string | null | undefined, index: number): unknown {
  if (json === null || json === undefined) return undefined;
  try {
    return JSON.parse(json);
  } catch {
    throw Invalid(`configs.${index}.valueJson: is not JSON`, { [`configs.${index}.valueJson`]: "is not JSON" });
  }
}

builder.mutationField("updateConfig", (t) =>
  t.field({
    type: ConfigListType,
    ...accessOf(updateConfig),
    description: "Stores, merges or deletes settings (POST /config); answers the changed ones",
    args: { configs: t.arg({ type: [ConfigChangeInput], required: true }) },
    resolve: (_root, args, ctx) =>
      updateConfig(ctx, {
        configs: args.configs.map((c, i) => ({
          group: c.group,
          key: c.key,
          value: parseValue(c.valueJson, i),
          delete: c.delete ?? undefined,
          subkeys: c.subkeys ?? undefined,
        })),
      }),
  }),
);

builder.mutationField("restart", (t) =>
  t.boolean({
    ...accessOf(restart),
    description: "Reloads the configuration in every process and clears needReboot (GET /restart)",
    resolve: async (_root, _args, ctx) => {
      await restart(ctx, {});
      return true;
    },
  }),
);
