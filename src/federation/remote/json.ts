// Reading ActivityStreams JSON as servers send it: a property may be a value, an object with an `id`,
// or an array of either; the public collection has three spellings. Used on the signed payload of an
// inbox delivery (so that extension properties such as `_misskey_content` are kept) and on Fedify's
// compact rendition of a fetched object.
export type Json = Record<string, unknown>;

export const PUBLIC_IDS = new Set(["https://www.w3.org/ns/activitystreams#Public", "as:Public", "Public"]);

export const isObject = (v: unknown): v is Json => v !== null && typeof v === "object" && !Array.isArray(v);

export function list(v: unknown): unknown[] {
  if (v === undefined || v === null) return [];
  return Array.isArray(v) ? v : [v];
}

/** The id of a reference: the string itself, or an object's `id` (or `href`, for links). */
export function idOf(v: unknown): string | null {
  if (typeof v === "string") return v;
  if (isObject(v)) {
    if (typeof v.id === "string") return v.id;
    if (typeof v.href === "string") return v.href;
  }
  return null;
}

export const ids = (v: unknown): string[] => list(v).map(idOf).filter((x): x is string => !!x);

export function str(v: unknown): string | null {
  if (typeof v === "string") return v;
  if (Array.isArray(v)) return v.map(str).find((x) => x !== null) ?? null;
  return null;
}

export function types(v: Json): string[] {
  return list(v.type).filter((t): t is string => typeof t === "string");
}

/** The first http(s) URL of a `url` value, a text/html link first. */
export function urlOf(v: unknown): string | null {
  const items = list(v);
  const html = items.find((u) => isObject(u) && typeof u.mediaType === "string" && u.mediaType.startsWith("text/html"));
  for (const item of html ? [html, ...items] : items) {
    const href = typeof item === "string" ? item : isObject(item) ? str(item.href) ?? str(item.url) : null;
    if (href && /^https?:\/\//i.test(href)) return href;
  }
  return null;
}

/** A language-mapped text: the plain property, else the first entry of its map, with the map's language. */
export function mapped(json: Json, name: string): { text: string | null; language: string | null } {
  const plain = str(json[name]);
  const map = json[`${name}Map`];
  if (isObject(map)) {
    const entries = Object.entries(map).filter((e): e is [string, string] => typeof e[1] === "string");
    const same = plain !== null ? entries.find(([, v]) => v === plain) : undefined;
    const chosen = same ?? entries[0];
    if (chosen) return { text: plain ?? chosen[1], language: chosen[0] === "und" ? null : chosen[0] };
  }
  return { text: plain, language: null };
}

export function date(v: unknown): Date | null {
  const s = str(v);
  if (!s) return null;
  const d = new Date(s);
  return Number.isNaN(d.getTime()) ? null : d;
}

export const sameOrigin = (a: string, b: string) => {
  try {
    return new URL(a).origin === new URL(b).origin;
  } catch {
    return false;
  }
};
