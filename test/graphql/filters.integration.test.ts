// Filters over GraphQL: the same operations as /api/v2/filters (what one surface writes the other reads),
// with the REST routes' scopes.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { suiteKinds } from "../support/databases.ts";
import { passwordToken, startTestServer, type TestServer } from "../support/server.ts";

const FILTER = "id title context filterAction expiresAt keywords { id keyword wholeWord } statuses { id statusId }";

describe.each(suiteKinds(import.meta.url))("GraphQL filters on %s", (kind) => {
  let server: TestServer;
  let token: string;
  let readOnly: string;
  const gql = (query: string, variables?: Record<string, unknown>, bearer = token) =>
    server.fetch("/graphql", { json: { query, variables }, headers: { authorization: `Bearer ${bearer}` } }).then((r) => r.json());
  const ok = async (query: string, variables?: Record<string, unknown>) => {
    const r = await gql(query, variables);
    expect(r.errors, JSON.stringify(r.errors)).toBeUndefined();
    return r.data;
  };

  beforeAll(async () => {
    server = await startTestServer(kind);
    await server.createUser("ann");
    token = (await passwordToken(server, "ann")).access_token;
    readOnly = (await passwordToken(server, "ann", "read")).access_token;
  });
  afterAll(() => server?.close());

  test("create, read, change and delete a filter with its keywords and statuses; REST sees the same", async () => {
    const { createFilter: f } = await ok(`mutation { createFilter(title: "Birds", context: [home, thread], filterAction: blur, keywords: [{ keyword: "crow" }]) { ${FILTER} } }`);
    expect(f).toEqual({ id: expect.any(String), title: "Birds", context: ["home", "thread"], filterAction: "blur", expiresAt: null, keywords: [{ id: expect.any(String), keyword: "crow", wholeWord: true }], statuses: [] });

    const status = await (await server.fetch("/api/v1/statuses", { json: { status: "hi" }, headers: { authorization: `Bearer ${token}` } })).json();
    const { addFilterKeyword: k } = await ok(`mutation($id: ID!) { addFilterKeyword(filterId: $id, keyword: "raven", wholeWord: false) { id keyword wholeWord } }`, { id: f.id });
    await ok(`mutation($id: ID!, $s: ID!) { addFilterStatus(filterId: $id, statusId: $s) { id statusId } }`, { id: f.id, s: status.id });
    await ok(`mutation($id: ID!) { updateFilterKeyword(id: $id, keyword: "ravens") { id } }`, { id: k.id });
    const { updateFilter: u } = await ok(`mutation($id: ID!, $kw: ID!) { updateFilter(id: $id, title: "Corvids", filterAction: hide, keywords: [{ id: $kw, destroy: true }]) { ${FILTER} } }`, {
      id: f.id,
      kw: f.keywords[0].id,
    });
    expect(u).toMatchObject({ title: "Corvids", filterAction: "hide", keywords: [{ id: k.id, keyword: "ravens", wholeWord: false }], statuses: [{ statusId: status.id }] });

    const rest = await (await server.fetch(`/api/v2/filters/${f.id}`, { headers: { authorization: `Bearer ${token}` } })).json();
    expect(rest).toMatchObject({ id: f.id, title: "Corvids", filter_action: "hide", keywords: [{ id: k.id, keyword: "ravens" }], statuses: [{ status_id: status.id }] });
    expect((await ok(`{ filters { id } }`)).filters).toEqual([{ id: f.id }]);

    // write:filters is needed to change them, as over REST
    const refused = await gql(`mutation($id: ID!) { deleteFilter(id: $id) }`, { id: f.id }, readOnly);
    expect(refused.errors?.[0]).toBeDefined();
    expect((await gql(`{ filters { id } }`, undefined, readOnly)).data.filters).toHaveLength(1);

    expect((await ok(`mutation($id: ID!) { deleteFilter(id: $id) }`, { id: f.id })).deleteFilter).toBe(true);
    expect((await ok(`{ filters { id } }`)).filters).toEqual([]);
  });
});
