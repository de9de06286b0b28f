// ctl config …: the database-stored runtime configuration (needs CONFIGURABLE_FROM_DATABASE=true, as the
// admin API does). dump → JSON that load takes back; migrate converts a family server's config first.
import fs from "node:fs";
import { flag, need, type Command } from "../command.ts";
import { familyConfigItems, type ConfigItem } from "../config-migrate.ts";

interface ConfigList {
  configs: (ConfigItem & { db?: string[] })[];
  need_reboot: boolean;
}

function readJson(file: string): unknown {
  const text = file === "-" ? fs.readFileSync(0, "utf8") : fs.readFileSync(file, "utf8");
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new Error(`${file}: not JSON (${error instanceof Error ? error.message : error})`);
  }
}

const loaded = (r: ConfigList) => [`stored ${r.configs.length} setting(s): ${r.configs.map((c) => `${c.group} ${c.key}`).join(", ")}`, ...(r.need_reboot ? ["some changes take effect after a restart"] : [])];

export const configCommands: Record<string, Command> = {
  dump: {
    usage: "[--only-db]",
    summary: "prints every setting (defaults merged with stored ones; --only-db: stored ones) as JSON",
    async run(inv) {
      const r = await (await inv.backend()).call<ConfigList>("config.dump", { only_db: flag(inv, "only-db") ?? false });
      console.log(JSON.stringify(r, null, 2)); // JSON either way: it is what `config load` reads
    },
  },
  load: {
    usage: "<file.json | ->",
    summary: "stores settings from `config dump` output ({configs: [...]} or [{group, key, value}])",
    async run(inv) {
      const [file] = need(inv, 1, "<file>");
      const doc = readJson(file);
      if (!Array.isArray(doc) && !Array.isArray((doc as { configs?: unknown } | null)?.configs)) throw new Error(`${file}: expected {configs: [...]} or [{group, key, value}] (config migrate converts other forms)`);
      const configs = familyConfigItems(doc);
      const r = await (await inv.backend()).call<ConfigList>("config.load", { configs });
      inv.out.result(r, () => loaded(r));
    },
  },
  migrate: {
    usage: "<file.json | -> [--dry-run]",
    summary: "converts a family server's config (list or nested config.exs form, see docs/cli.md) and stores it",
    async run(inv) {
      const [file] = need(inv, 1, "<file>");
      const configs = familyConfigItems(readJson(file));
      if (flag(inv, "dry-run")) return inv.out.result({ configs }, () => JSON.stringify({ configs }, null, 2));
      const r = await (await inv.backend()).call<ConfigList>("config.load", { configs });
      inv.out.result(r, () => loaded(r));
    },
  },
};
