// POST /api/v1/reports: the Report entity, the stored report (open, with status snapshots that outlive
// the statuses) and the `report` notifications of local staff.
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { newId } from "../../src/db/ids.ts";
import { suiteKinds } from "../support/databases.ts";
import { cast, user, USER_SCOPES } from "../support/actors.ts";
import { passwordToken, startTestServer, type TestServer } from "../support/server.ts";

vi.setConfig({ testTimeout: 30_000, hookTimeout: 120_000 });

const auth = (token: string) => ({ authorization: `Bearer ${token}` });

describe.each(suiteKinds(import.meta.url))("reports on %s", (kind) => {
  let server: TestServer;
  const id: Record<string, string> = {};
  const token: Record<string, string> = {};
  const report = (who: string, body: Record<string, unknown>) => server.fetch("/api/v1/reports", { json: body, headers: auth(token[who]) });
  const post = async (who: string, body: Record<string, unknown>) => {
    const res = await server.fetch("/api/v1/statuses", { json: body, headers: auth(token[who]) });
    expect(res.status).toBe(200);
    return (await res.json()).id as string;
  };
  const reportCount = () => server.services.db.report.count();

  beforeAll(async () => {
    server = await startTestServer(kind);
    const people = await cast(server, { rita: {}, tom: {}, pat: {}, ada: { admin: true }, mo: { moderator: true }, gone: { admin: true } }, USER_SCOPES);
    Object.assign(id, people.id);
    Object.assign(token, people.token);
    await server.services.db.account.update({ where: { id: id.gone }, data: { deactivated: true } });
  });
  afterAll(() => server?.close());

  test("a report with statuses: the Report entity, the stored open report with snapshots, staff notified", async () => {
    const s1 = await post("tom", { status: "first offending post" });
    const s2 = await post("tom", { status: "second one, unlisted", visibility: "unlisted" });
    const res = await report("rita", { account_id: id.tom, status_ids: [s1, s2], comment: "spam, twice", forward: false });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toEqual({
      id: expect.any(String),
      action_taken: false,
      action_taken_at: null,
      category: "other",
      comment: "spam, twice",
      forwarded: false,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      status_ids: [s1, s2],
      rule_ids: null,
      target_account: expect.objectContaining({ id: id.tom, acct: "tom", username: "tom" }),
    });

    const row = await server.services.db.report.findUniqueOrThrow({ where: { id: body.id } });
    expect(row).toMatchObject({ reporterId: id.rita, targetId: id.tom, statusIds: [s1, s2], comment: "spam, twice", forward: false, state: "open" });
    expect(row.createdAt.toISOString()).toBe(body.created_at);
    const snapshots = row.statusSnapshots as Array<Record<string, any>>;
    expect(snapshots).toHaveLength(2);
    expect(snapshots[0]).toMatchObject({ id: s1, content: "first offending post", visibility: "public", account: { id: id.tom, acct: "tom" }, favourited: false });
    expect(snapshots[1]).toMatchObject({ id: s2, content: "second one, unlisted", visibility: "unlisted" });

    const notifications = await server.services.db.notification.findMany({ where: { type: "report" } });
    expect(notifications.map((n) => n.accountId).sort()).toEqual([id.ada, id.mo].sort());
    for (const n of notifications) expect(n).toMatchObject({ fromAccountId: id.rita, reportId: body.id, statusId: null, seen: false });

    // the snapshots outlive the statuses
    expect((await server.fetch(`/api/v1/statuses/${s1}`, { method: "DELETE", headers: auth(token.tom) })).status).toBe(200);
    const after = await server.services.db.report.findUniqueOrThrow({ where: { id: body.id } });
    expect((after.statusSnapshots as Array<Record<string, unknown>>)[0]).toMatchObject({ id: s1, content: "first offending post" });
  });

  test("form parameters (status_ids[], forward, rule_ids[]); no statuses; a staff reporter is not notified of their own report", async () => {
    const s = await post("tom", { status: "form-reported" });
    const before = await server.services.db.notification.count({ where: { type: "report" } });
    const res = await server.fetch("/api/v1/reports", { form: { account_id: id.tom, "status_ids[]": [s], forward: "true", "rule_ids[]": ["1"], category: "spam" }, headers: auth(token.ada) });
    expect(res.status).toBe(200);
    const body = await res.json();
    // a local account's report is never forwarded; rules are kept only for a "violation"
    expect(body).toMatchObject({ status_ids: [s], forwarded: false, rule_ids: null, category: "spam", comment: "" });
    expect(await server.services.db.report.findUniqueOrThrow({ where: { id: body.id } })).toMatchObject({ forward: true, comment: "", reporterId: id.ada });
    const notified = await server.services.db.notification.findMany({ where: { type: "report", reportId: body.id } });
    expect(notified.map((n) => n.accountId)).toEqual([id.mo]);
    expect(await server.services.db.notification.count({ where: { type: "report" } })).toBe(before + 1);

    const bare = await report("pat", { account_id: id.tom });
    expect(bare.status).toBe(200);
    const bareBody = await bare.json();
    expect(bareBody).toMatchObject({ status_ids: [], comment: "", forwarded: false });
    expect((await server.services.db.report.findUniqueOrThrow({ where: { id: bareBody.id } })).statusSnapshots).toEqual([]);
  });

  test("a remote account's report asked to be forwarded says forwarded", async () => {
    const remote = await server.services.db.account.create({ data: { id: newId(), nickname: "far@remote.test", domain: "remote.test", local: false, apId: "https://remote.test/users/far" } });
    const res = await report("rita", { account_id: remote.id, forward: true, comment: "hi" });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ forwarded: true, target_account: { id: remote.id, acct: "far@remote.test" } });
  });

  test("refusals: unknown account 404; another account's, unknown or invisible statuses 422; long comments 422; nothing stored", async () => {
    const count = await reportCount();
    const notifications = await server.services.db.notification.count();
    const unknown = await report("rita", { account_id: newId(), comment: "who?" });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ error: "Record not found" });

    const patStatus = await post("pat", { status: "pat's own" });
    const tomStatus = await post("tom", { status: "tom's" });
    const tomPrivate = await post("tom", { status: "followers only", visibility: "private" });
    const statusError = { error: "Validation failed: Statuses must be visible statuses of the reported account" };
    for (const statusIds of [[tomStatus, patStatus], [newId()], [tomPrivate]]) {
      const res = await report("rita", { account_id: id.tom, status_ids: statusIds });
      expect(res.status).toBe(422);
      expect(await res.json()).toEqual(statusError);
    }
    const tooLong = await report("rita", { account_id: id.tom, comment: "x".repeat(1001) });
    expect(tooLong.status).toBe(422);
    expect(await tooLong.json()).toEqual({ error: "Validation failed: Comment is too long (maximum is 1000 characters)" });
    const missing = await report("rita", { comment: "no account" });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ error: "Missing field: account_id." });
    expect(await reportCount()).toBe(count);
    expect(await server.services.db.notification.count()).toBe(notifications);

    const limit = await report("rita", { account_id: id.tom, comment: "é".repeat(1000), status_ids: [tomStatus] });
    expect(limit.status).toBe(200);
    expect(await reportCount()).toBe(count + 1);

    // a followers-only status may be reported by a follower, who sees it
    expect((await server.fetch(`/api/v1/accounts/${id.tom}/follow`, { method: "POST", headers: auth(token.pat) })).status).toBe(200);
    const byFollower = await report("pat", { account_id: id.tom, status_ids: [tomPrivate] });
    expect(byFollower.status).toBe(200);
    expect(await byFollower.json()).toMatchObject({ status_ids: [tomPrivate] });
  });

  test("scopes: anonymous 403, a token without write:reports 403, write:reports alone is enough", async () => {
    expect((await server.fetch("/api/v1/reports", { json: { account_id: id.tom } })).status).toBe(403);
    const readOnly = (await passwordToken(server, "rita", "read")).access_token;
    const refused = await server.fetch("/api/v1/reports", { json: { account_id: id.tom }, headers: auth(readOnly) });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ error: "Insufficient permissions: write:reports." });
    const narrow = (await passwordToken(server, "rita", "write:reports")).access_token;
    expect((await server.fetch("/api/v1/reports", { json: { account_id: id.tom }, headers: auth(narrow) })).status).toBe(200);
  });

  test("GET /api/v0/<ns>/reports(/:id): the reporter's own reports only, paged, plain accounts, no moderators' notes", async () => {
    const ns = server.services.settings.namespace;
    const { id: vic, token: vicToken } = await user(server, "vic");
    [id.vic, token.vic] = [vic, vicToken];
    await server.services.db.account.update({ where: { id: id.tom }, data: { email: "tom@secret.example" } });
    const status = await post("tom", { status: "reported by vic" });
    const filed = await report("vic", { account_id: id.tom, status_ids: [status], comment: "first <b>one</b>" });
    const first = (await filed.json()).id as string;
    expect(first, `${filed.status}`).toBeTruthy();
    const second = (await (await report("vic", { account_id: id.pat, comment: "second" })).json()).id as string;
    await server.services.db.reportNote.create({ data: { id: newId(), reportId: first, authorId: id.mo, content: "moderators only" } });
    const others = (await (await report("rita", { account_id: id.tom, comment: "rita's" })).json()).id as string;

    const list = await server.fetch(`/api/v0/${ns}/reports`, { headers: auth(vicToken) });
    expect(list.status).toBe(200);
    const body = await list.json();
    expect(body.total).toBe(2);
    expect(body.reports.map((r: { id: string }) => r.id)).toEqual([second, first]);
    const one = body.reports[1];
    expect(one).toMatchObject({ id: first, state: "open", content: "first &#60;b&#62;one&#60;/b&#62;", notes: [], account: { id: id.tom, acct: "tom" }, actor: { id: vic, acct: "vic" } });
    expect(one.statuses.map((s: { id: string }) => s.id)).toEqual([status]);
    expect(JSON.stringify(body)).not.toContain("tom@secret.example");
    expect(JSON.stringify(body)).not.toContain("moderators only");

    const paged = await (await server.fetch(`/api/v0/${ns}/reports?size=1&page=2`, { headers: auth(vicToken) })).json();
    expect(paged).toMatchObject({ total: 2, reports: [{ id: first }] });
    const closed = await (await server.fetch(`/api/v0/${ns}/reports?state=closed`, { headers: auth(vicToken) })).json();
    expect(closed).toEqual({ total: 0, reports: [] });

    const shown = await server.fetch(`/api/v0/${ns}/reports/${first}`, { headers: auth(vicToken) });
    expect(shown.status).toBe(200);
    expect(await shown.json()).toEqual(one);
    const foreign = await server.fetch(`/api/v0/${ns}/reports/${others}`, { headers: auth(vicToken) });
    expect(foreign.status).toBe(404);
    expect(await foreign.json()).toEqual({ error: "Not found" });
    expect((await server.fetch(`/api/v0/${ns}/reports`)).status).toBe(403);
    const writeOnly = (await passwordToken(server, "vic", "write:reports")).access_token;
    expect((await server.fetch(`/api/v0/${ns}/reports`, { headers: auth(writeOnly) })).status).toBe(403);
  });
});
