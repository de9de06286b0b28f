// GraphQL parity (issue 18, criterion 5) for the smaller client operations: filing a report, the
// instance's description and peers, suggestions, birthdays and unreachable instances answer what REST
// answers for the same rows, and filing a report stores what REST stores.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { suiteKinds } from "../support/databases.ts";
import { passwordToken, startTestServer, type TestServer } from "../support/server.ts";

describe.each(suiteKinds(import.meta.url))("GraphQL reports, suggestions, birthdays and instance extras on %s", (kind) => {
  let server: TestServer;
  let ann: string;
  let annId: string;
  let bobId: string;
  const ok = async (query: string, variables: Record<string, unknown> = {}) => {
    const r = await server.fetch("/graphql", { json: { query, variables }, headers: { authorization: `Bearer ${ann}` } });
    const body = await r.json();
    expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
    return body.data;
  };
  const rest = async (method: string, path: string, json?: unknown, bearer = ann) => {
    const r = await server.fetch(path, { method, headers: { authorization: `Bearer ${bearer}` }, ...(json !== undefined ? { json } : {}) });
    expect(r.status, `${method} ${path}`).toBe(200);
    return r.json();
  };
  const ids = (list: { id: string }[]) => list.map((a) => a.id);

  beforeAll(async () => {
    server = await startTestServer(kind);
    annId = (await server.createUser("ann")).id;
    bobId = (await server.createUser("bob")).id;
    ann = (await passwordToken(server, "ann")).access_token;
  });
  afterAll(() => server?.close());

  test("fileReport stores the report (with the status snapshot) as POST /api/v1/reports does", async () => {
    const bob = (await passwordToken(server, "bob")).access_token;
    const status = (await rest("POST", "/api/v1/statuses", { status: "rude words" }, bob)).id as string;
    const q = await ok('mutation($a: ID!, $s: [ID!]) { fileReport(accountId: $a, statusIds: $s, comment: "rude", category: "spam") { id category comment statusIds targetAccount { id } } }', {
      a: bobId,
      s: [status],
    });
    expect(q.fileReport).toMatchObject({ category: "spam", comment: "rude", statusIds: [status], targetAccount: { id: bobId } });
    const viaRest = await rest("POST", "/api/v1/reports", { account_id: bobId, status_ids: [status], comment: "rude", category: "spam" });
    const [gqlRow, restRow] = await Promise.all([q.fileReport.id, viaRest.id].map((id) => server.services.db.report.findUniqueOrThrow({ where: { id } })));
    expect(gqlRow).toMatchObject({ reporterId: annId, targetId: bobId, statusIds: [status], state: "open", category: "spam" });
    expect(gqlRow.statusSnapshots).toEqual(restRow.statusSnapshots);
    expect((gqlRow.statusSnapshots as { id: string }[])[0].id).toBe(status);
  });

  test("ownReports/ownReport list the viewer's reports as GET /api/v0/<ns>/reports does; dismissSuggestion stores what REST stores", async () => {
    const ns = server.services.settings.namespace;
    const mine = await ok('{ ownReports(size: 50) { id state comment targetAccount { id } } }');
    const viaRest = await rest("GET", `/api/v0/${ns}/reports?size=50`);
    expect(ids(mine.ownReports)).toEqual(ids(viaRest.reports));
    expect(mine.ownReports.length).toBeGreaterThan(0);
    const first = viaRest.reports[0];
    const one = await ok("query($id: ID!) { ownReport(id: $id) { id state targetAccount { id } } }", { id: first.id });
    expect(one.ownReport).toEqual({ id: first.id, state: first.state, targetAccount: { id: first.account.id } });
    const bob = (await passwordToken(server, "bob")).access_token;
    const foreign = await server.fetch("/graphql", { json: { query: "query($id: ID!) { ownReport(id: $id) { id } }", variables: { id: first.id } }, headers: { authorization: `Bearer ${bob}` } });
    expect((await foreign.json()).errors[0].extensions.code).toBe("NOT_FOUND");

    await server.services.db.account.update({ where: { id: bobId }, data: { isSuggested: true } });
    expect(await ok("mutation($a: ID!) { dismissSuggestion(accountId: $a) }", { a: bobId })).toEqual({ dismissSuggestion: true });
    expect(await server.services.db.suggestionDismissal.findMany({ select: { accountId: true, targetId: true } })).toEqual([{ accountId: annId, targetId: bobId }]);
    expect(ids((await ok("{ suggestions { id } }")).suggestions)).not.toContain(bobId);
  });

  test("suggestions, birthdays, peers, the extended description and unreachable instances equal REST's", async () => {
    const cyd = await server.createUser("cyd");
    await server.services.db.account.update({ where: { id: cyd.id }, data: { isSuggested: true } });
    const sugg = await ok("{ suggestions { id } }");
    expect(ids(sugg.suggestions)).toEqual((await rest("GET", "/api/v2/suggestions")).map((s: { account: { id: string } }) => s.account.id));
    expect(ids(sugg.suggestions)).toContain(cyd.id);

    await rest("POST", `/api/v1/accounts/${bobId}/follow`);
    await server.services.db.account.update({ where: { id: bobId }, data: { birthday: new Date("1990-03-14T00:00:00Z"), showBirthday: true } });
    const bd = await ok("{ birthdays(day: 14, month: 3) { id } }");
    expect(ids(bd.birthdays)).toEqual(ids(await rest("GET", "/api/v1/ext/birthdays?day=14&month=3")));
    expect(ids(bd.birthdays)).toEqual([bobId]);

    const since = new Date(Date.now() - 10 * 24 * 3600_000);
    await server.services.db.instance.create({ data: { domain: "gone.example", unreachableSince: since } });
    const q = await ok("{ instancePeers extendedDescription unreachableInstances { domain since } }");
    expect(q.instancePeers).toEqual(await rest("GET", "/api/v1/instance/peers"));
    expect(q.extendedDescription).toBe((await rest("GET", "/api/v1/instance/extended_description")).content);
    const status = await rest("GET", "/api/v1/ext/federation_status");
    expect(Object.fromEntries(q.unreachableInstances.map((u: { domain: string; since: string }) => [u.domain, u.since]))).toEqual(status.unreachable);
    expect(q.unreachableInstances).toEqual([{ domain: "gone.example", since: since.toISOString() }]);
  });

  test("frontendConfigurations, translateStatus and remoteInteractionUrl answer as REST does", async () => {
    const q = await ok("{ frontendConfigurations }");
    expect(JSON.parse(q.frontendConfigurations)).toEqual(await rest("GET", `/api/v1/${server.services.settings.namespace}/frontend_configurations`));

    const status = (await rest("POST", "/api/v1/statuses", { status: "bonjour" })).id as string;
    const translate = await server.fetch(`/api/v1/statuses/${status}/translate`, { method: "POST", headers: { authorization: `Bearer ${ann}` }, json: {} });
    expect(translate.status).toBe(404);
    const r = await server.fetch("/graphql", { json: { query: "mutation($id: ID!) { translateStatus(id: $id) }", variables: { id: status } }, headers: { authorization: `Bearer ${ann}` } });
    const body = await r.json();
    expect(body.errors[0].extensions.code).toBe("NOT_FOUND");
    expect(body.errors[0].message).toBe((await translate.json()).error);

    const remote = await server.fetch("/graphql", { json: { query: '{ remoteInteractionUrl(apId: "https://a.example/notes/1", profile: "nobody") }' } });
    const restRemote = await server.fetch(`/api/v1/${server.services.settings.namespace}/remote_interaction`, { method: "POST", json: { ap_id: "https://a.example/notes/1", profile: "nobody" } });
    expect((await remote.json()).errors[0].message).toBe((await restRemote.json()).error);
  });

  test("suggestions and scheduled statuses cost the same number of queries for one item as for several", async () => {
    const query = "query($n: Int) { suggestions(limit: $n) { id followersCount followingCount relationship { following } } }";
    for (const name of ["sug1", "sug2", "sug3", "sug4"]) {
      const a = await server.createUser(name);
      await server.services.db.account.update({ where: { id: a.id }, data: { isSuggested: true } });
    }
    const one = await server.countQueries(() => ok(query, { n: 1 }));
    const four = await server.countQueries(() => ok(query, { n: 4 }));
    expect(four.result.suggestions).toHaveLength(4);
    expect(four.queries).toBe(one.queries);

    const at = new Date(Date.now() + 3600_000).toISOString();
    // four, so that both pages have a next one (a last page asks once more whether anything follows)
    for (const text of ["a", "b", "c", "d"]) await rest("POST", "/api/v1/statuses", { status: text, scheduled_at: at });
    const sq = "query($n: Int) { scheduledStatuses(first: $n) { edges { node { id text mediaAttachments { id } } } } }";
    const s1 = await server.countQueries(() => ok(sq, { n: 1 }));
    const s3 = await server.countQueries(() => ok(sq, { n: 3 }));
    expect(s3.result.scheduledStatuses.edges).toHaveLength(3);
    expect(s3.queries).toBe(s1.queries);
  });
});

