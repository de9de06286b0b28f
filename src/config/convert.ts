// The family's configuration values (Elixir terms) and their JSON form in the admin API. A posted JSON
// value becomes a Term by the spec's conversion rules; a Term is stored, and answered, as its JSON form
// again, so what was posted comes back as it was (after the family's normalisation: strings trimmed).
// Merging and deleting follow the family's ConfigDB rules (admin-api.md, "Runtime configuration" 5-8).

export interface Atom {
  kind: "atom";
  name: string;
}
export interface Module {
  kind: "module";
  name: string;
}
export interface Regex {
  kind: "regex";
  source: string;
}
export interface Tuple {
  kind: "tuple";
  items: Term[];
}
export interface MapTerm {
  kind: "map";
  entries: [Term, Term][];
}
export type Term = null | boolean | number | string | Atom | Module | Regex | Tuple | MapTerm | Term[];
/** A keyword list: a list of `{atom, value}` pairs (the family's usual setting value). */
export type Keyword = (Tuple & { items: [Atom, Term] })[];

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export class ConvertError extends Error {}

export const atom = (name: string): Atom => ({ kind: "atom", name });
export const module = (name: string): Module => ({ kind: "module", name });
export const tuple = (...items: Term[]): Tuple => ({ kind: "tuple", items });
export const keyword = (entries: [string, Term][]): Keyword => entries.map(([k, v]) => tuple(atom(k), v) as Keyword[number]);

const tagged = (t: Term, kind: string): boolean => t !== null && typeof t === "object" && !Array.isArray(t) && t.kind === kind;
export const isAtom = (t: Term): t is Atom => tagged(t, "atom");
export const isModule = (t: Term): t is Module => tagged(t, "module");
export const isTuple = (t: Term): t is Tuple => tagged(t, "tuple");

/** "ext" → "Ext", "my_ns" → "MyNs": the namespace word as an Elixir module prefix. */
export function moduleWord(namespace: string): string {
  return namespace
    .split("_")
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join("");
}

const LIBRARY_PREFIXES = ["Pleroma", "Phoenix", "Tesla", "Quack", "Ueberauth", "Swoosh"];
const BARE_MODULES = new Set(["Oban", "Ueberauth", "ExSyslogger", "ConcurrentLimiter"]);

/** Rule 1: names under the service's (or our namespace's) or its libraries' module namespaces. */
export function isModuleName(value: string, namespace: string): boolean {
  return BARE_MODULES.has(value) || [...LIBRARY_PREFIXES, moduleWord(namespace)].some((prefix) => value.startsWith(`${prefix}.`));
}

/** Rules 1-4: the admin API's JSON → a term. */
export function fromJson(value: unknown, namespace: string): Term {
  if (value === null || typeof value === "boolean" || typeof value === "number") return value;
  if (typeof value === "string") return fromString(value, namespace);
  if (Array.isArray(value)) return value.map((item) => fromJson(item, namespace));
  if (typeof value === "object") {
    const object = value as Record<string, unknown>;
    if ("tuple" in object) {
      if (!Array.isArray(object.tuple)) throw new ConvertError("a tuple object needs an array under `tuple`");
      return tuple(...object.tuple.map((item) => fromJson(item, namespace)));
    }
    return { kind: "map", entries: Object.entries(object).map(([k, v]) => [fromString(k, namespace), fromJson(v, namespace)]) };
  }
  throw new ConvertError(`unsupported value: ${typeof value}`);
}

function fromString(raw: string, namespace: string): Term {
  const value = raw.trim();
  if (value.startsWith("~r")) return { kind: "regex", source: value };
  if (value.startsWith(":")) return atom(value.slice(1));
  if (isModuleName(value, namespace)) return module(value);
  return value;
}

/** A term → the admin API's JSON (what GET /config answers and what is stored). */
export function toJson(term: Term): Json {
  if (term === null || typeof term !== "object") return term;
  if (Array.isArray(term)) return term.map(toJson);
  switch (term.kind) {
    case "atom":
      return `:${term.name}`;
    case "module":
      return term.name;
    case "regex":
      return term.source;
    case "tuple":
      return { tuple: term.items.map(toJson) };
    case "map":
      return Object.fromEntries(term.entries.map(([k, v]) => [String(toJson(k)), toJson(v)]));
  }
}

/** Keyword.keyword?/1: a list of two-element tuples keyed by atoms (the empty list is one). */
export function isKeyword(term: Term | undefined): term is Keyword {
  return Array.isArray(term) && term.every((item) => isTuple(item) && item.items.length === 2 && isAtom(item.items[0]));
}

export const keywordKeys = (list: Keyword): string[] => list.map((item) => item.items[0].name);

export function keywordGet(list: Keyword, key: string): Term | undefined {
  return list.find((item) => item.items[0].name === key)?.items[1];
}

/** Keyword.put/3: the pair goes first, earlier pairs of that key are dropped. */
export function keywordPut(list: Keyword, key: string, value: Term): Keyword {
  return [tuple(atom(key), value) as Keyword[number], ...list.filter((item) => item.items[0].name !== key)];
}

export function keywordDrop(list: Keyword, keys: readonly string[]): Keyword {
  return list.filter((item) => !keys.includes(item.items[0].name));
}

/** Keyword.merge/3: pairs of `a` whose keys `b` lacks, then `b`'s pairs (a shared key resolved by `resolve`). */
function keywordMerge(a: Keyword, b: Keyword, resolve: (left: Term, right: Term) => Term): Keyword {
  const bKeys = new Set(keywordKeys(b));
  const pending = [...a];
  const merged = b.map((pair) => {
    const key = pair.items[0].name;
    const index = pending.findIndex((item) => item.items[0].name === key);
    if (index < 0) return pair;
    const [left] = pending.splice(index, 1);
    return tuple(atom(key), resolve(left!.items[1], pair.items[1])) as Keyword[number];
  });
  return [...a.filter((item) => !bKeys.has(item.items[0].name)), ...merged];
}

/** Nested keyword lists merge key by key; anything else is replaced by the newer value. */
export function deepMerge(left: Term, right: Term): Term {
  return isKeyword(left) && isKeyword(right) ? keywordMerge(left, right, deepMerge) : right;
}

/** Rule 7: settings only ever replaced whole ("[earlier]" entries included). */
const WHOLE_KEY: readonly (readonly [string, string])[] = [
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

/** Rule 8: subkeys replaced whole when both the stored and the new value carry them. */
const WHOLE_SUBKEY: readonly (readonly [string, string, string])[] = [
  [":pleroma", ":assets", "mascots"],
  [":pleroma", ":emoji", "groups"],
  [":pleroma", ":workers", "retries"],
  [":pleroma", ":mrf_subchain", "match_actor"],
  [":pleroma", ":mrf_keyword", "replace"],
];

export function wholeKeyOnly(group: string, key: string): boolean {
  return WHOLE_KEY.some(([g, k]) => g === group && k === key);
}

/** ConfigDB.merge_group: deep merge, then the whole-subkey settings take the new value as it is. */
export function mergeGroup(group: string, key: string, old: Keyword, next: Keyword): Term {
  let merged = deepMerge(old, next) as Keyword;
  const shared = new Set(keywordKeys(old).filter((k) => keywordKeys(next).includes(k)));
  for (const [g, k, subkey] of WHOLE_SUBKEY) {
    if (g === group && k === key && shared.has(subkey)) merged = keywordPut(merged, subkey, keywordGet(next, subkey)!);
  }
  return merged;
}

/** Rules 6-8: the value stored after posting `next` over `stored` (undefined: nothing stored yet). */
export function updatedValue(group: string, key: string, stored: Term | undefined, next: Term): Term {
  if (stored === undefined || wholeKeyOnly(group, key)) return next;
  return isKeyword(stored) && isKeyword(next) ? mergeGroup(group, key, stored, next) : next;
}

/**
 * Rule 5: `delete` with `subkeys` drops only those keys of a keyword value; the row goes when nothing
 * is left (undefined), or when no subkeys were given.
 */
export function afterDelete(stored: Term, subkeys: readonly Term[] | undefined): Term | undefined {
  if (!subkeys) return undefined;
  if (!isKeyword(stored)) return stored;
  const names = subkeys.filter(isAtom).map((s) => s.name);
  const left = keywordDrop(stored, names);
  return left.length ? left : undefined;
}

/** The `db` list of a config object: the keyword keys stored in the database, or the key itself. */
export function dbKeys(term: Term, key: string): string[] {
  return isKeyword(term) ? keywordKeys(term).map((k) => `:${k}`) : [key];
}

/** Our namespace's spelling of the service's group and modules (`:ext`, `Ext.Captcha`) means the family's. */
export function canonicalName(name: string, namespace: string): string {
  const word = moduleWord(namespace);
  if (name === `:${namespace}`) return ":pleroma";
  if (name.startsWith(`${word}.`)) return `Pleroma.${name.slice(word.length + 1)}`;
  return name;
}
