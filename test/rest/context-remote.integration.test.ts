// The context of a remote thread whose top has no stored parent (issue 17: the context row of
// bench:http): the first view tries to fetch the missing ancestors; the next views of this process do not ask
// again, and read the thread once — the top is not read again when the walk changed nothing.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { suiteKinds } from "../support/databases.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { call, user, type User } from "./relationships-helpers.ts";
import { pageCacheOf } from "../../src/http/routes/page-cache.ts";

describe.each(suiteKinds(import.meta.url))("context of a remote thread on %s", (kind) => {
  let server: TestServer;
  let ana: User;
  beforeAll(async () => {
    server = await startTestServer(kind);
    ana = await user(server, "ana");
  }, 120_000);
  afterAll(() => server?.close());

  test("once the ancestor walk is remembered, a view does not read the top status again", async () => {
    const db = server.services.db;
    const rem = await db.account.create({ data: { id: "rem-1", nickname: "rem@nowhere.invalid", apId: "https://nowhere.invalid/users/rem", domain: "nowhere.invalid", local: false } });
    const top = await db.status.create({
      data: { id: "01remtop00000000000000000a", uri: "https://nowhere.invalid/notes/top", accountId: rem.id, local: false, content: "<p>top</p>", visibility: "public", context: "https://nowhere.invalid/ctx/1" },
    });
    await db.status.create({
      data: { id: "01remtop00000000000000000b", uri: "https://nowhere.invalid/notes/reply", accountId: rem.id, local: false, content: "<p>reply</p>", visibility: "public", context: top.context, inReplyToId: top.id, inReplyToAccountId: rem.id },
    });
    // the first view walks (the host does not resolve) and remembers that it tried
    const first = await call(server, ana, "GET", `/api/v1/statuses/${top.id}/context`);
    expect(first.status).toBe(200);
    // the top shown once (rendering it puts it in the status cache, as a timeline page would)
    expect((await call(server, ana, "GET", `/api/v1/statuses/${top.id}`)).status).toBe(200);
    pageCacheOf(server.services)!.clear(); // the thread is built again (a kept page would cost no statement)
    const seen: string[] = [];
    const stop = server.database.onQuery((sql) => void seen.push(sql));
    const second = await call(server, ana, "GET", `/api/v1/statuses/${top.id}/context`);
    stop();
    expect(second.status).toBe(200);
    expect(second.body.descendants.map((s: { id: string }) => s.id)).toEqual(["01remtop00000000000000000b"]);
    // the status asked for comes from the status cache (statuses.read.ts getVisibleStatus); the thread is read by its
    // context once; the walk is not asked about again in this process (context.ops.ts lookedUpLately), so the
    // federation's marker is not read
    const byId = seen.filter((sql) => /FROM "public"\."statuses" WHERE \("public"\."statuses"\."id" = \$1/.test(sql));
    const byContext = seen.filter((sql) => /FROM "public"\."statuses" WHERE \("public"\."statuses"\."context" = \$1/.test(sql));
    expect(byId, seen.join("\n---\n")).toHaveLength(0);
    expect(byContext).toHaveLength(1);
    expect(seen.filter((sql) => sql.includes("federation_kv"))).toHaveLength(0);
  });
});
