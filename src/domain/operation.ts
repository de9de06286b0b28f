// A domain operation: zod input schema + authorization + the work, written once and called by
// every surface (REST, GraphQL, tRPC, CLI, federation). It knows nothing of HTTP or GraphQL.
import { z } from "zod";
import type { Ctx } from "./context.ts";
import { Invalid } from "../kernel/errors.ts";
import { enforceAccess, type Access } from "./auth/access.ts";
import { assertSafeInput, withLengthLimits } from "./input-limits.ts";

export interface OperationDef<S extends z.ZodType, O> {
  name: string;
  input: S;
  /**
   * who may run it, read by every surface (the REST route and GraphQL field derive their checks from it);
   * the operation enforces the role/privilege part itself when called (src/domain/auth/access.ts)
   */
  access?: Access;
  /** throws a DomainError when the viewer may not run it (its result is ignored, so `requireAccount` fits) */
  authorize?: (ctx: Ctx, input: z.output<S>) => unknown;
  run: (ctx: Ctx, input: z.output<S>) => Promise<O>;
}

export type Operation<S extends z.ZodType, O> = ((ctx: Ctx, input: z.input<S>) => Promise<O>) & OperationDef<S, O>;

/** Any operation, where only its declaration is read (a route naming its operation). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyOperation = Operation<any, any>;

export function operation<S extends z.ZodType, O>(declared: OperationDef<S, O>): Operation<S, O> {
  // every string and array gets a maximum length (src/domain/input-limits.ts), whichever surface calls
  const def = { ...declared, input: withLengthLimits(declared.input) };
  const fn = async (ctx: Ctx, raw: z.input<S>) => {
    assertSafeInput(raw);
    // who the caller is before what they sent: a refused viewer learns nothing about the input's validity
    enforceAccess(ctx, def.access);
    const input = parseInput(def.input, raw);
    await def.authorize?.(ctx, input);
    return def.run(ctx, input);
  };
  Object.defineProperty(fn, "name", { value: def.name }); // Function#name is read-only for assign
  return Object.assign(fn, { input: def.input, access: def.access, authorize: def.authorize, run: def.run }) as Operation<S, O>;
}

export function parseInput<S extends z.ZodType>(schema: S, raw: unknown): z.output<S> {
  const r = schema.safeParse(raw);
  if (r.success) return r.data;
  throw invalidFromZod(r.error, raw);
}

/** Messages in the family's validator style: "Missing field: name." / "x - Invalid value for enum." */
export function invalidFromZod(error: z.ZodError, raw: unknown) {
  const fields: Record<string, string> = {};
  const messages = error.issues.map((issue) => {
    const field = issue.path.join(".") || "body";
    const msg = issueMessage(issue, field, valueAt(raw, issue.path));
    fields[field] ??= msg;
    return msg;
  });
  return Invalid(messages.join(" "), fields);
}

function valueAt(raw: unknown, path: PropertyKey[]): unknown {
  return path.reduce<unknown>((v, key) => (v !== null && typeof v === "object" ? (v as any)[key] : undefined), raw);
}

function issueMessage(issue: z.core.$ZodIssue, field: string, value: unknown): string {
  if (issue.code === "invalid_type" && value === undefined) return `Missing field: ${field}.`;
  if (issue.code === "invalid_type") return `${field} - Invalid ${issue.expected}. Got: ${Array.isArray(value) ? "array" : typeof value}.`;
  if (issue.code === "invalid_value") return `${field} - Invalid value for enum.`;
  return `${field}: ${issue.message}.`;
}
