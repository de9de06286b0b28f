// Operation-level tests of reports and their moderation: filing one (stored open, staff notified, the
// reporter not; statuses must be the reported account's), and the admin operations over them, which
// refuse viewers without the privilege and log each change; operations called directly, no HTTP.
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { listReports, updateReportStates } from "../../src/domain/reports/admin-reports.ops.ts";
import type { Ctx } from "../../src/domain/context.ts";
import { fileReport, type StatusSnapshotter } from "../../src/domain/reports/reports.ops.ts";
import { postStatus } from "../../src/domain/statuses/statuses.ops.ts";
import type { Account } from "../../src/generated/prisma/client.ts";
import { domainWorld, type DomainWorld } from "../support/domain.ts";

vi.setConfig({ testTimeout: 30_000, hookTimeout: 120_000 });

/** what the surfaces pass to render the reported statuses as they were; here the source text is enough */
const snapshot: StatusSnapshotter = async (_ctx, statuses) => statuses.map((s) => ({ id: s.id, content: s.source }));

describe("report operations", () => {
  let w: DomainWorld;
  let ada: Account, mo: Account, rita: Account, tom: Account;
  let asAda: Ctx, asMo: Ctx, asRita: Ctx, asTom: Ctx;
  let offending: string;

  beforeAll(async () => {
    w = await domainWorld();
    [ada, mo, rita, tom] = [await w.account("ada", { admin: true }), await w.account("mo", { moderator: true }), await w.account("rita"), await w.account("tom")];
    [asAda, asMo, asRita, asTom] = [await w.as(ada), await w.as(mo), await w.as(rita), await w.as(tom)];
    const posted = await postStatus(asTom, { status: "offending post" });
    if (posted.kind !== "status") throw new Error("expected a status");
    offending = posted.status.id;
  });
  afterAll(() => w?.close());

  test("filing stores an open report with the statuses' snapshots and notifies the staff, not the reporter", async () => {
    const { report, target } = await fileReport(asRita, { account_id: tom.id, status_ids: [offending], comment: "spam", snapshot });
    expect(target.id).toBe(tom.id);
    const row = await w.db.report.findUniqueOrThrow({ where: { id: report.id } });
    expect(row).toMatchObject({ reporterId: rita.id, targetId: tom.id, state: "open", statusIds: [offending], comment: "spam" });
    expect(row.statusSnapshots).toEqual([{ id: offending, content: "offending post" }]);
    const notified = await w.db.notification.findMany({ where: { type: "report", reportId: report.id } });
    expect(notified.map((n) => n.accountId).sort()).toEqual([ada.id, mo.id].sort());
  });

  test("filing refuses statuses that are not the reported account's, and unknown accounts", async () => {
    const ritas = await postStatus(asRita, { status: "rita's post" });
    if (ritas.kind !== "status") throw new Error("expected a status");
    await expect(fileReport(asRita, { account_id: tom.id, status_ids: [ritas.status.id], snapshot })).rejects.toMatchObject({
      kind: "unprocessable",
      message: "Validation failed: Statuses must be visible statuses of the reported account",
    });
    await expect(fileReport(asRita, { account_id: "no-such-account", snapshot })).rejects.toMatchObject({ kind: "not_found" });
    await expect(fileReport(w.anonymous, { account_id: tom.id, snapshot })).rejects.toMatchObject({ kind: "forbidden" });
  });

  test("the admin listing refuses non-staff viewers and answers staff with the privilege", async () => {
    await expect(listReports(asTom, {})).rejects.toMatchObject({ kind: "forbidden", message: "User is not a staff member." });
    await expect(listReports(w.anonymous, {})).rejects.toMatchObject({ kind: "forbidden", message: "Invalid credentials." });
    const byAdmin = await listReports(asAda, {});
    expect(byAdmin.total).toBe(await w.db.report.count());
    expect(byAdmin.reports[0]).toMatchObject({ reporter: { id: rita.id }, target: { id: tom.id } });
    expect((await listReports(asMo, { state: "open" })).total).toBe(byAdmin.total);
    expect((await listReports(w.system, {})).total).toBe(byAdmin.total);
  });

  test("changing a report's state: refused without the privilege; applied and logged for staff; unknown states reported per item", async () => {
    const { report } = await fileReport(asRita, { account_id: tom.id, comment: "again", snapshot });
    await expect(updateReportStates(asRita, { reports: [{ id: report.id, state: "resolved" }] })).rejects.toMatchObject({ kind: "forbidden" });
    expect((await w.db.report.findUniqueOrThrow({ where: { id: report.id } })).state).toBe("open");

    const logged = await w.db.moderationLogEntry.count();
    const result = await updateReportStates(asMo, { reports: [{ id: report.id, state: "resolved" }, { id: report.id, state: "bogus" }] });
    expect(result.updated.map((r) => [r.id, r.state])).toEqual([[report.id, "resolved"]]);
    expect(result.errors).toEqual([{ id: report.id, error: "Unsupported state" }]);
    expect((await w.db.report.findUniqueOrThrow({ where: { id: report.id } })).state).toBe("resolved");
    expect(await w.db.moderationLogEntry.count()).toBe(logged + 1);
    expect((await w.db.moderationLogEntry.findFirstOrThrow({ orderBy: { id: "desc" } })).actorId).toBe(mo.id);
  });
});
