// The text rule of the input boundary (src/domain/input-limits.ts) for GraphQL: string literals in the
// document and variable values containing NUL or an unpaired surrogate are refused before execution,
// over HTTP (a yoga plugin, 422) and over graphql-ws (the subscribe message is answered with an error).
// It also caps the length of every string (MAX_TEXT) and list (MAX_ARRAY) an argument receives, as
// literals or variables: fields backed by an operation get the operation's finer caps as well, and
// fields without one (filters, cursors, settings blobs) are bounded here (400, code INVALID).
import { GraphQLError, Kind, visit, type DocumentNode } from "graphql";
import type { Plugin } from "graphql-yoga";
import { findUnsafeInput, MAX_ARRAY, MAX_DEPTH, MAX_TEXT } from "../domain/input-limits.ts";

/** The first string longer than MAX_TEXT or array longer than MAX_ARRAY in a variables value. */
function oversized(value: unknown, depth = 0): "string" | "list" | null {
  if (typeof value === "string") return value.length > MAX_TEXT ? "string" : null;
  if (value === null || typeof value !== "object" || depth > MAX_DEPTH) return null;
  if (Array.isArray(value) && value.length > MAX_ARRAY) return "list";
  for (const item of Array.isArray(value) ? value : Object.values(value)) {
    const found = oversized(item, depth + 1);
    if (found) return found;
  }
  return null;
}

const tooLong = (what: "string" | "list") =>
  new GraphQLError(what === "string" ? `A string argument is longer than ${MAX_TEXT} characters.` : `A list argument has more than ${MAX_ARRAY} items.`, { extensions: { code: "INVALID", http: { status: 400 } } });

/** The refusal for an unsafe document or variables, or null when both are fine. */
export function unsafeGraphQLInput(document: DocumentNode, variables: unknown): GraphQLError | null {
  let where: string | null = null;
  let size: "string" | "list" | null = null;
  visit(document, {
    [Kind.STRING]: (node) => {
      if (where === null && findUnsafeInput(node.value)) where = "a string argument";
      if (node.value.length > MAX_TEXT) size ??= "string";
    },
    [Kind.LIST]: (node) => {
      if (node.values.length > MAX_ARRAY) size ??= "list";
    },
  });
  size ??= oversized(variables ?? {});
  if (size) return tooLong(size);
  const problem = findUnsafeInput(variables ?? {}, "variables");
  if (problem?.kind === "depth") return new GraphQLError(`Variables nested deeper than ${MAX_DEPTH} levels.`, { extensions: { code: "INVALID", http: { status: 400 } } });
  where ??= problem?.where ?? null;
  if (where === null) return null;
  return new GraphQLError(`${where}: text must not contain NUL characters or unpaired surrogates.`, { extensions: { code: "UNPROCESSABLE", http: { status: 422 } } });
}

/** The yoga plugin: queries, mutations and subscriptions over HTTP. */
export function useSafeInput(): Plugin {
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const error = unsafeGraphQLInput(args.document, args.variableValues);
      if (error) setResultAndStopExecution({ errors: [error] });
    },
    onSubscribe({ args, setResultAndStopExecution }) {
      const error = unsafeGraphQLInput(args.document, args.variableValues);
      if (error) setResultAndStopExecution({ errors: [error] });
    },
  };
}
