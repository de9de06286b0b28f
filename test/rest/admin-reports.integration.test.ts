// Admin API reports: list, grouped, show, bulk state update, notes; the Report entity with admin
// accounts and statuses (deleted ones from their snapshot); moderation-log messages; privileges.
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { bearer, cast, post as postStatus, type Cast } from "../support/actors.ts";
import { suiteKinds } from "../support/databases.ts";
import { passwordToken, startTestServer, type TestServer } from "../support/server.ts";

vi.setConfig({ testTimeout: 30_000, hookTimeout: 120_000 });

const ADMIN_TOKEN = "admin-token-for-tests";
const PREFIXES = ["/api/v1/ext/admin", "/api/ext/admin"];

describe.each(suiteKinds(import.meta.url))("admin reports on %s", (kind) => {
  let server: TestServer;
  let id: Cast["id"];
  let token: Cast["token"];
  const call = (who: string | null, method: string, path: string, json?: unknown, prefix = PREFIXES[0]) =>
    server.fetch(prefix + path, { method, json, headers: who ? bearer(token[who]) : {} });
  const post = (who: string, body: Record<string, unknown>) => postStatus(server, token[who], body);
  const fileReport = async (who: string, target: string, statusIds: string[], comment: string) => {
    const res = await server.fetch("/api/v1/reports", { json: { account_id: id[target], status_ids: statusIds, comment }, headers: bearer(token[who]) });
    expect(res.status).toBe(200);
    return (await res.json()).id as string;
  };
  const lastLog = async () => (await server.services.db.moderationLogEntry.findFirstOrThrow({ orderBy: { id: "desc" } })).message;
  const logCount = () => server.services.db.moderationLogEntry.count();

  beforeAll(async () => {
    server = await startTestServer(kind, { ADMIN_TOKEN });
    ({ id, token } = await cast(server, { ada: { admin: true }, mo: { moderator: true }, rita: {}, tom: {}, pat: {} }));
  });
  afterAll(() => server?.close());

  test("GET /reports: {total, reports} newest first with the Report entity; both prefixes answer the same", async () => {
    const s1 = await post("tom", { status: "offending post" });
    const reportId = await fileReport("rita", "tom", [s1], "spam <b>here</b>");
    const [a, b] = await Promise.all(PREFIXES.map((p) => call("ada", "GET", "/reports", undefined, p)));
    expect(a.status).toBe(200);
    const body = await a.json();
    expect(await b.json()).toEqual(body);
    expect(body.total).toBe(await server.services.db.report.count());
    const report = body.reports[0];
    expect(report).toEqual({
      id: reportId,
      state: "open",
      content: "spam &#60;b&#62;here&#60;/b&#62;",
      category: "other",
      rule_ids: [],
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      account: expect.objectContaining({ id: id.tom, acct: "tom", nickname: "tom", roles: { admin: false, moderator: false }, local: true, tags: [], is_active: true }),
      actor: expect.objectContaining({ id: id.rita, acct: "rita", nickname: "rita", ext: expect.objectContaining({ is_admin: false }) }),
      statuses: [expect.objectContaining({ id: s1, content: "offending post", visibility: "public", account: expect.objectContaining({ id: id.tom, nickname: "tom" }) })],
      notes: [],
    });
  });

  test("state filter, page / page_size and the earlier `limit`", async () => {
    const s = await post("tom", { status: "another" });
    const r1 = await fileReport("rita", "tom", [s], "one");
    const r2 = await fileReport("pat", "tom", [], "two");
    await server.services.db.report.update({ where: { id: r1 }, data: { state: "closed" } });
    const closed = await (await call("ada", "GET", "/reports?state=closed")).json();
    expect(closed.total).toBe(await server.services.db.report.count({ where: { state: "closed" } }));
    expect(closed.reports.map((r: any) => r.id)).toContain(r1);
    expect(closed.reports.every((r: any) => r.state === "closed")).toBe(true);

    const all = await server.services.db.report.count();
    const page1 = await (await call("ada", "GET", "/reports?page=1&page_size=1")).json();
    expect(page1).toMatchObject({ total: all, reports: [{ id: r2 }] });
    const page2 = await (await call("ada", "GET", "/reports?page=2&page_size=1")).json();
    expect(page2.reports.map((r: any) => r.id)).toEqual([r1]);
    const limited = await (await call("ada", "GET", "/reports?limit=2")).json();
    expect(limited.reports).toHaveLength(2);
    expect((await call("ada", "GET", "/reports?state=bogus")).status).toBe(400);
  });

  test("a reported status deleted afterwards is still rendered, from its snapshot", async () => {
    const s = await post("tom", { status: "soon deleted", visibility: "unlisted" });
    const reportId = await fileReport("rita", "tom", [s], "gone later");
    expect((await server.fetch(`/api/v1/statuses/${s}`, { method: "DELETE", headers: bearer(token.tom) })).status).toBe(200);
    expect(await server.services.db.status.count({ where: { id: s } })).toBe(0);
    const res = await call("ada", "GET", `/reports/${reportId}`);
    expect(res.status).toBe(200);
    const report = await res.json();
    expect(report.statuses).toEqual([expect.objectContaining({ id: s, content: "soon deleted", visibility: "unlisted", account: expect.objectContaining({ id: id.tom, nickname: "tom" }) })]);
  });

  test("GET /reports/:id answers 404 {error: \"Not found\"} for an unknown id", async () => {
    for (const prefix of PREFIXES) {
      const res = await call("ada", "GET", "/reports/test", undefined, prefix);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error: "Not found" });
    }
  });

  test("GET /grouped_reports groups reports by reported status", async () => {
    const s = await post("tom", { status: "reported twice" });
    const r1 = await fileReport("rita", "tom", [s], "first");
    const r2 = await fileReport("pat", "tom", [s], "second");
    const res = await call("ada", "GET", "/grouped_reports");
    expect(res.status).toBe(200);
    const { reports } = await res.json();
    const group = reports.find((g: any) => g.status?.id === s);
    expect(group).toEqual({
      date: expect.stringMatching(/^\d{4}-/),
      account: expect.objectContaining({ id: id.tom, nickname: "tom" }),
      status: expect.objectContaining({ id: s, content: "reported twice" }),
      actors: [expect.objectContaining({ id: id.pat }), expect.objectContaining({ id: id.rita })],
      reports: [expect.objectContaining({ id: r2 }), expect.objectContaining({ id: r1 })],
    });
    const newest = await server.services.db.report.findUniqueOrThrow({ where: { id: r2 } });
    expect(group.date).toBe(newest.createdAt.toISOString());
    // a report without statuses is in no group
    const bare = await fileReport("pat", "tom", [], "no statuses");
    const again = (await (await call("ada", "GET", "/grouped_reports")).json()).reports;
    expect(again.flatMap((g: any) => g.reports.map((r: any) => r.id))).not.toContain(bare);
  });

  test("PATCH /reports: 204, states applied, one log entry per report with the family's message", async () => {
    const r1 = await fileReport("rita", "tom", [], "a");
    const r2 = await fileReport("rita", "pat", [], "b");
    const before = await logCount();
    const res = await call("ada", "PATCH", "/reports", { reports: [{ id: r1, state: "resolved" }, { id: r2, state: "closed" }] });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe("");
    expect((await server.services.db.report.findUniqueOrThrow({ where: { id: r1 } })).state).toBe("resolved");
    expect((await server.services.db.report.findUniqueOrThrow({ where: { id: r2 } })).state).toBe("closed");
    const entries = await server.services.db.moderationLogEntry.findMany({ where: { id: { gt: 0 } }, orderBy: { id: "asc" }, skip: before });
    expect(entries.map((e) => e.message)).toEqual([
      `@ada updated report #${r1} (on user @tom) with 'resolved' state`,
      `@ada updated report #${r2} (on user @pat) with 'closed' state`,
    ]);
    expect(entries[0]).toMatchObject({ action: "report_update", actorId: id.ada });
    expect(entries[0].data).toMatchObject({ action: "report_update", actor: { id: id.ada, nickname: "ada" }, subject: { type: "report", id: r1, state: "resolved" }, subject_actor: { id: id.tom, nickname: "tom" } });
  });

  test("PATCH /reports: invalid entries answer 400 [{id, error}] while the valid ones apply", async () => {
    const r = await fileReport("rita", "tom", [], "mixed batch");
    const before = await logCount();
    const res = await call("ada", "PATCH", "/reports", {
      reports: [
        { id: r, state: "test" },
        { id: "test", state: "closed" },
        { id: r, state: "resolved" },
      ],
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual([
      { id: r, error: "Unsupported state" },
      { id: "test", error: "not_found" },
    ]);
    expect((await server.services.db.report.findUniqueOrThrow({ where: { id: r } })).state).toBe("resolved");
    expect(await logCount()).toBe(before + 1);
    // a body without `reports` is a validation error in the family's shape
    const bad = await call("ada", "PATCH", "/reports", {});
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: "Missing field: reports.", errors: [expect.objectContaining({ title: "Invalid value" })] });
  });

  test("notes: add (204, shown with their author, logged) and delete (204, logged)", async () => {
    const r = await fileReport("rita", "tom", [], "needs a note");
    const res = await call("ada", "POST", `/reports/${r}/notes`, { content: "looked at it" });
    expect(res.status).toBe(204);
    expect(await lastLog()).toBe(`@ada added note 'looked at it' to report #${r} on user @tom`);
    expect((await call("mo", "POST", `/reports/${r}/notes`, { content: "me too" })).status).toBe(204);
    expect(await lastLog()).toBe(`@mo added note 'me too' to report #${r} on user @tom`);

    const report = await (await call("ada", "GET", `/reports/${r}`)).json();
    expect(report.notes).toEqual([
      { id: expect.any(String), user_id: id.ada, content: "looked at it", created_at: expect.stringMatching(/^\d{4}-/), user: expect.objectContaining({ id: id.ada, nickname: "ada", roles: { admin: true, moderator: false } }) },
      { id: expect.any(String), user_id: id.mo, content: "me too", created_at: expect.stringMatching(/^\d{4}-/), user: expect.objectContaining({ id: id.mo, nickname: "mo" }) },
    ]);
    const noteId = report.notes[0].id;
    const del = await call("ada", "DELETE", `/reports/${r}/notes/${noteId}`, undefined, PREFIXES[1]);
    expect(del.status).toBe(204);
    expect(await server.services.db.reportNote.count({ where: { id: noteId } })).toBe(0);
    expect(await lastLog()).toBe(`@ada deleted note 'looked at it' from report #${r} on user @tom`);
  });

  test("notes: missing content, unknown report or unknown note answer 400 \"Invalid parameters\"", async () => {
    const r = await fileReport("rita", "tom", [], "note errors");
    const before = await logCount();
    for (const [method, path, body] of [
      ["POST", `/reports/${r}/notes`, {}],
      ["POST", `/reports/${r}/notes`, { content: "  " }],
      ["POST", "/reports/nope/notes", { content: "x" }],
      ["DELETE", `/reports/${r}/notes/nope`, undefined],
    ] as const) {
      const res = await call("ada", method, path, body);
      expect(res.status, `${method} ${path}`).toBe(400);
      expect(await res.json()).toBe("Invalid parameters");
    }
    // a note of another report is not this report's
    expect((await call("ada", "POST", `/reports/${r}/notes`, { content: "kept" })).status).toBe(204);
    const noteId = (await server.services.db.reportNote.findFirstOrThrow({ where: { reportId: r } })).id;
    const other = await fileReport("rita", "tom", [], "other");
    expect((await call("ada", "DELETE", `/reports/${other}/notes/${noteId}`)).status).toBe(400);
    expect(await server.services.db.reportNote.count({ where: { id: noteId } })).toBe(1);
    expect(await logCount()).toBe(before + 1);
  });

  test("moderators manage reports; plain users and anonymous are refused with 403 {error}", async () => {
    const r = await fileReport("rita", "tom", [], "privileges");
    expect((await call("mo", "GET", "/reports")).status).toBe(200);
    expect((await call("mo", "GET", `/reports/${r}`)).status).toBe(200);
    expect((await call("mo", "PATCH", "/reports", { reports: [{ id: r, state: "closed" }] })).status).toBe(204);
    expect(await lastLog()).toBe(`@mo updated report #${r} (on user @tom) with 'closed' state`);

    for (const [method, path, body] of [
      ["GET", "/reports", undefined],
      ["GET", "/grouped_reports", undefined],
      ["GET", `/reports/${r}`, undefined],
      ["PATCH", "/reports", { reports: [{ id: r, state: "open" }] }],
      ["POST", `/reports/${r}/notes`, { content: "no" }],
      ["DELETE", `/reports/${r}/notes/x`, undefined],
    ] as const) {
      const user = await call("pat", method, path, body);
      expect(user.status, `${method} ${path}`).toBe(403);
      expect(await user.json()).toEqual({ error: "User is not a staff member." });
      const anon = await call(null, method, path, body);
      expect(anon.status).toBe(403);
      expect(await anon.json()).toEqual({ error: "Invalid credentials." });
    }
    expect((await server.services.db.report.findUniqueOrThrow({ where: { id: r } })).state).toBe("closed");
    // a staff token without the admin scope
    const plain = (await passwordToken(server, "ada", "read write")).access_token;
    const scoped = await server.fetch(`${PREFIXES[0]}/reports`, { headers: bearer(plain) });
    expect(scoped.status).toBe(403);
    expect(await scoped.json()).toEqual({ error: "Insufficient permissions: admin:read:reports." });
  });

  test("the admin token acts as an admin", async () => {
    const r = await fileReport("rita", "tom", [], "token");
    const list = await server.fetch(`${PREFIXES[1]}/reports?admin_token=${ADMIN_TOKEN}`);
    expect(list.status).toBe(200);
    const res = await server.fetch(`${PREFIXES[0]}/reports`, { method: "PATCH", json: { reports: [{ id: r, state: "resolved" }] }, headers: { "x-admin-token": ADMIN_TOKEN } });
    expect(res.status).toBe(204);
    expect(await lastLog()).toBe(`@admin_token updated report #${r} (on user @tom) with 'resolved' state`);
  });

  test("the list costs a fixed number of queries whatever its length", async () => {
    const s = await post("tom", { status: "n+1 check" });
    await fileReport("rita", "tom", [s], "q1");
    const small = await server.countQueries(() => call("ada", "GET", "/reports?page_size=1").then((r) => r.json()));
    for (let i = 0; i < 3; i++) await fileReport("pat", "tom", [await post("tom", { status: `more ${i}` })], `q${i}`);
    const large = await server.countQueries(() => call("ada", "GET", "/reports?page_size=6").then((r) => r.json()));
    expect(large.result.reports).toHaveLength(6);
    expect(large.queries).toBe(small.queries);
  });
});
