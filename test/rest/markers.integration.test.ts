// GET/POST /api/v1/markers: home and notifications positions, versions, and the notifications marker
// marking notifications as seen with `<ns>.unread_count`; the family's read endpoint moves it too.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { newId } from "../../src/db/ids.ts";
import { suiteKinds } from "../support/databases.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { call, user, type User } from "./relationships-helpers.ts";

describe.each(suiteKinds(import.meta.url))("markers on %s", (kind) => {
  let server: TestServer;
  let ana: User;
  let ben: User;

  const seed = async (n: number) => {
    const ids = Array.from({ length: n }, () => newId());
    await server.services.db.notification.createMany({ data: ids.map((id) => ({ id, accountId: ana.id, fromAccountId: ben.id, type: "follow" })) });
    return ids;
  };

  beforeAll(async () => {
    server = await startTestServer(kind);
    [ana, ben] = [await user(server, "ana"), await user(server, "ben")];
  });
  afterAll(() => server?.close());

  test("no markers yet: an empty object", async () => {
    const res = await call(server, ana, "GET", "/api/v1/markers?timeline[]=home&timeline[]=notifications");
    expect(res).toMatchObject({ status: 200, body: {} });
  });

  test("saving positions: versions grow; the notifications marker marks notifications up to it as seen", async () => {
    const ids = await seed(5);
    const saved = await call(server, ana, "POST", "/api/v1/markers", { "home[last_read_id]": "abc", "notifications[last_read_id]": ids[2] });
    expect(saved.status).toBe(200);
    expect(saved.body.home).toEqual({ last_read_id: "abc", version: 0, updated_at: expect.any(String) });
    expect(saved.body.notifications).toMatchObject({ last_read_id: ids[2], version: 0, ext: { unread_count: 2 } });
    const seen = await server.services.db.notification.findMany({ where: { accountId: ana.id }, orderBy: { id: "asc" } });
    expect(seen.map((n) => n.seen)).toEqual([true, true, true, false, false]);

    const again = await call(server, ana, "POST", "/api/v1/markers", { "home[last_read_id]": "abd" });
    expect(again.body).toEqual({ home: { last_read_id: "abd", version: 1, updated_at: expect.any(String) } });

    const both = await call(server, ana, "GET", "/api/v1/markers?timeline[]=home&timeline[]=notifications");
    expect(both.body).toMatchObject({ home: { last_read_id: "abd", version: 1 }, notifications: { last_read_id: ids[2], ext: { unread_count: 2 } } });
    const onlyHome = await call(server, ana, "GET", "/api/v1/markers?timeline[]=home");
    expect(Object.keys(onlyHome.body)).toEqual(["home"]);
    // another account sees none of them
    expect((await call(server, ben, "GET", "/api/v1/markers?timeline[]=home")).body).toEqual({});

    // the family's read endpoint moves the notifications marker to the newest seen notification
    await call(server, ana, "POST", "/api/v1/ext/notifications/read", { max_id: ids[4] });
    const after = await call(server, ana, "GET", "/api/v1/markers?timeline[]=notifications");
    expect(after.body.notifications).toMatchObject({ last_read_id: ids[4], version: 1, ext: { unread_count: 0 } });
  });

  test("JSON bodies and scopes", async () => {
    const res = await server.fetch("/api/v1/markers", { json: { home: { last_read_id: "xyz" } }, headers: ana.auth });
    expect((await res.json()).home.last_read_id).toBe("xyz");
    const reader = await user(server, "reader", "read:statuses");
    expect((await call(server, reader, "GET", "/api/v1/markers?timeline[]=home")).status).toBe(200);
    expect((await call(server, reader, "POST", "/api/v1/markers", { "home[last_read_id]": "1" })).status).toBe(403);
  });
});
