// Limits every input obeys, whichever surface it came through (REST, GraphQL, tRPC, CLI): text that
// PostgreSQL can store (no NUL, no unpaired UTF-16 surrogate), bounded nesting, and a maximum length on
// every string and array a zod schema accepts. See docs/security.md.
import { z } from "zod";
import { Invalid, Unprocessable } from "../kernel/errors.ts";

/** The default cap of a schema string that declares no `.max()` of its own (characters). */
export const MAX_STRING = 10_000;
/** The cap of user-written text (status, bio, chat message, descriptions): well above any instance's limits. */
export const MAX_TEXT = 100_000;
/** The cap of a pasted list (follow/block/mute imports as a form field). */
export const MAX_LIST_TEXT = 1_000_000;
/** The default cap of a schema array that declares no `.max()` of its own (items). */
export const MAX_ARRAY = 1_000;
/** Objects and arrays nested deeper than this are refused (400) before validation. */
export const MAX_DEPTH = 32;

/** A string for user-written text, capped at MAX_TEXT instead of the default. */
export const text = () => z.string().max(MAX_TEXT);

const hasMax = (schema: any) => (schema._zod.def.checks ?? []).some((c: any) => ["max_length", "length_equals"].includes(c._zod.def.check));

const capped = new WeakMap<z.ZodType, z.ZodType>();

/**
 * The same schema with a maximum length on every string (MAX_STRING) and array (MAX_ARRAY) that
 * declares none. Schemas are immutable, so containers are cloned with capped children; refinements,
 * defaults and transforms are kept.
 */
export function withLengthLimits<S extends z.ZodType>(schema: S): S {
  const known = capped.get(schema);
  if (known) return known as S;
  const out = cap(schema as any, 0) as S;
  capped.set(schema, out);
  return out;
}

function cap(schema: any, depth: number): any {
  if (depth > 50) return schema;
  const def = schema._zod.def;
  const c = (s: any) => cap(s, depth + 1);
  switch (def.type) {
    case "string":
      return hasMax(schema) ? schema : schema.max(MAX_STRING);
    case "array": {
      const element = c(def.element);
      const same = element === def.element ? schema : schema.clone({ ...def, element });
      return hasMax(schema) ? same : same.max(MAX_ARRAY);
    }
    case "object": {
      const shape: Record<string, unknown> = {};
      let changed = false;
      for (const [key, value] of Object.entries(def.shape)) {
        shape[key] = c(value);
        changed ||= shape[key] !== value;
      }
      const catchall = def.catchall ? c(def.catchall) : undefined;
      return changed || catchall !== def.catchall ? schema.clone({ ...def, shape, catchall }) : schema;
    }
    case "optional":
    case "nullable":
    case "default":
    case "prefault":
    case "catch":
    case "readonly":
    case "nonoptional": {
      const innerType = c(def.innerType);
      return innerType === def.innerType ? schema : schema.clone({ ...def, innerType });
    }
    case "pipe": {
      const [input, output] = [c(def.in), c(def.out)];
      return input === def.in && output === def.out ? schema : schema.clone({ ...def, in: input, out: output });
    }
    case "union": {
      const options = def.options.map(c);
      return options.every((o: unknown, i: number) => o === def.options[i]) ? schema : schema.clone({ ...def, options });
    }
    case "intersection": {
      const [left, right] = [c(def.left), c(def.right)];
      return left === def.left && right === def.right ? schema : schema.clone({ ...def, left, right });
    }
    case "record": {
      const valueType = c(def.valueType);
      return valueType === def.valueType ? schema : schema.clone({ ...def, valueType });
    }
    case "tuple": {
      const items = def.items.map(c);
      return schema.clone({ ...def, items, rest: def.rest ? c(def.rest) : def.rest });
    }
    default:
      return schema;
  }
}

type Problem = { kind: "text" | "depth"; where: string };

const wellFormed = (s: string) => (s as unknown as { isWellFormed(): boolean }).isWellFormed() && !s.includes("\u0000");

/** The first string (value or key) PostgreSQL could not store, or the first value nested too deeply. */
export function findUnsafeInput(value: unknown, where = ""): Problem | null {
  const stack: [unknown, string, number][] = [[value, where, 0]];
  while (stack.length) {
    const [v, at, depth] = stack.pop()!;
    if (typeof v === "string") {
      if (!wellFormed(v)) return { kind: "text", where: at };
      continue;
    }
    if (v === null || typeof v !== "object" || Buffer.isBuffer(v)) continue;
    if (depth >= MAX_DEPTH) return { kind: "depth", where: at };
    if (Array.isArray(v)) v.forEach((item, i) => stack.push([item, `${at}[${i}]`, depth + 1]));
    else
      for (const [key, item] of Object.entries(v)) {
        if (!wellFormed(key)) return { kind: "text", where: at ? `${at}.<key>` : "<key>" };
        stack.push([item, at ? `${at}.${key}` : key, depth + 1]);
      }
  }
  return null;
}

/**
 * The text rule, applied at every boundary: strings containing NUL (U+0000) or an unpaired UTF-16
 * surrogate are refused with 422 (PostgreSQL cannot store the first, and the second is not Unicode);
 * input nested deeper than MAX_DEPTH is refused with 400.
 */
export function assertSafeInput(value: unknown, where = ""): void {
  const problem = findUnsafeInput(value, where);
  if (!problem) return;
  const field = problem.where.replace(/^\./, "") || "body";
  if (problem.kind === "depth") throw Invalid(`${field}: nested deeper than ${MAX_DEPTH} levels.`, { [field]: "nested too deeply" });
  throw Unprocessable(`${field}: text must not contain NUL characters or unpaired surrogates.`, { [field]: "invalid characters" });
}
