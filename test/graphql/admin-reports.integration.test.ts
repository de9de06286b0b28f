// Admin GraphQL: reports, status moderation, instance purge, stats and the moderation log run the REST
// operations under the same guards; `reportFiled` and `moderationLogEntryAdded` arrive over graphql-ws.
import { createClient, type Client } from "graphql-ws";
import WebSocket from "ws";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { newId } from "../../src/db/ids.ts";
import { cast, post as postStatus, type Cast } from "../support/actors.ts";
import { suiteKinds } from "../support/databases.ts";
import { passwordToken, startTestServer, type TestServer } from "../support/server.ts";
import { waitFor } from "../support/wait.ts";

vi.setConfig({ testTimeout: 30_000, hookTimeout: 120_000 });

const ADMIN_TOKEN = "admin-token-for-graphql-tests";
const REPORT_FIELDS = "id state content account { id nickname } actor { id nickname } statusIds statuses { id content } removedStatuses { id content visibility } notes { id content author { nickname } }";

describe.each(suiteKinds(import.meta.url))("admin GraphQL on %s", (kind) => {
  let server: TestServer;
  let id: Cast["id"];
  let token: Cast["token"];
  const gql = async (who: string | null, query: string, variables?: Record<string, unknown>) =>
    (await server.fetch("/graphql", { json: { query, variables }, headers: who ? { authorization: `Bearer ${token[who]}` } : {} })).json();
  const post = (who: string, body: Record<string, unknown>) => postStatus(server, token[who], body);
  const fileReport = async (who: string, target: string, statusIds: string[], comment: string) => {
    const res = await server.fetch("/api/v1/reports", { json: { account_id: id[target], status_ids: statusIds, comment }, headers: { authorization: `Bearer ${token[who]}` } });
    expect(res.status).toBe(200);
    return (await res.json()).id as string;
  };
  const lastLog = async () => (await server.services.db.moderationLogEntry.findFirstOrThrow({ orderBy: { id: "desc" } })).message;
  const ws = (who: string): Client =>
    createClient({ url: server.url.replace("http", "ws") + "/graphql", webSocketImpl: WebSocket, lazy: true, connectionParams: { authorization: `Bearer ${token[who]}` } });

  /**
   * Subscribes, then runs `trigger` again and again until the first event arrives (the server starts
   * listening a moment after the subscribe message); answers that event and what the triggers made.
   */
  async function firstEvent<T>(client: Client, query: string, trigger: () => Promise<string>): Promise<{ event: T; made: string[] }> {
    const made: string[] = [];
    let done = false;
    const event = await new Promise<T>((resolve, reject) => {
      const stop = client.subscribe<T>(
        { query },
        {
          next: (msg) => {
            done = true;
            stop();
            if (msg.errors) reject(new Error(msg.errors.map((e) => e.message).join("; ")));
            else resolve(msg.data as T);
          },
          error: (e) => {
            done = true;
            reject(Array.isArray(e) ? new Error(e.map((x: { message: string }) => x.message).join("; ")) : e);
          },
          complete: () => {},
        },
      );
      void waitFor(
        async () => {
          if (done) return true;
          made.push(await trigger());
          return false;
        },
        "the subscription's first event",
        { timeoutMs: 20_000 },
      ).catch(reject);
    });
    return { event, made };
  }

  beforeAll(async () => {
    server = await startTestServer(kind, { ADMIN_TOKEN });
    ({ id, token } = await cast(server, { ada: { admin: true }, mo: { moderator: true }, rita: {}, tom: {} }));
  });
  afterAll(() => server?.close());

  test("adminReports is a connection with a state filter and totalCount; adminReport shows removed statuses from snapshots", async () => {
    const s1 = await post("tom", { status: "kept post" });
    const s2 = await post("tom", { status: "removed post", visibility: "unlisted" });
    const r1 = await fileReport("rita", "tom", [s1, s2], "two posts");
    const r2 = await fileReport("rita", "tom", [], "closed one");
    await server.services.db.report.update({ where: { id: r2 }, data: { state: "closed" } });
    expect((await server.fetch(`/api/v1/statuses/${s2}`, { method: "DELETE", headers: { authorization: `Bearer ${token.tom}` } })).status).toBe(200);

    const all = await gql("mo", `{ adminReports(first: 1) { totalCount edges { cursor node { id } } pageInfo { hasNextPage endCursor } } }`);
    expect(all.errors).toBeUndefined();
    expect(all.data.adminReports).toMatchObject({ totalCount: 2, edges: [{ node: { id: r2 } }], pageInfo: { hasNextPage: true } });
    const next = await gql("mo", `query($after: String) { adminReports(first: 5, after: $after) { edges { node { id } } pageInfo { hasNextPage } } }`, { after: all.data.adminReports.pageInfo.endCursor });
    expect(next.data.adminReports).toEqual({ edges: [{ node: { id: r1 } }], pageInfo: { hasNextPage: false } });
    const open = await gql("ada", "{ adminReports(state: open) { totalCount edges { node { id state } } } }");
    expect(open.data.adminReports).toEqual({ totalCount: 1, edges: [{ node: { id: r1, state: "open" } }] });

    const one = await gql("ada", `query($id: ID!) { adminReport(id: $id) { ${REPORT_FIELDS} } }`, { id: r1 });
    expect(one.data.adminReport).toEqual({
      id: r1,
      state: "open",
      content: "two posts",
      account: { id: id.tom, nickname: "tom" },
      actor: { id: id.rita, nickname: "rita" },
      statusIds: [s1, s2],
      statuses: [{ id: s1, content: "kept post" }],
      removedStatuses: [{ id: s2, content: "removed post", visibility: "unlisted" }],
      notes: [],
    });
    const missing = await gql("ada", `{ adminReport(id: "nope") { id } }`);
    expect(missing.errors[0]).toMatchObject({ message: "Not found", extensions: { code: "NOT_FOUND" } });
  });

  test("updateReportState, addReportNote and deleteReportNote write the family's log messages", async () => {
    const r = await fileReport("rita", "tom", [], "graphql report");
    const updated = await gql("mo", "mutation($id: ID!) { updateReportState(id: $id, state: resolved) { id state } }", { id: r });
    expect(updated.data.updateReportState).toEqual({ id: r, state: "resolved" });
    expect(await lastLog()).toBe(`@mo updated report #${r} (on user @tom) with 'resolved' state`);
    const unknown = await gql("mo", `mutation { updateReportState(id: "nope", state: closed) { id } }`);
    expect(unknown.errors[0]).toMatchObject({ message: "Not found", extensions: { code: "NOT_FOUND" } });

    const noted = await gql("ada", "mutation($id: ID!) { addReportNote(reportId: $id, content: \"checked\") { notes { id content author { nickname } } } }", { id: r });
    expect(noted.data.addReportNote.notes).toEqual([{ id: expect.any(String), content: "checked", author: { nickname: "ada" } }]);
    expect(await lastLog()).toBe(`@ada added note 'checked' to report #${r} on user @tom`);
    const noteId = noted.data.addReportNote.notes[0].id;
    const removed = await gql("ada", "mutation($id: ID!, $note: ID!) { deleteReportNote(reportId: $id, noteId: $note) { notes { id } } }", { id: r, note: noteId });
    expect(removed.data.deleteReportNote.notes).toEqual([]);
    expect(await lastLog()).toBe(`@ada deleted note 'checked' from report #${r} on user @tom`);
  });

  test("adminStatuses (godmode, localOnly, withReblogs), adminUpdateStatus and adminDeleteStatus", async () => {
    const pub = await post("tom", { status: "gql public" });
    const priv = await post("tom", { status: "gql private", visibility: "private" });
    const list = async (args: string) =>
      (await gql("ada", `{ adminStatuses(first: 50${args}) { totalCount edges { node { id } } } }`)).data.adminStatuses.edges.map((e: any) => e.node.id) as string[];
    expect(await list("")).toContain(pub);
    expect(await list("")).not.toContain(priv);
    expect(await list(", godmode: true, localOnly: true")).toContain(priv);

    const updated = await gql("mo", "mutation($id: ID!) { adminUpdateStatus(id: $id, sensitive: true, visibility: \"unlisted\") { id sensitive visibility } }", { id: pub });
    expect(updated.data.adminUpdateStatus).toEqual({ id: pub, sensitive: true, visibility: "unlisted" });
    expect(await lastLog()).toBe(`@mo updated status #${pub}, set sensitive: 'true', visibility: 'unlisted'`);
    const bad = await gql("mo", "mutation($id: ID!) { adminUpdateStatus(id: $id, visibility: \"direct\") { id } }", { id: pub });
    expect(bad.errors[0]).toMatchObject({ message: "Unsupported visibility", extensions: { code: "INVALID" } });

    const deleted = await gql("mo", "mutation($id: ID!) { adminDeleteStatus(id: $id) }", { id: priv });
    expect(deleted.data.adminDeleteStatus).toBe(priv);
    expect(await server.services.db.status.count({ where: { id: priv } })).toBe(0);
    expect(await lastLog()).toBe(`@mo deleted status #${priv}`);
    // moderators do not read listings (messages_read is not theirs by default)
    const refused = await gql("mo", "{ adminStatuses { totalCount } }");
    expect(refused.errors[0].message).toMatch(/not authorized/i);
  });

  test("stats, moderationLog and purgeInstance; moderators, users and anonymous are refused", async () => {
    const stats = await gql("ada", `{ stats { public unlisted private direct } local: stats(instance: "localhost:4000") { public } }`);
    expect(stats.errors).toBeUndefined();
    expect(stats.data.local.public).toBe(await server.services.db.status.count({ where: { local: true, visibility: "public", reblogOfId: null } }));

    const log = await gql("ada", `{ moderationLog(first: 2, search: "DELETED STATUS") { totalCount edges { node { message action time actor { nickname } dataJson } } } }`);
    expect(log.errors).toBeUndefined();
    expect(log.data.moderationLog.totalCount).toBe(await server.services.db.moderationLogEntry.count({ where: { message: { contains: "deleted status" } } }));
    expect(log.data.moderationLog.edges[0].node).toMatchObject({ action: "status_delete", actor: { nickname: "mo" }, message: expect.stringMatching(/^@mo deleted status #/) });
    expect(JSON.parse(log.data.moderationLog.edges[0].node.dataJson)).toMatchObject({ action: "status_delete", actor: { nickname: "mo" } });

    const remote = await server.services.db.account.create({ data: { id: newId(), nickname: "bob@gone.example", domain: "gone.example", local: false, apId: "https://gone.example/users/bob" } });
    const purge = await gql("ada", `mutation { purgeInstance(instance: "gone.example") }`);
    expect(purge.data.purgeInstance).toBe("gone.example");
    expect(await server.services.db.job.count({ where: { name: "admin.instances.purge", payload: { path: ["host"], equals: "gone.example" } } })).toBe(1);
    expect(await server.services.db.moderationLogEntry.count({ where: { action: "instance_delete", message: { endsWith: "requested deletion of instance gone.example" } } })).toBe(1);

    for (const query of ["{ stats { public } }", "{ moderationLog { totalCount } }", `mutation { purgeInstance(instance: "x.example") }`]) {
      for (const who of ["mo", "tom", null]) {
        const refused = await gql(who, query);
        expect(refused.errors?.[0]?.message, `${who}: ${query}`).toMatch(/not authorized/i);
      }
    }
    for (const query of ["{ adminReports { totalCount } }", `mutation { updateReportState(id: "x", state: open) { id } }`]) {
      for (const who of ["tom", null]) expect((await gql(who, query)).errors?.[0]?.message).toMatch(/not authorized/i);
    }
    // the admin-scoped token is needed even for an admin, and the admin token passes
    const plain = (await passwordToken(server, "ada", "read write")).access_token;
    const unscoped = await (await server.fetch("/graphql", { json: { query: "{ stats { public } }" }, headers: { authorization: `Bearer ${plain}` } })).json();
    expect(unscoped.errors[0].message).toMatch(/not authorized/i);
    const viaToken = await (await server.fetch("/graphql", { json: { query: "{ stats { public } }" }, headers: { "x-admin-token": ADMIN_TOKEN } })).json();
    expect(viaToken.errors).toBeUndefined();
    expect(await server.services.db.account.count({ where: { id: remote.id } })).toBeLessThanOrEqual(1);
  });

  test("reportFiled delivers each new report to staff over graphql-ws", async () => {
    const client = ws("mo");
    try {
      const { event, made } = await firstEvent<{ reportFiled: { id: string; content: string; account: { nickname: string } } }>(
        client,
        "subscription { reportFiled { id content account { nickname } } }",
        () => fileReport("rita", "tom", [], "live report"),
      );
      expect(made).toContain(event.reportFiled.id);
      expect(event.reportFiled).toMatchObject({ content: "live report", account: { nickname: "tom" } });
    } finally {
      await client.dispose();
    }
  });

  test("moderationLogEntryAdded delivers each new entry to admins over graphql-ws", async () => {
    const r = await fileReport("rita", "tom", [], "to be toggled");
    let state = "open";
    const client = ws("ada");
    try {
      const { event } = await firstEvent<{ moderationLogEntryAdded: { id: string; message: string; actor: { nickname: string } } }>(
        client,
        "subscription { moderationLogEntryAdded { id message actor { nickname } } }",
        async () => {
          state = state === "open" ? "closed" : "open";
          const res = await server.fetch("/api/v1/ext/admin/reports", { method: "PATCH", json: { reports: [{ id: r, state }] }, headers: { authorization: `Bearer ${token.mo}` } });
          expect(res.status).toBe(204);
          return state;
        },
      );
      const row = await server.services.db.moderationLogEntry.findUniqueOrThrow({ where: { id: Number(event.moderationLogEntryAdded.id) } });
      expect(event.moderationLogEntryAdded).toEqual({ id: String(row.id), message: row.message, actor: { nickname: "mo" } });
      expect(row.message).toMatch(new RegExp(`^@mo updated report #${r} \\(on user @tom\\) with '(open|closed)' state$`));
    } finally {
      await client.dispose();
    }
  });

  test("subscriptions refuse users without the privilege when they start", async () => {
    for (const [who, query, message] of [
      ["tom", "subscription { reportFiled { id } }", "User is not a staff member."],
      ["mo", "subscription { moderationLogEntryAdded { id } }", "User isn't privileged."],
    ] as const) {
      const client = ws(who);
      try {
        const outcome = await new Promise<string>((resolve) => {
          client.subscribe(
            { query },
            {
              next: (msg) => resolve(msg.errors?.map((e) => e.message).join("; ") ?? "data"),
              error: (e) => resolve(Array.isArray(e) ? e.map((x: { message: string }) => x.message).join("; ") : String(e)),
              complete: () => resolve("complete"),
            },
          );
        });
        expect(outcome).toBe(message);
      } finally {
        await client.dispose();
      }
    }
  });
});
