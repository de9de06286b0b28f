// zod helpers for parameters that may arrive as strings (urlencoded or multipart forms, query strings):
// booleans, numbers and arrays are coerced the way the family's servers cast them. Shared by operation
// schemas and route declarations, so one schema serves every surface.
import { z } from "zod";

const TRUE = new Set(["true", "1", "on", "yes", "t"]);
const FALSE = new Set(["false", "0", "off", "no", "f", ""]);

export const bool = () =>
  z.preprocess((v) => {
    if (typeof v !== "string") return v;
    const s = v.toLowerCase();
    return TRUE.has(s) ? true : FALSE.has(s) ? false : v;
  }, z.boolean());

export const int = () => z.preprocess((v) => (typeof v === "string" && /^-?\d+$/.test(v) ? Number(v) : v), z.number().int());

/**
 * `ids[]=a&ids[]=b`, `ids=a` and JSON arrays all become an array. Past 20 items the query-string
 * parser (qs) hands over an object keyed "0", "1", …: its values are the array.
 */
export const array = <T extends z.ZodType>(item: T) =>
  z.preprocess((v) => {
    if (v === undefined || Array.isArray(v)) return v;
    if (v && typeof v === "object" && Object.keys(v).every((k) => /^\d+$/.test(k)))
      return Object.entries(v).sort(([a], [b]) => Number(a) - Number(b)).map(([, x]) => x);
    return [v];
  }, z.array(item));

/** Scopes as "read write", "read,write" or an array. */
export const scopeList = () => z.union([z.string(), z.array(z.string())]);

/**
 * An e-mail address as the family's servers accept it (the HTML form's rule): a domain without a dot
 * (`admin@localhost`) is fine, as operators sign in so outside test suites.
 */
export const emailAddress = () => z.email({ pattern: z.regexes.html5Email });

export function isEmailAddress(value: string): boolean {
  return emailAddress().safeParse(value).success;
}
