// Who sees which status: every viewer × every visibility, through GET /api/v1/statuses/:id and
// GET /api/v1/statuses?ids[]=…; the author's account stays visible to everyone.
//
// Rules: the author sees everything; public, unlisted and local statuses are visible to everyone
// except across a block; private ones to accepted followers and mentioned accounts; direct ones to
// mentioned accounts. A block hides statuses both ways, even from a follower or a mentioned account.
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { suiteKinds } from "../support/databases.ts";
import { passwordToken, startTestServer, type TestServer } from "../support/server.ts";

vi.setConfig({ testTimeout: 30_000, hookTimeout: 60_000 });

const VISIBILITIES = ["public", "unlisted", "private", "direct", "local"] as const;
type Visibility = (typeof VISIBILITIES)[number];
const VIEWERS = ["author", "follower", "mentioned", "stranger", "blocked", "blocker", "anonymous"] as const;
type Viewer = (typeof VIEWERS)[number];

// Local-only statuses are for the instance's signed-in users: anonymous viewers do not see them,
// as in the family (Pleroma's `visible_for_user?(_, nil)` is `public? and not local_public?`).
const EXPECTED: Record<Viewer, readonly Visibility[]> = {
  author: VISIBILITIES,
  follower: ["public", "unlisted", "private", "local"],
  mentioned: ["public", "unlisted", "private", "direct", "local"],
  stranger: ["public", "unlisted", "local"],
  // the author blocks them (they followed and are mentioned, which must not matter)
  blocked: [],
  // they block the author (they followed and are mentioned, which must not matter)
  blocker: [],
  anonymous: ["public", "unlisted"],
};

describe.each(suiteKinds(import.meta.url))("status visibility matrix on %s", (kind) => {
  let server: TestServer;
  const ids: Record<string, string> = {};
  const headers: Partial<Record<Viewer, { authorization: string }>> = {};
  const statusOf: Partial<Record<Visibility, string>> = {};
  const as = (viewer: Viewer) => headers[viewer] ?? {};
  const call = async (viewer: Viewer, method: string, path: string) => {
    const res = await server.fetch(path, { method, headers: as(viewer) });
    return { status: res.status, body: await res.json() };
  };

  beforeAll(async () => {
    server = await startTestServer(kind);
    for (const viewer of VIEWERS.filter((v) => v !== "anonymous")) {
      ids[viewer] = (await server.createUser(viewer)).id;
      headers[viewer] = { authorization: `Bearer ${(await passwordToken(server, viewer)).access_token}` };
    }
    for (const viewer of ["follower", "blocked", "blocker"] as const) expect((await call(viewer, "POST", `/api/v1/accounts/${ids.author}/follow`)).status).toBe(200);
    expect((await call("author", "POST", `/api/v1/accounts/${ids.blocked}/block`)).status).toBe(200);
    expect((await call("blocker", "POST", `/api/v1/accounts/${ids.author}/block`)).status).toBe(200);
    for (const visibility of VISIBILITIES) {
      const res = await server.fetch("/api/v1/statuses", { json: { status: `@mentioned @blocked @blocker ${visibility} post`, visibility }, headers: as("author") });
      expect(res.status).toBe(200);
      statusOf[visibility] = (await res.json()).id;
    }
  });
  afterAll(() => server?.close());

  test("the set-up is what the matrix assumes", async () => {
    const db = server.services.db;
    const follows = await db.follow.findMany({ where: { followingId: ids.author } });
    expect(follows.map((f) => [f.followerId, f.state])).toEqual([[ids.follower, "accept"]]); // blocks ended the other follows
    const blocks = await db.userRelationship.findMany({ where: { type: "block" } });
    expect(blocks.map((b) => [b.sourceId, b.targetId]).sort()).toEqual([[ids.author, ids.blocked], [ids.blocker, ids.author]].sort());
    for (const visibility of VISIBILITIES) {
      const row = await db.status.findUniqueOrThrow({ where: { id: statusOf[visibility] } });
      expect(row).toMatchObject({ visibility, accountId: ids.author });
      expect([...row.recipientIds].sort()).toEqual([ids.mentioned, ids.blocked, ids.blocker].sort());
    }
  });

  test.each(VIEWERS)("%s: GET /api/v1/statuses/:id", async (viewer) => {
    const seen: Visibility[] = [];
    for (const visibility of VISIBILITIES) {
      const res = await call(viewer, "GET", `/api/v1/statuses/${statusOf[visibility]}`);
      if (res.status === 200) {
        expect(res.body).toMatchObject({ id: statusOf[visibility], visibility, account: { id: ids.author } });
        seen.push(visibility);
      } else {
        expect(res).toEqual({ status: 404, body: { error: "Record not found" } });
      }
    }
    expect(seen).toEqual(EXPECTED[viewer]);
  });

  test.each(VIEWERS)("%s: GET /api/v1/statuses?ids[]=…", async (viewer) => {
    const query = VISIBILITIES.map((v) => `ids[]=${statusOf[v]}`).join("&");
    const res = await call(viewer, "GET", `/api/v1/statuses?${query}`);
    expect(res.status).toBe(200);
    expect(res.body.map((s: { visibility: Visibility }) => s.visibility)).toEqual(EXPECTED[viewer]);
    expect(res.body.map((s: { id: string }) => s.id)).toEqual(EXPECTED[viewer].map((v) => statusOf[v]));
  });

  test.each(VIEWERS)("%s: GET /api/v1/accounts/:id of the author", async (viewer) => {
    const res = await call(viewer, "GET", `/api/v1/accounts/${ids.author}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: ids.author, acct: "author" });
  });
});
