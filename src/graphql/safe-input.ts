// The text rule of the input boundary (src/domain/input-limits.ts) for GraphQL: string literals in the
// document and variable values containing NUL or an unpaired surrogate are refused before execution,
// over HTTP (a yoga plugin, 422) and over graphql-ws (the subscribe message is answered with an error).
import { GraphQLError, Kind, visit, type DocumentNode } from "graphql";
import type { Plugin } from "graphql-yoga";
import { findUnsafeInput, MAX_DEPTH } from "../domain/input-limits.ts";

/** The refusal for an unsafe document or variables, or null when both are fine. */
export function unsafeGraphQLInput(document: DocumentNode, variables: unknown): GraphQLError | null {
  let where: string | null = null;
  visit(document, {
    [Kind.STRING]: (node) => {
      if (where === null && findUnsafeInput(node.value)) where = "a string argument";
    },
  });
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
