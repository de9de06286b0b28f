// The family's real clients replayed: every call in ../shared/notes/adminfe-calls.tsv (the admin front
// end and the web client) and ../shared/notes/megalodon-pleroma-calls.txt (megalodon's Pleroma driver),
// read here so a new line in a list is a new case, sent with the shape that client sends, under the
// pleroma profile, asserting the status and the fields the client reads. Cases live in replay/*-cases.ts,
// keyed by `METHOD path`; calls answered otherwise on purpose are in replay/exceptions.ts with a reason.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { adminCases } from "./replay/admin-cases.ts";
import { allCalls, type ClientCall } from "./replay/calls.ts";
import { QUERY_DEFAULTS, type ReplayCase } from "./replay/case.ts";
import { clientCases } from "./replay/client-cases.ts";
import { EXCEPTIONS } from "./replay/exceptions.ts";
import { Fixture, type Vars } from "./replay/fixture.ts";

const CASES: Record<string, ReplayCase> = { ...clientCases, ...adminCases };

const RAW = new Set(["dataString", "normalizedParams"]);
/** the admin's token by default on admin and emoji-pack management routes */
const ADMIN_ROUTE = /\/admin\/|\/emoji\/packs?\b/;

function fill(template: string, v: Vars, call: ClientCall) {
  return template.replace(/:(\w+)/g, (_, name: string) => {
    const value = v[name];
    if (value === undefined) throw new Error(`${call.key}: no value for :${name} (the case's setup must return it)`);
    // a placeholder standing for a whole query string (login's :dataString) goes in as it is
    return RAW.has(name) ? value : encodeURIComponent(value).replace(/%2C/g, ",");
  });
}

describe("the family's real clients, replayed (pleroma profile)", () => {
  let f: Fixture;
  beforeAll(async () => {
    f = await Fixture.start({ API_NAMESPACE: "pleroma", API_FAMILY: "pleroma", ALLOW_PRIVATE_FETCH: "true" });
  });
  afterAll(() => f?.server.close());

  const calls = allCalls();

  test("every call has a case or a justified exception, and no case is stale", () => {
    const keys = new Set(calls.map((c) => c.key));
    expect(calls.filter((c) => !CASES[c.key] && !EXCEPTIONS[c.key]).map((c) => `${c.app} ${c.fn}: ${c.key}`)).toEqual([]);
    expect(Object.keys(CASES).filter((k) => !keys.has(k))).toEqual([]);
    expect(Object.keys(EXCEPTIONS).filter((k) => !keys.has(k))).toEqual([]);
  });

  for (const call of calls) {
    const name = `${call.app} ${call.fn}: ${call.method} ${call.path}${call.query ? `?${call.query}` : ""}`;
    const c = CASES[call.key];
    if (EXCEPTIONS[call.key]) {
      test.skip(`${name} (exception: ${EXCEPTIONS[call.key]})`, () => {});
      continue;
    }
    if (!c) continue;
    test(name, async () => {
      if (c.run) return c.run(f);
      const v: Vars = { ...QUERY_DEFAULTS, ...(await c.setup?.(f)), _app: call.app, _fn: call.fn, _query: call.query };
      const query = [call.query && fill(call.query, v, call), c.query?.(v)].filter(Boolean).join("&");
      const who = c.who ?? (ADMIN_ROUTE.test(call.path) ? "admin" : "alice");
      const token = v._token ?? (who === "anon" ? undefined : f[who].token);
      const reply = await f.send({
        method: call.method,
        path: fill(call.path, v, call) + (query ? `?${query}` : ""),
        token,
        json: c.json?.(v, f),
        form: c.form?.(v, f),
        multipart: await c.multipart?.(v, f),
      });
      expect(reply.status, JSON.stringify(reply.body)?.slice(0, 500)).toBe(c.status ?? 200);
      await c.reads?.(reply.body, v, f, reply);
    });
  }
});
