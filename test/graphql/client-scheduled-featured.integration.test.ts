// GraphQL parity (issue 18, criterion 5) for scheduled statuses, featured tags and the v2 filter reads:
// each answers what REST answers for the same data, and each mutation changes the rows as REST does.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { suiteKinds } from "../support/databases.ts";
import { passwordToken, startTestServer, type TestServer } from "../support/server.ts";

describe.each(suiteKinds(import.meta.url))("GraphQL scheduled statuses, featured tags and filters on %s", (kind) => {
  let server: TestServer;
  let ann: string;
  let annId: string;
  const ok = async (query: string, variables: Record<string, unknown> = {}) => {
    const r = await server.fetch("/graphql", { json: { query, variables }, headers: { authorization: `Bearer ${ann}` } });
    const body = await r.json();
    expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
    return body.data;
  };
  const rest = async (method: string, path: string, json?: unknown) => {
    const r = await server.fetch(path, { method, headers: { authorization: `Bearer ${ann}` }, ...(json !== undefined ? { json } : {}) });
    expect(r.status, `${method} ${path}`).toBe(200);
    return r.json();
  };

  beforeAll(async () => {
    server = await startTestServer(kind);
    annId = (await server.createUser("ann")).id;
    ann = (await passwordToken(server, "ann")).access_token;
  });
  afterAll(() => server?.close());

  test("scheduled statuses: listed and read as REST lists them; rescheduling and cancelling change the row", async () => {
    const at = new Date(Date.now() + 3600_000).toISOString();
    const created = await rest("POST", "/api/v1/statuses", { status: "later, #gardening", scheduled_at: at, visibility: "unlisted" });
    const restList = await rest("GET", "/api/v1/scheduled_statuses");
    const q = await ok("{ scheduledStatuses(first: 10) { edges { node { id scheduledAt text visibility mediaAttachments { id } } } pageInfo { hasNextPage } } }");
    expect(q.scheduledStatuses.edges.map((e: { node: unknown }) => e.node)).toEqual(
      restList.map((s: { id: string; scheduled_at: string; params: { text: string; visibility: string } }) => ({ id: s.id, scheduledAt: s.scheduled_at, text: s.params.text, visibility: s.params.visibility, mediaAttachments: [] })),
    );
    expect(q.scheduledStatuses.edges[0].node.id).toBe(created.id);
    const one = await ok("query($id: ID!) { scheduledStatus(id: $id) { id text } }", { id: created.id });
    expect(one.scheduledStatus).toEqual({ id: created.id, text: (await rest("GET", `/api/v1/scheduled_statuses/${created.id}`)).params.text });

    const later = new Date(Date.now() + 7200_000).toISOString();
    const moved = await ok("mutation($id: ID!, $at: DateTime!) { rescheduleStatus(id: $id, scheduledAt: $at) { scheduledAt } }", { id: created.id, at: later });
    expect(moved.rescheduleStatus.scheduledAt).toBe(later);
    expect((await server.services.db.scheduledStatus.findUniqueOrThrow({ where: { id: created.id } })).scheduledAt.toISOString()).toBe(later);
    expect((await ok("mutation($id: ID!) { cancelScheduledStatus(id: $id) }", { id: created.id })).cancelScheduledStatus).toBe(true);
    expect(await server.services.db.scheduledStatus.count({ where: { accountId: annId } })).toBe(0);
  });

  test("featured tags: featured, listed and suggested as REST does; unfeaturing deletes the row", async () => {
    await rest("POST", "/api/v1/statuses", { status: "#tomatoes and #beans" });
    const featured = await ok('mutation { featureTag(name: "tomatoes") { id name statusesCount lastStatusAt } }');
    expect(featured.featureTag).toMatchObject({ name: "tomatoes", statusesCount: 1 });
    const restList = await rest("GET", "/api/v1/featured_tags");
    const toRest = (f: { id: string; name: string; statusesCount: number }) => ({ id: f.id, name: f.name, statuses_count: String(f.statusesCount) });
    const mine = await ok("{ featuredTags { id name statusesCount } }");
    expect(mine.featuredTags.map(toRest)).toEqual(restList.map((f: { id: string; name: string; statuses_count: number | string }) => ({ id: f.id, name: f.name, statuses_count: String(f.statuses_count) })));
    const profile = await ok("query($id: ID!) { accountFeaturedTags(accountId: $id) { id } }", { id: annId });
    expect(profile.accountFeaturedTags.map((f: { id: string }) => f.id)).toEqual((await rest("GET", `/api/v1/accounts/${annId}/featured_tags`)).map((f: { id: string }) => f.id));
    const suggested = await ok("{ featuredTagSuggestions { name } }");
    expect(suggested.featuredTagSuggestions.map((t: { name: string }) => t.name)).toEqual((await rest("GET", "/api/v1/featured_tags/suggestions")).map((t: { name: string }) => t.name));
    expect(suggested.featuredTagSuggestions.map((t: { name: string }) => t.name)).toContain("beans");

    expect((await ok("mutation($id: ID!) { unfeatureTag(id: $id) }", { id: featured.featureTag.id })).unfeatureTag).toBe(true);
    expect(await server.services.db.featuredTag.count({ where: { accountId: annId } })).toBe(0);
  });

  test("filters: one filter, its keywords and statuses read as REST reads them", async () => {
    const status = (await rest("POST", "/api/v1/statuses", { status: "filter me" })).id as string;
    const filter = await rest("POST", "/api/v2/filters", { title: "spoilers", context: ["home"], keywords_attributes: [{ keyword: "finale", whole_word: true }] });
    const fs = await rest("POST", `/api/v2/filters/${filter.id}/statuses`, { status_id: status });
    const q = await ok(
      `query($id: ID!, $k: ID!, $s: ID!) { filter(id: $id) { id title context keywords { id keyword } statuses { id statusId } }
        filterKeywords(filterId: $id) { id keyword wholeWord } filterKeyword(id: $k) { keyword }
        filterStatuses(filterId: $id) { id statusId } filterStatus(id: $s) { statusId } }`,
      { id: filter.id, k: filter.keywords[0].id, s: fs.id },
    );
    const restFilter = await rest("GET", `/api/v2/filters/${filter.id}`);
    expect(q.filter).toEqual({
      id: restFilter.id,
      title: restFilter.title,
      context: restFilter.context,
      keywords: restFilter.keywords.map((k: { id: string; keyword: string }) => ({ id: k.id, keyword: k.keyword })),
      statuses: restFilter.statuses.map((s: { id: string; status_id: string }) => ({ id: s.id, statusId: s.status_id })),
    });
    expect(q.filterKeywords).toEqual((await rest("GET", `/api/v2/filters/${filter.id}/keywords`)).map((k: { id: string; keyword: string; whole_word: boolean }) => ({ id: k.id, keyword: k.keyword, wholeWord: k.whole_word })));
    expect(q.filterKeyword.keyword).toBe((await rest("GET", `/api/v2/filters/keywords/${filter.keywords[0].id}`)).keyword);
    expect(q.filterStatuses).toEqual((await rest("GET", `/api/v2/filters/${filter.id}/statuses`)).map((s: { id: string; status_id: string }) => ({ id: s.id, statusId: s.status_id })));
    expect(q.filterStatus.statusId).toBe(status);
  });
});
