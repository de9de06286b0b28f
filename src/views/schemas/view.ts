// What a view sends, as a zod schema a route names (`view:` in src/http/routes/route.ts) and the OpenAPI
// document prints as the success response. The schemas live here, beside the renderers rather than
// inside them, because they are one graph of their own (an Account is inside a Status, a Notification,
// a Report, a Chat…) that needs none of the renderers' loading code, and so a change to how a view
// loads its data never touches the contract it keeps.
//
// A schema is a function of the namespace words: the family's extension objects are keyed by the
// configured words (`<ns>`, `<family>`), so the exact shape depends on the settings. Each is built once
// per pair of words. Extension objects are described loosely (present, an object, any fields): their
// keys vary with the configuration and their fields grow with the family; everything else is exact
// (no unknown fields, null and absent told apart).
import { z } from "zod";

export interface Words {
  namespace: string;
  family: string;
}

export type ViewSchema<S extends z.ZodType = z.ZodType> = (words: Words) => S;

function cached<S extends z.ZodType>(build: (w: Words) => S): ViewSchema<S> {
  const byWords = new Map<string, S>();
  return (w) => {
    const key = `${w.namespace}\u0000${w.family}`;
    let s = byWords.get(key);
    if (!s) byWords.set(key, (s = build(w)));
    return s;
  };
}

/**
 * A named entity schema (Account, Status…): a component of the OpenAPI document, `$ref`ed where it
 * nests. (zod keeps the last schema of an id; one document is printed from one pair of words.)
 */
export function view<S extends z.ZodType>(name: string, build: (w: Words) => S): ViewSchema<S> {
  // registered on the very instance (`.meta()` would clone it, and a recursive schema refers to itself)
  return cached((w) => {
    const schema = build(w);
    z.globalRegistry.add(schema, { id: name });
    return schema;
  });
}

/** An unnamed shape, for a route's own small answers. */
export function shape<S extends z.ZodType>(build: (w: Words) => S): ViewSchema<S> {
  return cached(build);
}

/** An array of a view. */
export function listOf(item: ViewSchema): ViewSchema {
  return cached((w) => z.array(item(w)));
}

/** The namespace-keyed extension objects an entity carries, each present and loose. */
export function extensions(w: Words, which: { namespace?: boolean; family?: boolean }) {
  const out: Record<string, z.ZodType> = {};
  if (which.family) out[w.family] = z.looseObject({});
  if (which.namespace) out[w.namespace] = z.looseObject({});
  return out;
}

/** An ISO 8601 timestamp as the views write it (`toISOString()`). */
export const timestamp = () => z.string();
export const nullable = <S extends z.ZodType>(s: S) => s.nullable();
