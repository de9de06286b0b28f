// The family's configuration terms: JSON ⇄ term conversion (rules 1-4), delete with subkeys (5), merge
// (6), whole-key (7) and whole-subkey (8) replacement, restart-only settings (10), and the registry.
import { describe, expect, test } from "vitest";
import { loadSettings } from "../../src/config/env.ts";
import {
  afterDelete,
  atom,
  canonicalName,
  dbKeys,
  fromJson,
  isKeyword,
  keyword,
  module,
  moduleWord,
  toJson,
  tuple,
  updatedValue,
  wholeKeyOnly,
} from "../../src/config/convert.ts";
import { applyFamilyValue, configDescriptions, familyValues, needsReboot, registeredSettings } from "../../src/config/registry.ts";
import { defaultRuntimeSettings } from "../../src/config/runtime.ts";

const json = (value: unknown, ns = "ext") => fromJson(value, ns);
const kw = (...pairs: [string, unknown][]) => pairs.map(([k, v]) => ({ tuple: [`:${k}`, v] }));
/** posts `next` over `stored` (both in JSON form) and answers the stored JSON */
const post = (group: string, key: string, stored: unknown, next: unknown) => toJson(updatedValue(group, key, stored === undefined ? undefined : json(stored), json(next)));

describe("JSON → term (rules 1-4) and back", () => {
  test("rule 1: module names of the service, its libraries and our namespace become modules", () => {
    for (const name of ["Pleroma.Emails.Mailer", "Swoosh.Adapters.SMTP", "Phoenix.Endpoint", "Tesla.Middleware.Logger", "Quack.Logger", "Ueberauth.Strategy.Twitter", "Ext.Captcha", "Oban", "Ueberauth", "ExSyslogger"])
      expect(json(name)).toEqual(module(name));
    expect(json("MyNs.Thing", "my_ns")).toEqual(module("MyNs.Thing"));
    expect(moduleWord("my_ns")).toBe("MyNs");
    for (const plain of ["Pleroma", "Pleromatic.X", "Other.Module", "ext.captcha"]) expect(json(plain)).toBe(plain);
    expect(toJson(json("Pleroma.Upload"))).toBe("Pleroma.Upload");
  });

  test("rule 2: strings starting with a colon become atoms; strings are trimmed", () => {
    expect(json(":info")).toEqual(atom("info"));
    expect(json("  :tlsv1.2 ")).toEqual(atom("tlsv1.2"));
    expect(json("  spaced value ")).toBe("spaced value");
    expect(toJson(atom("info"))).toBe(":info");
  });

  test("rule 3: a tuple object becomes a tuple, its items converted", () => {
    expect(json({ tuple: ["string", "Pleroma.Captcha.NotReal", [], ":a"] })).toEqual(tuple("string", module("Pleroma.Captcha.NotReal"), [], atom("a")));
    expect(() => json({ tuple: "nope" })).toThrow(/tuple/);
  });

  test("rule 4: an array of tuple objects becomes a keyword list (the empty list is one too)", () => {
    const value = json(kw(["name", "x"], ["limit", 5]));
    expect(value).toEqual(keyword([["name", "x"], ["limit", 5]]));
    expect(isKeyword(value)).toBe(true);
    expect(isKeyword(json([]))).toBe(true);
    expect(isKeyword(json([":none"]))).toBe(false);
    expect(isKeyword(json([{ tuple: ["a", 1] }]))).toBe(false); // the key must be an atom
  });

  test("objects become maps with converted keys; regexes stay as written", () => {
    expect(json({ ":nested_1": "v", plain: ":upload" })).toEqual({ kind: "map", entries: [[atom("nested_1"), "v"], ["plain", atom("upload")]] });
    expect(json("~r/https:\\/\\/example.com/i")).toEqual({ kind: "regex", source: "~r/https:\\/\\/example.com/i" });
  });

  test("every form round-trips to what was posted", () => {
    const posted = [
      { tuple: [":adapter", "Swoosh.Adapters.SMTP"] },
      { tuple: [":relay", "smtp.example.test"] },
      { tuple: [":port", 587] },
      { tuple: [":ssl", false] },
      { tuple: [":nested", [{ tuple: [":deep", { tuple: ["x", 1, null] }] }]] },
      { tuple: [":map", { ":a": [":b", "Pleroma.Web"], c: { tuple: [] } }] },
      { tuple: [":regex", "~r/abc/"] },
    ];
    expect(toJson(json(posted))).toEqual(posted);
    expect(toJson(json(JSON.parse(JSON.stringify(toJson(json(posted))))))).toEqual(posted);
  });

  test("our namespace's spelling of the service group and modules means the family's", () => {
    expect(canonicalName(":ext", "ext")).toBe(":pleroma");
    expect(canonicalName("Ext.Captcha", "ext")).toBe("Pleroma.Captcha");
    expect(canonicalName(":instance", "ext")).toBe(":instance");
    expect(canonicalName(":pleroma", "pleroma")).toBe(":pleroma");
  });
});

describe("storing (rules 5-8)", () => {
  test("rule 6: keyword values merge deeply, the new value winning; the new keys come after the kept ones", () => {
    const stored = kw(["name", "Old"], ["poll_limits", kw(["max_options", 4], ["max_option_chars", 50])], ["limit", 10]);
    const next = kw(["poll_limits", kw(["max_options", 9])], ["email", "a@b.test"]);
    expect(post(":pleroma", ":instance", stored, next)).toEqual(kw(["name", "Old"], ["limit", 10], ["poll_limits", kw(["max_option_chars", 50], ["max_options", 9])], ["email", "a@b.test"]));
  });

  test("rule 6: lists and other values that are not keyword lists are replaced", () => {
    expect(post(":quack", ":level", ":debug", ":info")).toBe(":info");
    expect(post(":pleroma", ":list", [":a", ":b"], [":c"])).toEqual([":c"]);
    expect(post(":pleroma", ":mixed", kw(["a", 1]), "now a string")).toBe("now a string");
    expect(post(":pleroma", ":mixed", "a string", kw(["a", 1]))).toEqual(kw(["a", 1]));
    expect(post(":pleroma", ":new", undefined, kw(["a", 1]))).toEqual(kw(["a", 1]));
  });

  test("rule 7: the whole-key settings are replaced, never merged", () => {
    const pairs = [
      [":pleroma", ":ecto_repos"],
      [":mime", ":types"],
      [":cors_plug", ":max_age"],
      [":cors_plug", ":methods"],
      [":cors_plug", ":expose"],
      [":cors_plug", ":headers"],
      [":auto_linker", ":opts"],
      [":swarm", ":node_blacklist"],
      [":logger", ":backends"],
      [":quack", ":meta"],
    ];
    for (const [group, key] of pairs) {
      expect(wholeKeyOnly(group!, key!)).toBe(true);
      expect(post(group!, key!, kw(["a", 1], ["b", 2]), kw(["c", 3]))).toEqual(kw(["c", 3]));
    }
    // the same shapes merge anywhere else
    expect(post(":cors_plug", ":credentials", kw(["a", 1]), kw(["c", 3]))).toEqual(kw(["a", 1], ["c", 3]));
    expect(post(":logger", ":console", kw(["a", 1]), kw(["c", 3]))).toEqual(kw(["a", 1], ["c", 3]));
  });

  test("rule 8: the whole-subkey settings take the new subkey as it is (put first), the rest merges", () => {
    const cases = [
      [":assets", "mascots"],
      [":emoji", "groups"],
      [":workers", "retries"],
      [":mrf_subchain", "match_actor"],
      [":mrf_keyword", "replace"],
    ];
    for (const [key, subkey] of cases) {
      const stored = kw([subkey!, kw(["a", 1], ["b", 2])], ["other", kw(["x", 1])]);
      const next = kw([subkey!, kw(["c", 3])], ["other", kw(["y", 2])]);
      expect(post(":pleroma", key!, stored, next)).toEqual(kw([subkey!, kw(["c", 3])], ["other", kw(["x", 1], ["y", 2])]));
    }
    // another group, or another subkey, merges
    expect(post(":other", ":emoji", kw(["groups", kw(["a", 1])]), kw(["groups", kw(["c", 3])]))).toEqual(kw(["groups", kw(["a", 1], ["c", 3])]));
    expect(post(":pleroma", ":emoji", kw(["shortcode", kw(["a", 1])]), kw(["shortcode", kw(["c", 3])]))).toEqual(kw(["shortcode", kw(["a", 1], ["c", 3])]));
  });

  test("rule 5: delete with subkeys drops only those keys; nothing left, or no subkeys, drops the row", () => {
    const stored = json(kw(["a", 1], ["b", 2], ["c", 3]));
    expect(toJson(afterDelete(stored, [atom("b")])!)).toEqual(kw(["a", 1], ["c", 3]));
    expect(toJson(afterDelete(stored, [atom("b"), "c"])!)).toEqual(kw(["a", 1], ["c", 3])); // "c" is a string, not the key
    expect(afterDelete(stored, [atom("a"), atom("b"), atom("c")])).toBeUndefined();
    expect(afterDelete(stored, undefined)).toBeUndefined();
    expect(afterDelete("plain", [atom("a")])).toBe("plain");
  });

  test("the db list names the stored keyword keys, or the key itself", () => {
    expect(dbKeys(json(kw(["name", "x"], ["limit", 1])), ":instance")).toEqual([":name", ":limit"]);
    expect(dbKeys(json(":info"), ":level")).toEqual([":level"]);
  });
});

describe("the registry", () => {
  const defaults = defaultRuntimeSettings(loadSettings({ INSTANCE_NAME: "Test", BASE_URL: "https://x.test" }));

  test("describes every setting the server reads, each once", () => {
    const keys = Object.entries(defaults).flatMap(([group, keys]) => Object.keys(keys as object).map((key) => `${group}.${key}`));
    expect([...new Set(registeredSettings().map((r) => r.ours.slice(0, 2).join(".")))].sort()).toEqual(keys.sort());
    const read = (path: readonly string[]) => path.reduce<any>((node, part) => node?.[part], defaults);
    for (const { ours } of registeredSettings()) expect(read(ours), ours.join(".")).not.toBeUndefined();
    const family = registeredSettings().map((r) => `${r.setting.key} ${r.setting.path.join(".")}`);
    expect(new Set(family).size).toBe(family.length);
  });

  test("descriptions list every registry setting under its family key, in the namespace's group", () => {
    expect(configDescriptions("pleroma").every((d) => d.group === ":pleroma")).toBe(true);
    const described = configDescriptions("ext");
    for (const { setting } of registeredSettings()) {
      const entry = described.find((d) => d.key === setting.key)!;
      expect(entry).toMatchObject({ group: ":ext", type: "group" });
      let children = entry.children as { key: string; children?: unknown[] }[];
      for (const part of setting.path.slice(0, -1)) children = children.find((c) => c.key === `:${part}`)!.children as typeof children;
      expect(children.find((c) => c.key === `:${setting.path.at(-1)}`)).toMatchObject({ type: setting.type, description: setting.description });
    }
  });

  test("the defaults in the family's form decode back to the defaults", () => {
    const values = familyValues(defaults);
    expect(toJson(values.get(":instance")!)).toEqual(expect.arrayContaining([{ tuple: [":name", "Test"] }, { tuple: [":poll_limits", kw(["max_options", 20], ["max_option_chars", 200], ["min_expiration", 0], ["max_expiration", 31_536_000])] }]));
    expect(toJson(values.get("Pleroma.Emails.Mailer")!)).toEqual(expect.arrayContaining([{ tuple: [":adapter", "Swoosh.Adapters.Local"] }]));
    const copy = structuredClone(defaults);
    for (const [key, value] of values) expect(applyFamilyValue(copy, key, value)).toEqual([]);
    expect(copy).toEqual(defaults);
  });

  test("stored family values reach our settings; values of the wrong type are reported and not applied", () => {
    const target = structuredClone(defaults);
    const value = json(kw(["name", "New"], ["limit", "42"], ["poll_limits", kw(["max_options", 3])], ["admin_privileges", [":users_read"]], ["unknown", 1]));
    expect(applyFamilyValue(target, ":instance", value)).toEqual([]);
    expect(target.instance).toMatchObject({ name: "New", limit: 42, poll_limits: { max_options: 3, max_option_chars: 200 }, admin_privileges: ["users_read"] });
    expect(applyFamilyValue(target, "Pleroma.Emails.Mailer", json(kw(["adapter", "Swoosh.Adapters.SMTP"], ["relay", "smtp.x.test"], ["ssl", true])))).toEqual([]);
    expect(target.mailer).toMatchObject({ transport: "smtp", smtp: { host: "smtp.x.test", secure: true } });

    const bad = applyFamilyValue(target, ":instance", json(kw(["limit", 0], ["registrations_open", "yes"], ["moderator_privileges", [":fly"]])));
    expect(bad).toHaveLength(3);
    expect(bad[0]).toMatch(/:pleroma :instance :limit: expected "integer"/);
    expect(target.instance).toMatchObject({ limit: 42, registrations_open: defaults.instance.registrations_open });
  });

  test("rule 10: restart-only settings", () => {
    for (const key of [":hackney_pools", ":connections_pool", ":pools", ":chat"]) expect(needsReboot(":pleroma", key, [])).toBe(true);
    expect(needsReboot(":pleroma", ":instance", ["upload_limit"])).toBe(true);
    expect(needsReboot(":pleroma", ":instance", ["name", "limit"])).toBe(false);
    expect(needsReboot(":pleroma", "Pleroma.Captcha", ["seconds_valid"])).toBe(true);
    expect(needsReboot(":pleroma", "Pleroma.Captcha", ["enabled"])).toBe(false);
    expect(needsReboot(":pleroma", "Pleroma.Upload", ["proxy_remote"])).toBe(true);
    expect(needsReboot(":other", ":chat", [])).toBe(false);
  });
});
