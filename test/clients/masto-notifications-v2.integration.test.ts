// Grouped notifications and unread counts through an outside client (masto.js): favourites and
// reblogs of one status and follows are grouped, others stand alone; a group is read back by its key
// with its accounts and dismissed; unread counts follow the notifications marker.
import { createRestAPIClient, type mastodon } from "masto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { suiteKinds } from "../support/databases.ts";
import { passwordToken, startTestServer, type TestServer } from "../support/server.ts";

type Client = ReturnType<typeof createRestAPIClient>;

describe.each(suiteKinds(import.meta.url))("notifications v2 through masto (%s)", (kind) => {
  let server: TestServer;
  let miaToken: string;
  let mia: Client;
  const others: Record<string, Client> = {};
  const ids: Record<string, string> = {};
  let post: mastodon.v1.Status;
  let mention: mastodon.v1.Status;

  beforeAll(async () => {
    server = await startTestServer(kind);
    ids.mia = (await server.createUser("mia")).id;
    miaToken = (await passwordToken(server, "mia")).access_token;
    mia = createRestAPIClient({ url: server.url, accessToken: miaToken });
    for (const nick of ["noa", "ola", "pat"]) {
      ids[nick] = (await server.createUser(nick)).id;
      others[nick] = createRestAPIClient({ url: server.url, accessToken: (await passwordToken(server, nick)).access_token });
    }
    post = await mia.v1.statuses.create({ status: "a post to like" });
    for (const nick of ["noa", "ola", "pat"]) await others[nick].v1.statuses.$select(post.id).favourite();
    for (const nick of ["noa", "ola"]) await others[nick].v1.statuses.$select(post.id).reblog();
    for (const nick of ["noa", "ola"]) await others[nick].v1.accounts.$select(ids.mia).follow();
    mention = await others.pat.v1.statuses.create({ status: "hello @mia" });
  });
  afterAll(() => server?.close());

  test("a page of groups: favourites, reblogs and follows grouped, a mention alone; accounts and statuses once", async () => {
    const page = await mia.v2.notifications.list();
    const groups = page.notificationGroups;
    expect(groups.map((g) => [g.type, g.notificationsCount])).toEqual([
      ["mention", 1],
      ["follow", 2],
      ["reblog", 2],
      ["favourite", 3],
    ]);
    const favourite = groups.find((g) => g.type === "favourite")!;
    const expected: mastodon.v1.FavouriteNotificationGroup = {
      groupKey: expect.stringMatching(/^favourite-/),
      notificationsCount: 3,
      type: "favourite",
      mostRecentNotificationId: expect.any(String),
      pageMinId: expect.any(String),
      pageMaxId: favourite.mostRecentNotificationId,
      latestPageNotificationAt: expect.any(String),
      sampleAccountIds: [ids.pat, ids.ola, ids.noa] as unknown as string,
      statusId: post.id,
    };
    expect(favourite).toEqual(expected);
    expect(groups[0]).toMatchObject({ groupKey: expect.stringMatching(/^ungrouped-/), statusId: mention.id, sampleAccountIds: [ids.pat] });
    expect(groups.find((g) => g.type === "follow")?.sampleAccountIds).toEqual([ids.ola, ids.noa]);
    expect(page.accounts.map((a) => a.acct).sort()).toEqual(["noa", "ola", "pat"]);
    expect(page.accounts[0]).toMatchObject({ id: expect.any(String), username: expect.any(String), avatar: expect.any(String), followersCount: expect.any(Number) });
    expect(page.statuses.map((s) => s.id).sort()).toEqual([post.id, mention.id].sort());
    expect(page.partialAccounts).toBeUndefined();

    // grouped_types narrows what is grouped; types narrows what is shown
    const onlyFollows = await mia.v2.notifications.list({ groupedTypes: ["follow"] });
    expect(onlyFollows.notificationGroups.map((g) => g.type)).toEqual(["mention", "follow", "reblog", "reblog", "favourite", "favourite", "favourite"]);
    const favourites = await mia.v2.notifications.list({ types: ["favourite"] });
    expect(favourites.notificationGroups.map((g) => g.type)).toEqual(["favourite"]);

    // partial avatars: the newest account of each group in full, the others partial
    const partial = await mia.v2.notifications.list({ expandAccounts: "partial_avatars", types: ["favourite"] });
    expect(partial.accounts.map((a) => a.id)).toEqual([ids.pat]);
    const partialShape: mastodon.v1.PartialAccountWithAvatar = { id: ids.ola, acct: "ola", url: expect.any(String), avatar: expect.any(String), avatarStatic: expect.any(String), locked: false, bot: false };
    expect(partial.partialAccounts?.find((a) => a.id === ids.ola)).toEqual(partialShape);
    expect(partial.partialAccounts?.map((a) => a.id).sort()).toEqual([ids.noa, ids.ola].sort());
  });

  test("paging by groups with Link headers", async () => {
    const first = await server.fetch("/api/v2/notifications?limit=2", { headers: { authorization: `Bearer ${miaToken}` } });
    const body = await first.json();
    expect(body.notification_groups.map((g: { type: string }) => g.type)).toEqual(["mention", "follow"]);
    const next = /<([^>]+)>; rel="next"/.exec(first.headers.get("link") ?? "")?.[1];
    expect(next).toContain("max_id=");
    const nextUrl = new URL(next!);
    const second = await (await server.fetch(nextUrl.pathname + nextUrl.search, { headers: { authorization: `Bearer ${miaToken}` } })).json();
    expect(second.notification_groups.map((g: { type: string; notifications_count: number }) => [g.type, g.notifications_count])).toEqual([
      ["reblog", 2],
      ["favourite", 3],
    ]);
  });

  test("a group by its key, its accounts, unread counts and dismissal", async () => {
    const { notificationGroups } = await mia.v2.notifications.list({ types: ["favourite"] });
    const key = notificationGroups[0].groupKey;
    const one = await mia.v2.notifications.$select(key).fetch();
    expect(one.notificationGroups).toEqual([expect.objectContaining({ groupKey: key, notificationsCount: 3, statusId: post.id })]);
    expect((await mia.v2.notifications.$select(key).accounts.fetch()).map((a) => a.acct)).toEqual(["pat", "ola", "noa"]);
    await expect(mia.v2.notifications.$select("favourite-nothing-1").fetch()).rejects.toMatchObject({ statusCode: 404 });
    await expect(others.noa.v2.notifications.$select(key).fetch()).rejects.toMatchObject({ statusCode: 404 });

    // 3 favourites + 2 reblogs + 2 follows + 1 mention unread; 4 groups
    expect(await mia.v1.notifications.unreadCount.fetch()).toEqual({ count: 8 });
    expect(await mia.v2.notifications.unreadCount.fetch()).toEqual({ count: 4 });
    expect(await mia.v1.notifications.unreadCount.fetch({ limit: 5 })).toEqual({ count: 5 });
    expect(await mia.v2.notifications.unreadCount.fetch({ types: ["follow"] })).toEqual({ count: 1 });
    // reading up to the newest follow (the marker) leaves the mention unread
    const follows = await mia.v1.notifications.list({ types: ["follow"] });
    await mia.v1.markers.create({ notifications: { lastReadId: follows[0].id } });
    await server.fetch(`/api/v1/${server.services.settings.namespace}/notifications/read`, { json: { max_id: follows[0].id }, headers: { authorization: `Bearer ${miaToken}` } });
    expect(await mia.v1.notifications.unreadCount.fetch()).toEqual({ count: 1 });
    expect(await mia.v2.notifications.unreadCount.fetch()).toEqual({ count: 1 });

    await mia.v2.notifications.$select(key).dismiss();
    await expect(mia.v2.notifications.$select(key).fetch()).rejects.toMatchObject({ statusCode: 404 });
    expect((await mia.v2.notifications.list()).notificationGroups.map((g) => g.type)).toEqual(["mention", "follow", "reblog"]);
    expect(await server.services.db.notification.count({ where: { accountId: ids.mia, type: "favourite" } })).toBe(0);
  });
});
