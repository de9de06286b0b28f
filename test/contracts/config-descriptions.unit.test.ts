// Configuration descriptions (issue 18, criterion 2): every runtime setting the code reads has a
// description in GET {admin}/config/descriptions (with a type, a label and a description), so the
// family's admin front end and our admin UI can edit it. The code's reads are found by scanning the
// sources for `config.get("group", "key")` and `config.group("group")`; a read this scan cannot
// resolve (a computed key) counts as a read of its whole group.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { loadSettings } from "../../src/config/env.ts";
import { configDescriptions, registeredSettings } from "../../src/config/registry.ts";
import { defaultRuntimeSettings } from "../../src/config/runtime.ts";

const root = path.resolve(import.meta.dirname, "../..");
const SOURCES = ["src", "compat-rest"].map((d) => path.join(root, d));

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === "generated" ? [] : sourceFiles(full);
    return e.name.endsWith(".ts") ? [full] : [];
  });
}

/** `group` or `group.key` for every read of the runtime settings in the sources. */
function settingReads(): Map<string, string[]> {
  const reads = new Map<string, string[]>();
  const add = (name: string, where: string) => reads.set(name, [...(reads.get(name) ?? []), where]);
  for (const file of SOURCES.flatMap(sourceFiles)) {
    const text = fs.readFileSync(file, "utf8");
    const where = path.relative(root, file);
    for (const m of text.matchAll(/config\.get\(\s*"(\w+)"\s*,\s*("(\w+)"|[^)]+)\)/g)) add(m[3] ? `${m[1]}.${m[3]}` : m[1]!, where);
    for (const m of text.matchAll(/config\.group\(\s*"(\w+)"\s*\)/g)) add(m[1]!, where);
  }
  return reads;
}

describe("configuration descriptions cover every setting the code reads", () => {
  const defaults = defaultRuntimeSettings(loadSettings({ DATA_DIR: "/tmp/unused" }));
  const registered = registeredSettings();
  const describedKeys = (ours: string) => registered.filter((r) => r.ours.join(".") === ours || r.ours.join(".").startsWith(`${ours}.`));

  test("the scan finds the server's reads", () => {
    const reads = settingReads();
    expect(reads.size).toBeGreaterThan(15);
    expect(reads.has("instance.limit")).toBe(true);
    expect(reads.has("mailer")).toBe(true);
  });

  test("every read names a setting (or group) whose every key is described", () => {
    const missing: string[] = [];
    for (const [name, files] of settingReads()) {
      const [group, key] = name.split(".") as [string, string | undefined];
      const keys = key ? [key] : Object.keys((defaults as Record<string, object>)[group] ?? {});
      if (keys.length === 0) missing.push(`${name} (unknown group, read in ${files.join(", ")})`);
      for (const k of keys) if (describedKeys(`${group}.${k}`).length === 0) missing.push(`${group}.${k} (read in ${files.join(", ")})`);
    }
    expect(missing, `settings read without a description:\n${missing.join("\n")}`).toEqual([]);
  });

  test("every runtime setting is described with a type, a label and a description, under the namespace's group", () => {
    for (const [group, keys] of Object.entries(defaults)) for (const key of Object.keys(keys)) expect(describedKeys(`${group}.${key}`).length, `${group}.${key}`).toBeGreaterThan(0);
    const described = configDescriptions("ext");
    for (const { setting, ours } of registered) {
      const entry = described.find((d) => d.key === setting.key);
      expect(entry, ours.join(".")).toMatchObject({ group: ":ext", type: "group", label: expect.any(String) });
      let children = entry!.children as { key: string; label: string; type: unknown; description: string; children?: unknown[] }[];
      for (const part of setting.path.slice(0, -1)) children = children.find((c) => c.key === `:${part}`)!.children as typeof children;
      const child = children.find((c) => c.key === `:${setting.path.at(-1)}`);
      expect(child, ours.join(".")).toBeDefined();
      expect(child!.label.length, `${ours.join(".")} label`).toBeGreaterThan(0);
      expect(child!.description.length, `${ours.join(".")} description`).toBeGreaterThan(10);
      expect(child!.type, `${ours.join(".")} type`).toBeTruthy();
    }
  });
});
