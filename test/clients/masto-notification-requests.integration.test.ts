// Notification policies and requests through an outside client (masto.js): a policy filters or drops
// notifications from strangers, filtered ones form a request per sender (hidden from the list, the
// unread count and the stream's source), accepting a request shows them and lets the sender through,
// dismissing one deletes them. Shapes as masto's typings declare them; effects checked in the database.
import { createRestAPIClient, type mastodon } from "masto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { passwordToken, startTestServer, type TestServer } from "../support/server.ts";

type Client = ReturnType<typeof createRestAPIClient>;

describe("notification policies and requests through masto", () => {
  let server: TestServer;
  const c: Record<string, Client> = {};
  const id: Record<string, string> = {};

  beforeAll(async () => {
    server = await startTestServer("pglite");
    for (const name of ["ann", "bob", "cid", "dan"]) {
      id[name] = (await server.createUser(name)).id;
      c[name] = createRestAPIClient({ url: server.url, accessToken: (await passwordToken(server, name)).access_token });
    }
    await c.ann!.v1.accounts.$select(id.cid!).follow();
  });
  afterAll(() => server?.close());

  const annNotifications = async () => (await c.ann!.v1.notifications.list({ limit: 40 })).map((n) => `${n.type}:${n.account.acct}`);

  test("the policy: accept everything until changed; v2 and v1 shapes", async () => {
    const initial = await c.ann!.v2.notifications.policy.fetch();
    expect(initial).toEqual({
      forNotFollowing: "accept",
      forNotFollowers: "accept",
      forNewAccounts: "accept",
      forPrivateMentions: "accept",
      forLimitedAccounts: "accept",
      summary: { pendingRequestsCount: 0, pendingNotificationsCount: 0 },
    } satisfies mastodon.v2.NotificationPolicy);
    const changed = await c.ann!.v2.notifications.policy.update({ forNotFollowing: "filter", forPrivateMentions: "drop" });
    expect(changed).toMatchObject({ forNotFollowing: "filter", forNotFollowers: "accept", forPrivateMentions: "drop" });
    expect(await server.services.db.notificationPolicy.findUnique({ where: { accountId: id.ann! } })).toMatchObject({ forNotFollowing: "filter", forPrivateMentions: "drop", forNewAccounts: "accept" });
    const v1 = await (await server.fetch("/api/v1/notifications/policy", { headers: { authorization: `Bearer ${(await passwordToken(server, "ann")).access_token}` } })).json();
    expect(v1).toEqual({ filter_not_following: true, filter_not_followers: false, filter_new_accounts: false, filter_private_mentions: true, summary: { pending_requests_count: 0, pending_notifications_count: 0 } });
    const bad = await server.fetch("/api/v2/notifications/policy", { method: "PATCH", json: { for_not_following: "maybe" }, headers: { authorization: `Bearer ${(await passwordToken(server, "ann")).access_token}` } });
    // the house's validation error (400 with the family's `{error, errors}`)
    expect(bad.status).toBe(400);
  });

  test("strangers' notifications are held back as one request per sender; private mentions dropped; followed accounts pass", async () => {
    const post = await c.ann!.v1.statuses.create({ status: "hello" });
    const mention = await c.bob!.v1.statuses.create({ status: "@ann hi" });
    await c.bob!.v1.statuses.$select(post.id).favourite();
    await c.bob!.v1.statuses.create({ status: "@ann secret", visibility: "direct" });
    await c.cid!.v1.statuses.create({ status: "@ann from a friend" });

    expect(await annNotifications()).toEqual(["mention:cid"]);
    expect((await c.ann!.v1.notifications.unreadCount.fetch()).count).toBe(1);
    const stored = await server.services.db.notification.findMany({ where: { accountId: id.ann! }, orderBy: { id: "asc" } });
    expect(stored.map((n) => [n.type, n.fromAccountId, n.filtered])).toEqual([
      ["mention", id.bob, true],
      ["favourite", id.bob, true],
      ["mention", id.cid, false],
    ]);

    const requests = await c.ann!.v1.notifications.requests.list();
    expect(requests).toHaveLength(1);
    const [request] = requests;
    expect(request).toEqual({
      id: expect.any(String),
      createdAt: expect.stringMatching(/^\d{4}-/),
      updatedAt: expect.stringMatching(/^\d{4}-/),
      account: expect.objectContaining({ id: id.bob, acct: "bob" }),
      // the reference sends the count as a string
      notificationsCount: "2" as unknown as number,
      // the status of the latest filtered notification: ann's post bob favourited
      lastStatus: expect.objectContaining({ id: post.id }),
    });
    expect(await c.ann!.v1.notifications.requests.$select(request!.id).fetch()).toEqual(request);
    expect((await c.ann!.v2.notifications.policy.fetch()).summary).toEqual({ pendingRequestsCount: 1, pendingNotificationsCount: 2 });
    expect(mention.id).toBeTruthy();
    expect(await c.ann!.v1.notifications.requests.merged.fetch()).toEqual({ merged: true });
    await expect(c.bob!.v1.notifications.requests.$select(request!.id).fetch()).rejects.toMatchObject({ statusCode: 404 });
  });

  test("accepting shows the held notifications and lets the sender through from then on", async () => {
    const [request] = await c.ann!.v1.notifications.requests.list();
    await c.ann!.v1.notifications.requests.$select(request!.id).accept();
    expect(await annNotifications()).toEqual(["mention:cid", "favourite:bob", "mention:bob"]);
    expect(await c.ann!.v1.notifications.requests.list()).toEqual([]);
    expect(await server.services.db.notificationPermission.count({ where: { accountId: id.ann!, fromAccountId: id.bob! } })).toBe(1);
    await c.bob!.v1.statuses.create({ status: "@ann again" });
    expect((await annNotifications())[0]).toBe("mention:bob");
  });

  test("dismissing deletes the request and its notifications (bulk form)", async () => {
    await c.dan!.v1.statuses.create({ status: "@ann spam" });
    const [request] = await c.ann!.v1.notifications.requests.list();
    expect(request!.account.id).toBe(id.dan);
    await c.ann!.v1.notifications.requests.dismiss({ id: [request!.id] } as never);
    expect(await c.ann!.v1.notifications.requests.list()).toEqual([]);
    expect(await server.services.db.notification.count({ where: { accountId: id.ann!, fromAccountId: id.dan! } })).toBe(0);
    expect((await annNotifications()).some((n) => n.endsWith(":dan"))).toBe(false);
    await expect(c.ann!.v1.notifications.requests.$select(request!.id).accept()).rejects.toMatchObject({ statusCode: 404 });
  });

  test("GraphQL reaches the same policy and requests", async () => {
    const token = (await passwordToken(server, "ann")).access_token;
    const gql = async (query: string) => (await server.fetch("/graphql", { json: { query }, headers: { authorization: `Bearer ${token}` } })).json();
    const policy = await gql("mutation { updateNotificationPolicy(forNewAccounts: filter) { forNotFollowing forNewAccounts pendingRequestsCount } }");
    expect(policy.data.updateNotificationPolicy).toEqual({ forNotFollowing: "filter", forNewAccounts: "filter", pendingRequestsCount: 0 });
    await c.dan!.v1.statuses.create({ status: "@ann once more" });
    const listed = await gql("{ notificationRequests { id notificationsCount account { id } } notificationPolicy { pendingNotificationsCount } }");
    expect(listed.data.notificationRequests).toEqual([{ id: expect.any(String), notificationsCount: 1, account: { id: id.dan } }]);
    expect(listed.data.notificationPolicy.pendingNotificationsCount).toBe(1);
    const accepted = await gql(`mutation { acceptNotificationRequests(ids: ["${listed.data.notificationRequests[0].id}"]) }`);
    expect(accepted.data.acceptNotificationRequests).toBe(true);
    expect((await annNotifications())[0]).toBe("mention:dan");
  });
});
