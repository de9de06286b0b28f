// Typed GraphQL documents: gql.tada reads the server's schema (schema/schema.graphql, turned into
// src/graphql-env.d.ts by `gql.tada generate-output` before each build) and types every query's result
// and variables without a code-generation step per document.
import { initGraphQLTada } from "gql.tada";
import type { introspection } from "./graphql-env.d.ts";

export const graphql = initGraphQLTada<{
  introspection: introspection;
  scalars: { DateTime: string; File: File };
}>();

export type { FragmentOf, ResultOf, VariablesOf } from "gql.tada";
