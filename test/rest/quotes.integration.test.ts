// Quote posts (issue 18, issue 19 criterion 5): quoting with the family's `quote_id` and the reference's
// `quoted_status_id`, what may be quoted, both rendered shapes, the quotes listing, GraphQL, and the
// page's quoted statuses loaded with it (no statement per quote). Under the pleroma profile.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { suiteKinds } from "../support/databases.ts";
import { passwordToken, startTestServer, type TestServer } from "../support/server.ts";

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe.each(suiteKinds(import.meta.url))("quote posts (%s)", (kind) => {
  let server: TestServer;
  const tokens: Record<string, string> = {};
  const call = async (who: string | null, method: string, path: string, json?: unknown) => {
    const res = await server.fetch(path, { method, ...(json !== undefined ? { json } : {}), headers: who ? bearer(tokens[who]!) : {} });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  const post = async (who: string, json: Record<string, unknown>) => {
    const res = await call(who, "POST", "/api/v1/statuses", json);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  };
  const ids = (list: { id: string }[]) => list.map((x) => x.id);
  const gql = async (who: string, query: string, variables: Record<string, unknown> = {}) =>
    (await server.fetch("/graphql", { json: { query, variables }, headers: bearer(tokens[who]!) })).json();

  beforeAll(async () => {
    server = await startTestServer(kind, { API_NAMESPACE: "pleroma", API_FAMILY: "pleroma" });
    for (const nick of ["ann", "bob", "cat", "dan"]) await server.createUser(nick);
    for (const nick of ["ann", "bob", "cat", "dan"]) tokens[nick] = (await passwordToken(server, nick, "read write follow")).access_token;
  });
  afterAll(() => server?.close());

  test("quote_id and quoted_status_id store the relation; both shapes render it", async () => {
    const original = await post("bob", { status: "worth quoting" });
    const quote = await post("ann", { status: "look at this", quote_id: original.id });
    expect(quote.pleroma).toMatchObject({ quote_id: original.id, quote_url: original.url, quote_visible: true, quote: { id: original.id, content: original.content } });
    expect(quote.quote).toMatchObject({ state: "accepted", quoted_status: { id: original.id, account: { acct: "bob" } } });
    expect(quote.quote_approval).toEqual({ automatic: ["public"], manual: [], current_user: "automatic" });
    expect((await server.services.db.status.findUniqueOrThrow({ where: { id: quote.id } })).quoteId).toBe(original.id);

    const reference = await post("cat", { status: "reference spelling", quoted_status_id: original.id, visibility: "unlisted" });
    expect((await server.services.db.status.findUniqueOrThrow({ where: { id: reference.id } })).quoteId).toBe(original.id);
    // a quote of a quote: the inner quote is shallow, as the reference renders it
    const nested = await post("dan", { status: "quote of a quote", quote_id: quote.id });
    expect(nested.quote.quoted_status.quote).toEqual({ state: "accepted", quoted_status_id: original.id });
    expect(nested.pleroma.quote.pleroma.quote).toBeNull();
    // a plain status: no quote
    expect(original).toMatchObject({ quote: null, pleroma: { quote: null, quote_id: null, quote_url: null, quote_visible: false } });
    // a private status may not quote anything, but says nobody may quote it
    const privateOne = await post("bob", { status: "followers only", visibility: "private" });
    expect(privateOne.quote_approval).toEqual({ automatic: [], manual: [], current_user: "denied" });
  });

  test("only a visible public or unlisted status may be quoted: 422 otherwise, nothing stored", async () => {
    const before = await server.services.db.status.count();
    const privateOne = await post("bob", { status: "followers only", visibility: "private" });
    const direct = await post("bob", { status: "@ann only you", visibility: "direct" });
    // ann sees the direct one but may still not quote it; a private one is refused even to its author
    for (const [who, id] of [["ann", direct.id], ["bob", privateOne.id], ["bob", direct.id]] as const) {
      const res = await call(who, "POST", "/api/v1/statuses", { status: "quoting", quote_id: id });
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ error: expect.stringContaining("quoted") });
    }
    // invisible (cat does not follow bob) or unknown: the same 422, which says nothing of its existence
    for (const id of [privateOne.id, "nonexistent"]) {
      const res = await call("cat", "POST", "/api/v1/statuses", { status: "quoting", quoted_status_id: id });
      expect(res.status).toBe(422);
      expect(res.body.error).toBe("Validation failed: Quoted status not found");
    }
    expect(await server.services.db.status.count()).toBe(before + 2);
  });

  test("GET /api/v1/<ns>/statuses/:id/quotes (and the reference path): paged, visibility-filtered", async () => {
    const original = await post("bob", { status: "quote me" });
    const q1 = await post("ann", { status: "one", quote_id: original.id });
    const q2 = await post("cat", { status: "two", quote_id: original.id, visibility: "private" });
    const q3 = await post("dan", { status: "three", quoted_status_id: original.id, visibility: "unlisted" });
    // cat's private quote is seen by cat, not by bob (no follower) nor anonymously
    expect(ids((await call("cat", "GET", `/api/v1/pleroma/statuses/${original.id}/quotes`)).body)).toEqual([q3.id, q2.id, q1.id]);
    expect(ids((await call("bob", "GET", `/api/v1/pleroma/statuses/${original.id}/quotes`)).body)).toEqual([q3.id, q1.id]);
    expect(ids((await call(null, "GET", `/api/v1/statuses/${original.id}/quotes`)).body)).toEqual([q3.id, q1.id]);
    const page = await server.fetch(`/api/v1/pleroma/statuses/${original.id}/quotes?limit=1`, { headers: bearer(tokens.bob!) });
    expect(ids(await page.json())).toEqual([q3.id]);
    expect(page.headers.get("link")).toContain(`max_id=${q3.id}`);
    expect(ids((await call("bob", "GET", `/api/v1/pleroma/statuses/${original.id}/quotes?max_id=${q3.id}`)).body)).toEqual([q1.id]);
    // the quotes of a status the viewer may not see: 404
    const privateOne = await post("bob", { status: "hidden", visibility: "private" });
    expect((await call("cat", "GET", `/api/v1/pleroma/statuses/${privateOne.id}/quotes`)).status).toBe(404);
  });

  test("a quoted status the viewer may no longer see, or deleted", async () => {
    const original = await post("bob", { status: "soon blocked" });
    const quote = await post("cat", { status: "quoting bob", quote_id: original.id });
    await call("bob", "POST", `/api/v1/accounts/${quote.account.id}/block`);
    // cat is blocked by bob: the quote is there, its target is not shown
    const seen = (await call("cat", "GET", `/api/v1/statuses/${quote.id}`)).body;
    expect(seen.quote).toEqual({ state: "unauthorized", quoted_status: null });
    expect(seen.pleroma).toMatchObject({ quote_id: original.id, quote_visible: false, quote: null });
    // deleted: the relation goes with it
    await call("bob", "DELETE", `/api/v1/statuses/${original.id}`);
    expect((await server.services.db.status.findUniqueOrThrow({ where: { id: quote.id } })).quoteId).toBeNull();
    expect((await call("ann", "GET", `/api/v1/statuses/${quote.id}`)).body).toMatchObject({ quote: null, pleroma: { quote_id: null } });
  });

  test("a timeline's quoted statuses cost no statement per quote", async () => {
    const dan = (await call("dan", "GET", "/api/v1/accounts/verify_credentials")).body.id;
    const page = (n: number) => server.countQueries(() => call("dan", "GET", `/api/v1/accounts/${dan}/statuses?limit=${n}`));
    for (let i = 0; i < 6; i++) {
      const target = await post("bob", { status: `target ${i}` });
      await post("dan", { status: `quote ${i}`, quote_id: target.id });
    }
    const two = await page(2);
    const six = await page(6);
    expect(six.result.body).toHaveLength(6);
    expect(six.result.body.every((s: any) => s.quote.quoted_status.account.acct === "bob")).toBe(true);
    expect(six.queries).toBe(two.queries);
  });

  test("GraphQL: quoteId on postStatus, Status.quote, the quotes connection", async () => {
    const original = await post("bob", { status: "graphql target" });
    const made = await gql("ann", `mutation($q: ID) { postStatus(input: { status: "via graphql", quoteId: $q }) { id quoteId quote { id account { nickname } } } }`, { q: original.id });
    expect(made.errors, JSON.stringify(made.errors)).toBeUndefined();
    expect(made.data.postStatus).toMatchObject({ quoteId: original.id, quote: { id: original.id, account: { nickname: "bob" } } });
    const listed = await gql("dan", `query($id: ID!) { quotes(id: $id, first: 10) { edges { node { id quote { id } } } } }`, { id: original.id });
    expect(listed.errors, JSON.stringify(listed.errors)).toBeUndefined();
    expect(listed.data.quotes.edges.map((e: any) => e.node)).toEqual([{ id: made.data.postStatus.id, quote: { id: original.id } }]);
    const refused = await gql("ann", `mutation($q: ID) { postStatus(input: { status: "no", quoteId: $q }) { id } }`, { q: (await post("bob", { status: "p", visibility: "private" })).id });
    expect(refused.errors?.[0]?.message).toContain("Quoted status not found");
  });
});
