// What a replayed call is: who sends it, the data it needs, the body in the client's shape, the
// status the client expects and the fields of the answer the client reads.
import type { Fixture, Reply, Vars } from "./fixture.ts";

export interface ReplayCase {
  /** whose token: the admin's for admin routes, alice's otherwise; `anon` sends none */
  who?: "admin" | "alice" | "bob" | "anon";
  /** creates what the call needs; returns the values of the path and query placeholders (`_token`: send
   * that token instead; `_app`/`_fn`/`_query` are set to the client, its function and the list's query before the body is built) */
  setup?: (f: Fixture) => Promise<Vars>;
  /** query parameters the client adds where the list gives none (e.g. `id[]=…`) */
  query?: (v: Vars) => string;
  /** a call that is not plain HTTP (the streaming socket): replayed by this function instead */
  run?: (f: Fixture) => Promise<void>;
  /** the JSON body the client sends */
  json?: (v: Vars, f: Fixture) => unknown;
  /** an urlencoded form (what the client sends as a form) */
  form?: (v: Vars, f: Fixture) => Record<string, string>;
  /** a multipart body (uploads) */
  multipart?: (v: Vars, f: Fixture) => Promise<FormData>;
  /** the status the client treats as success (200 unless said) */
  status?: number;
  /** asserts the fields the client reads (and, where it matters, the database) */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  reads?: (body: any, v: Vars, f: Fixture, reply: Reply) => unknown;
}

export type Cases = Record<string, ReplayCase>;

/** the values clients fill the query placeholders with when a case says nothing */
export const QUERY_DEFAULTS: Vars = { page: "1", pageSize: "50", godmode: "false", localOnly: "false", filters: "", filter: "open", normalizedParams: "page=1&page_size=50" };
