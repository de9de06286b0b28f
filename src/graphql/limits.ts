// Limits on the shape of a GraphQL document, checked before execution (graphql-armor's envelop plugins):
// nesting depth, aliases, tokens and a static cost. A document past any of them answers 400 with code
// GRAPHQL_VALIDATION_FAILED and nothing runs. The values are well above what the admin UI and the
// tests send; docs/security.md ("GraphQL") says why each exists. Introspection stays open: the schema
// is public (schema/schema.graphql) and clients generate their types from it.
import { costLimitPlugin, costLimitRule } from "@escape.tech/graphql-armor-cost-limit";
import { maxAliasesPlugin, maxAliasesRule } from "@escape.tech/graphql-armor-max-aliases";
import { maxDepthPlugin, maxDepthRule } from "@escape.tech/graphql-armor-max-depth";
import type { ValidationRule } from "graphql";
import { maxTokensPlugin } from "@escape.tech/graphql-armor-max-tokens";
import type { Plugin } from "graphql-yoga";

export const GRAPHQL_LIMITS = {
  /** field nesting (fragments flattened); introspection queries are exempt */
  depth: 15,
  /** aliases in one document (each alias can repeat an expensive field) */
  aliases: 30,
  /** lexical tokens of the document (bounds parsing work before anything else) */
  tokens: 10_000,
  /** static cost: objects 2, scalars 1, × 1.5 per level of depth */
  cost: 50_000,
};

export function documentLimits(): Plugin[] {
  return [
    maxTokensPlugin({ n: GRAPHQL_LIMITS.tokens }),
    maxDepthPlugin({ n: GRAPHQL_LIMITS.depth, flattenFragments: true }),
    maxAliasesPlugin({ n: GRAPHQL_LIMITS.aliases }),
    costLimitPlugin({ maxCost: GRAPHQL_LIMITS.cost }),
  ] as Plugin[];
}

/** The same limits as validation rules, for graphql-ws subscriptions (which do not pass through yoga's plugins). */
export function documentLimitRules(): ValidationRule[] {
  return [maxDepthRule({ n: GRAPHQL_LIMITS.depth, flattenFragments: true }), maxAliasesRule({ n: GRAPHQL_LIMITS.aliases }), costLimitRule({ maxCost: GRAPHQL_LIMITS.cost })] as unknown as ValidationRule[];
}
