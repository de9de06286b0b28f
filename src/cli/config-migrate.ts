// `ctl config migrate`: a family server's configuration, as JSON, → the admin API's config items
// ({group, key, value} in the admin API's JSON form, docs/cli.md "config"). Accepted shapes:
//  - a list of items `[{group, key, value}]`, or `{configs: [...]}` (what `GET /api/<ns>/admin/config` and
//    `ctl config dump` answer): taken as they are;
//  - the nested form of a config.exs, `{":pleroma": {":instance": {"name": "x", "limit": 5000}}}`: the
//    first level is the group, the second the key, and below it every JSON object is a keyword list
//    (`config :pleroma, :instance, name: "x"`), so `{"name": "x"}` becomes `[{"tuple": [":name", "x"]}]`.
//    Group and key names get their leading colon when it is missing (module names such as
//    `Pleroma.Web.Endpoint` stay as they are); values already in the admin form (`{"tuple": …}`) are kept.
import type { Json } from "../config/convert.ts";

export interface ConfigItem {
  group: string;
  key: string;
  value: Json;
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v);
/** Atom names get their colon; module names (capitalised, dotted) do not. */
const atomName = (name: string) => (name.startsWith(":") || /^[A-Z][\w]*(\.[A-Z]\w*)*$/.test(name) ? name : `:${name}`);

function keywordValue(value: unknown): Json {
  if (Array.isArray(value)) return value.map(keywordValue);
  if (!isObject(value)) return value as Json;
  if ("tuple" in value) return value as Json;
  return Object.entries(value).map(([k, v]) => ({ tuple: [atomName(k), keywordValue(v)] }));
}

export function familyConfigItems(doc: unknown): ConfigItem[] {
  const list = isObject(doc) && Array.isArray(doc.configs) ? doc.configs : doc;
  if (Array.isArray(list)) {
    return list.map((item, i) => {
      if (!isObject(item) || typeof item.group !== "string" || typeof item.key !== "string" || !("value" in item)) throw new Error(`item ${i}: expected {group, key, value}`);
      return { group: item.group, key: item.key, value: item.value as Json };
    });
  }
  if (!isObject(doc)) throw new Error("expected a list of {group, key, value} or an object of groups");
  return Object.entries(doc).flatMap(([group, keys]) => {
    if (!isObject(keys)) throw new Error(`group ${group}: expected an object of keys`);
    return Object.entries(keys).map(([key, value]) => ({ group: atomName(group), key: atomName(key), value: keywordValue(value) }));
  });
}
