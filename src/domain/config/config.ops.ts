// Runtime configuration through the admin API (admin-api.md, "Runtime configuration"): settings stored
// in config_entries in the family's JSON form, converted and merged by the family's rules
// (src/config/convert.ts), applied to `ctx.config` through the registry (src/config/registry.ts) in
// every process at once. Only admins, and only with CONFIGURABLE_FROM_DATABASE on.
import { logAction } from "../moderation-log/log.ts";
import { z } from "zod";
import {
  afterDelete,
  canonicalName,
  ConvertError,
  dbKeys,
  fromJson,
  isAtom,
  isKeyword,
  keywordKeys,
  mergeGroup,
  toJson,
  updatedValue,
  type Json,
  type Term,
} from "../../config/convert.ts";
import { applyFamilyValue, configDescriptions, familyValues, INTERNAL_GROUP, NEED_REBOOT_KEY, needsReboot, SERVICE_GROUP, serviceGroupName } from "../../config/registry.ts";
import { defaultRuntimeSettings } from "../../config/runtime.ts";
import type { ConfigEntry } from "../../generated/prisma/client.ts";
import { requireAdmin } from "../auth/policy.ts";
import type { Ctx } from "../context.ts";
import { Invalid } from "../../kernel/errors.ts";
import { bool } from "../inputs.ts";
import { operation } from "../operation.ts";

export const CONFIG_DISABLED = "You must enable configurable_from_database in your config file.";

export interface ConfigObject {
  group: string;
  key: string;
  value: Json;
  /** the keyword keys (or the key) stored in the database */
  db?: string[];
}

export interface ConfigList {
  configs: ConfigObject[];
  need_reboot: boolean;
}

/** Admins only (checked first, as the family's pipeline does), then the feature switch. */
function authorize(ctx: Ctx) {
  requireAdmin(ctx);
  if (!ctx.settings.configurableFromDatabase) throw Invalid(CONFIG_DISABLED);
}

const needRebootWhere = { group_key: { group: INTERNAL_GROUP, key: NEED_REBOOT_KEY } };

async function needRebootFlag(ctx: Ctx): Promise<boolean> {
  return !!(await ctx.db.configEntry.findUnique({ where: needRebootWhere }));
}

/** A stored value as a term; a row written around the API that does not convert is shown as it is. */
function storedTerm(ctx: Ctx, row: Pick<ConfigEntry, "value">): Term | undefined {
  try {
    return fromJson(row.value, ctx.settings.namespace);
  } catch {
    return undefined;
  }
}

function render(ctx: Ctx, row: Pick<ConfigEntry, "group" | "key" | "value">): ConfigObject {
  const term = storedTerm(ctx, row);
  const db = term === undefined ? [row.key] : dbKeys(term, row.key);
  return { group: row.group, key: row.key, value: row.value as Json, ...(db.length ? { db } : {}) };
}

/** Whether a stored row is this family key of the service group (our namespace's spelling included). */
function isServiceKey(ctx: Ctx, row: Pick<ConfigEntry, "group" | "key">, key: string): boolean {
  const ns = ctx.settings.namespace;
  return canonicalName(row.group, ns) === SERVICE_GROUP && canonicalName(row.key, ns) === key;
}

/** Announces the change to every process (this one included) after applying it here. */
export async function applyEverywhere(ctx: Ctx) {
  await ctx.config.reload();
  ctx.bus.publish("config_changed", {});
}

export const getConfig = operation({
  name: "config.get",
  access: { scopes: ["admin:read"], role: "admin" },
  input: z.object({ only_db: bool().optional() }),
  authorize,
  async run(ctx, input): Promise<ConfigList> {
    const all = await ctx.db.configEntry.findMany({ orderBy: { id: "asc" } });
    const need_reboot = all.some((r) => r.group === INTERNAL_GROUP && r.key === NEED_REBOOT_KEY);
    const rows = all.filter((r) => r.group !== INTERNAL_GROUP);
    if (input.only_db) return { configs: rows.map((row) => render(ctx, row)), need_reboot };

    // the registry's defaults in the family's form, merged with what is stored (as the family merges)
    const shown = new Set<number>();
    const configs: ConfigObject[] = [];
    for (const [key, defaults] of familyValues(defaultRuntimeSettings(ctx.settings))) {
      const row = rows.find((r) => isServiceKey(ctx, r, key));
      const stored = row && storedTerm(ctx, row);
      if (!row || stored === undefined) {
        configs.push({ group: serviceGroupName(ctx.settings.namespace), key, value: toJson(defaults) });
        continue;
      }
      shown.add(row.id);
      const merged = isKeyword(stored) ? mergeGroup(SERVICE_GROUP, key, defaults, stored) : stored;
      configs.push({ ...render(ctx, row), value: toJson(merged) });
    }
    configs.push(...rows.filter((r) => !shown.has(r.id)).map((row) => render(ctx, row)));
    return { configs, need_reboot };
  },
});

const configInput = z.object({
  group: z.string(),
  key: z.string(),
  value: z.unknown().optional(),
  delete: bool().optional(),
  subkeys: z.array(z.string()).optional(),
});

type Change = { group: string; key: string } & ({ delete: true; subkeys?: Term[] } | { delete?: false; value: Term });

/** Converts every posted item first: one bad item changes nothing. */
function changes(ctx: Ctx, configs: z.output<typeof configInput>[]): Change[] {
  const ns = ctx.settings.namespace;
  return configs.map((c, i) => {
    const group = c.group.trim();
    const key = c.key.trim();
    // groups are atoms; rows in our own form (group "instance") are for operators writing the table
    if (!group.startsWith(":")) throw Invalid(`configs.${i}.group: must be an atom such as "${serviceGroupName(ns)}"`, { [`configs.${i}.group`]: "must be an atom" });
    if (group === INTERNAL_GROUP) throw Invalid(`configs.${i}.group: ${INTERNAL_GROUP} is reserved`, { [`configs.${i}.group`]: "is reserved" });
    if (c.delete) return { group, key, delete: true, subkeys: c.subkeys?.map((s) => fromJson(s, ns)) };
    if (c.value === undefined || c.value === null) throw Invalid(`Missing field: configs.${i}.value.`, { [`configs.${i}.value`]: "is required" });
    try {
      return { group, key, value: fromJson(c.value, ns) };
    } catch (error) {
      if (error instanceof ConvertError) throw Invalid(`configs.${i}.value: ${error.message}`, { [`configs.${i}.value`]: error.message });
      throw error;
    }
  });
}

const keysOf = (term: Term | undefined) => (isKeyword(term) ? keywordKeys(term) : []);

export const updateConfig = operation({
  name: "config.update",
  access: { scopes: ["admin:write"], role: "admin" },
  input: z.object({ configs: z.array(configInput) }),
  authorize,
  async run(ctx, input): Promise<ConfigList> {
    const ns = ctx.settings.namespace;
    const items = changes(ctx, input.configs);
    const updated = await ctx.db.$transaction(async (tx) => {
      const saved: ConfigEntry[] = [];
      let reboot = false;
      for (const item of items) {
        const [group, key] = [canonicalName(item.group, ns), canonicalName(item.key, ns)];
        // the service group is stored under the namespace's name; a row stored under the other spelling is the same setting
        const storedGroup = group === SERVICE_GROUP ? serviceGroupName(ns) : item.group;
        const groups = group === SERVICE_GROUP ? [...new Set([storedGroup, SERVICE_GROUP, item.group])] : [item.group];
        const found = await tx.configEntry.findMany({ where: { group: { in: groups }, key: item.key }, orderBy: { id: "asc" } });
        const row = found.find((r) => r.group === item.group) ?? found.find((r) => r.group === storedGroup) ?? found[0];
        const where = { id: row?.id ?? -1 };
        const stored = row ? storedTerm(ctx, row) : undefined;
        if (item.delete) {
          if (!row) continue; // the family skips deleting what is not stored
          const touched = item.subkeys ? item.subkeys.filter(isAtom).map((s) => s.name) : keysOf(stored);
          reboot ||= needsReboot(group, key, touched);
          // a row that no longer converts can only go as a whole
          const left = stored === undefined ? undefined : afterDelete(stored, item.subkeys);
          if (left === undefined) await tx.configEntry.delete({ where });
          else saved.push(await tx.configEntry.update({ where, data: { value: toJson(left) as object } }));
          continue;
        }
        const next = updatedValue(group, key, stored, item.value);
        if (group === SERVICE_GROUP) {
          // a known setting must fit its type before it is stored (the family would crash later)
          const problems = applyFamilyValue(defaultRuntimeSettings(ctx.settings), key, next, serviceGroupName(ns));
          if (problems.length) throw Invalid(`Invalid value: ${problems.join("; ")}`);
        }
        reboot ||= needsReboot(group, key, keysOf(item.value));
        const value = toJson(next) as object;
        saved.push(row ? await tx.configEntry.update({ where, data: { value } }) : await tx.configEntry.create({ data: { group: storedGroup, key: item.key, value } }));
      }
      if (reboot) await tx.configEntry.upsert({ where: needRebootWhere, create: { group: INTERNAL_GROUP, key: NEED_REBOOT_KEY, value: true }, update: { value: true } });
      return saved;
    });
    await applyEverywhere(ctx);
    await logAction(ctx, { action: "config_update", keys: items.map((item) => `${item.group} ${item.key}${item.delete ? " (deleted)" : ""}`) });
    return { configs: updated.map((row) => render(ctx, row)), need_reboot: await needRebootFlag(ctx) };
  },
});

export const describeConfig = operation({
  name: "config.descriptions",
  access: { scopes: ["admin:read"], role: "admin" },
  input: z.object({}),
  authorize,
  async run(ctx) {
    return configDescriptions(ctx.settings.namespace);
  },
});

export const needReboot = operation({
  name: "config.needReboot",
  access: { scopes: ["admin:read"], role: "admin" },
  input: z.object({}),
  authorize,
  async run(ctx) {
    return { need_reboot: await needRebootFlag(ctx) };
  },
});

/**
 * The family restarts the application; every setting here applies at run time, so a restart is a
 * reload in every process, after which nothing waits for one.
 */
export const restart = operation({
  name: "config.restart",
  access: { scopes: ["admin:write"], role: "admin" },
  input: z.object({}),
  authorize,
  async run(ctx) {
    await ctx.db.configEntry.deleteMany({ where: { group: INTERNAL_GROUP, key: NEED_REBOOT_KEY } });
    await applyEverywhere(ctx);
    return {};
  },
});
