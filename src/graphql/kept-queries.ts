// GraphQL queries of timelines kept as REST's pages are (src/http/routes/page-cache.ts: the same cache, the same
// events). A query is kept when every root field it asks is a page that says what changes it (`keepField`, called
// by the timeline fields' resolvers with the spec their REST routes use); its answer is then dropped by the ids it
// shows (statuses, accounts, nested ones too), the viewer's own writes and state, and the timelines it follows.
// The key is the viewer, its token's scopes (fields check them) and the request's JSON body as sent (the query's
// text, operation and variables): src/http/kept-graphql.ts answers it again before yoga is reached; a query sent
// otherwise (GET, multipart) is not kept.
import type { Request } from "express";
import { getOperationAST, Kind, type ExecutionResult } from "graphql";
import type { Plugin } from "graphql-yoga";
import type { Ctx } from "../domain/context.ts";
import { graphqlKey } from "../http/kept-graphql.ts";
import { pageCacheOf, type PageCacheSpec } from "../http/routes/page-cache.ts";
import { sentText } from "./request-body.ts";

/** the query being read for keeping: when it began, how many root fields it asks, what each said */
interface Read {
  since: number;
  roots: number;
  specs: PageCacheSpec[];
  refused: boolean;
}

const reads = new WeakMap<object, Read>();

/** A root field's resolver, before it reads: what changes the page it answers (null: this one cannot be kept). */
export function keepField(ctx: Ctx, spec: PageCacheSpec | null): void {
  const read = reads.get(ctx);
  if (!read) return;
  if (!spec) return void (read.refused = true);
  pageCacheOf(ctx)?.begin(ctx, spec); // its timelines are followed from before its statement
  read.specs.push(spec);
}

export function useKeptQueries(): Plugin<Ctx> {
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const ctx = args.contextValue as Ctx;
      const cache = pageCacheOf(ctx);
      if (!cache?.enabled) return;
      const operation = getOperationAST(args.document, args.operationName);
      if (operation?.operation !== "query") return;
      const roots = operation.selectionSet.selections;
      if (roots.some((s) => s.kind !== Kind.FIELD)) return;
      const fields = roots.filter((s) => s.kind === Kind.FIELD && s.name.value !== "__typename").length;
      if (fields === 0) return;
      const req = (args.contextValue as { req?: Request }).req;
      const text = req?.method === "POST" ? sentText(req) : undefined;
      if (text === undefined) return;
      const key = graphqlKey(ctx, text);
      const kept = cache.get(ctx, key);
      if (kept) return setResultAndStopExecution(JSON.parse(kept.body.toString()) as ExecutionResult);
      const read: Read = { since: cache.begin(ctx, {}), roots: fields, specs: [], refused: false };
      reads.set(ctx, read);
      return {
        onExecuteDone({ result }) {
          reads.delete(ctx);
          if (read.refused || read.specs.length !== read.roots || Symbol.asyncIterator in result || result.errors?.length) return;
          const spec: PageCacheSpec = {
            streams: read.specs.flatMap((s) => s.streams ?? []),
            authors: read.specs.flatMap((s) => s.authors ?? []),
            ids: read.specs.flatMap((s) => s.ids ?? []),
          };
          cache.store(read.since, ctx, key, spec, result);
        },
      };
    },
  };
}
