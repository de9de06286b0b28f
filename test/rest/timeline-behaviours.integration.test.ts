// Reading-side behaviours on both databases: muted threads leave timelines (unless `with_muted`),
// subscribers get `status` notifications (also for scheduled posts), exclusive lists keep their
// members out of home, and list memberships end with the follow (unfollow, block, removal).
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { PUBLISH_SCHEDULED_JOB } from "../../src/domain/statuses/statuses.job-names.ts";
import { suiteKinds } from "../support/databases.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { call, user, type User } from "./relationships-helpers.ts";
import { waitFor } from "../support/wait.ts";

describe.each(suiteKinds(import.meta.url))("timeline behaviours on %s", (kind) => {
  let server: TestServer;
  const db = () => server.services.db;

  const post = async (who: User, body: Record<string, unknown>) => {
    const res = await server.fetch("/api/v1/statuses", { json: body, headers: who.auth });
    expect(res.status).toBe(200);
    return (await res.json()) as { id: string };
  };
  const ids = async (who: User | null, path: string) => {
    const r = await call(server, who, "GET", path);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return (r.body as { id: string }[]).map((s) => s.id);
  };
  const follow = async (who: User, target: User, form?: Record<string, string>) =>
    expect((await call(server, who, "POST", `/api/v1/accounts/${target.id}/follow`, form)).status).toBe(200);
  const newList = async (who: User, members: User[], extra: Record<string, string> = {}) => {
    const list = (await call(server, who, "POST", "/api/v1/lists", { title: "a list", ...extra })).body as { id: string };
    if (members.length) expect((await call(server, who, "POST", `/api/v1/lists/${list.id}/accounts`, { "account_ids[]": members.map((m) => m.id) })).status).toBe(200);
    return list.id;
  };
  const members = async (listId: string) => (await db().listMember.findMany({ where: { listId }, select: { accountId: true } })).map((m) => m.accountId).sort();

  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(() => server?.close());

  test("a muted thread leaves the home, list, public and tag timelines unless with_muted; its mentions notify no one", async () => {
    const [ana, ben, cat] = await Promise.all(["tm_ana", "tm_ben", "tm_cat"].map((n) => user(server, n)));
    await follow(ana, ben);
    await follow(ana, cat);
    const listId = await newList(ana, [ben]);
    const root = await post(ben, { status: "a thread #mutable" });
    const reply = await post(cat, { status: "a reply #mutable", in_reply_to_id: root.id });
    const reblog = (await call(server, cat, "POST", `/api/v1/statuses/${root.id}/reblog`)).body as { id: string };
    const elsewhere = await post(ben, { status: "another topic #mutable" });

    const timelines = ["/api/v1/timelines/home", `/api/v1/timelines/list/${listId}`, "/api/v1/timelines/public", "/api/v1/timelines/tag/mutable"];
    // before the mute every timeline shows the thread
    for (const path of timelines) expect(await ids(ana, `${path}?limit=40`), path).toContain(root.id);

    expect((await call(server, ana, "POST", `/api/v1/statuses/${reply.id}/mute`)).status).toBe(200);
    const thread = [root.id, reply.id, reblog.id];
    for (const path of timelines) {
      const seen = await ids(ana, `${path}?limit=40`);
      for (const id of thread) expect(seen, path).not.toContain(id);
      expect(seen, path).toContain(elsewhere.id);
    }
    // others are not affected
    expect(await ids(ben, "/api/v1/timelines/public?limit=40")).toEqual(expect.arrayContaining([root.id, reply.id]));
    // with_muted brings the thread back (the list route does not take it yet)
    for (const path of ["/api/v1/timelines/home", "/api/v1/timelines/public", "/api/v1/timelines/tag/mutable"])
      expect(await ids(ana, `${path}?limit=40&with_muted=true`), path).toEqual(expect.arrayContaining([root.id, reply.id]));

    // a mention inside the muted thread stores no notification
    await post(cat, { status: "@tm_ana look", in_reply_to_id: reply.id });
    expect(await db().notification.count({ where: { accountId: ana.id, type: "mention" } })).toBe(0);

    // an expired thread mute hides nothing
    await db().threadMute.updateMany({ where: { accountId: ana.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(await ids(ana, "/api/v1/timelines/home?limit=40")).toEqual(expect.arrayContaining([root.id, reply.id]));
  });

  test("subscribers get a status notification for new posts they may see; not for replies or reblogs; scheduled posts notify when published", async () => {
    const [ben, sub, fan, mia, ana] = await Promise.all(["sn_ben", "sn_sub", "sn_fan", "sn_mia", "sn_ana"].map((n) => user(server, n)));
    const ns = server.services.settings.namespace;
    expect((await call(server, sub, "POST", `/api/v1/${ns}/accounts/${ben.id}/subscribe`)).status).toBe(200); // subscribed, not following
    await follow(fan, ben, { notify: "true" }); // following with notify
    await follow(mia, ben, { notify: "true" });
    await follow(ana, ben); // following without notify
    const statusNotes = (who: User) => db().notification.findMany({ where: { accountId: who.id, type: "status" }, orderBy: { id: "asc" } });

    const pub = await post(ben, { status: "hello subscribers" });
    for (const who of [sub, fan, mia]) expect(await statusNotes(who), who.nickname).toMatchObject([{ fromAccountId: ben.id, statusId: pub.id }]);
    expect(await statusNotes(ana)).toEqual([]);
    const listed = await call(server, fan, "GET", "/api/v1/notifications");
    expect(listed.body).toMatchObject([{ type: "status", account: { id: ben.id }, status: { id: pub.id } }]);
    expect((await call(server, fan, "GET", "/api/v1/notifications?types[]=status")).body).toHaveLength(1);
    expect((await call(server, fan, "GET", "/api/v1/notifications?exclude_types[]=status")).body).toEqual([]);

    // replies (to others or to oneself) and reblogs notify no subscriber
    const other = await post(ana, { status: "ana's post" });
    await post(ben, { status: "a reply", in_reply_to_id: other.id });
    await post(ben, { status: "a self-reply", in_reply_to_id: pub.id });
    expect((await call(server, ben, "POST", `/api/v1/statuses/${other.id}/reblog`)).status).toBe(200);
    for (const who of [sub, fan, mia]) expect(await statusNotes(who), who.nickname).toHaveLength(1);

    // followers-only: only subscribers who follow; direct: the mentioned get their mention only
    const priv = await post(ben, { status: "followers only", visibility: "private" });
    expect((await statusNotes(fan)).map((n) => n.statusId)).toContain(priv.id);
    expect((await statusNotes(sub)).map((n) => n.statusId)).not.toContain(priv.id);
    const dm = await post(ben, { status: "@sn_fan psst", visibility: "direct" });
    expect(await db().notification.findMany({ where: { accountId: fan.id, statusId: dm.id }, select: { type: true } })).toEqual([{ type: "mention" }]);
    expect(await db().notification.count({ where: { statusId: dm.id } })).toBe(1);

    // a notification-muting subscriber hears nothing (notify.ts decides)
    expect((await call(server, mia, "POST", `/api/v1/accounts/${ben.id}/mute`)).status).toBe(200);
    await post(ben, { status: "while muted" });
    expect(await statusNotes(mia)).toHaveLength(2);

    // a scheduled status notifies when its job publishes it
    const scheduled = (await post(ben, { status: "later on", scheduled_at: new Date(Date.now() + 3_600_000).toISOString() })) as { id: string };
    expect(await statusNotes(sub)).toHaveLength(2);
    const job = (await db().job.findMany({ where: { name: PUBLISH_SCHEDULED_JOB } })).find((j) => (j.payload as { id: string }).id === scheduled.id)!;
    const scheduledRow = await db().scheduledStatus.findUniqueOrThrow({ where: { id: scheduled.id } });
    await db().job.update({ where: { id: job.id }, data: { runAt: new Date(Date.now() - 1000) } });
    const published = await waitFor(() => db().status.findFirst({ where: { source: "later on" } }), "the scheduled status published");
    expect(published!.idempotencyKey).toBe(`scheduled:${scheduledRow.id}`);
    // the job stores the status, then notifies: wait for the notification, not just the row
    const notes = await waitFor(async () => {
      const n = await statusNotes(sub);
      return n.some((x) => x.statusId === published.id) && n;
    }, "the subscriber's notification of the published status");
    expect(notes.map((n) => n.statusId)).toContain(published!.id);

    // unsubscribing (and following with notify=false) ends it
    expect((await call(server, sub, "POST", `/api/v1/${ns}/accounts/${ben.id}/unsubscribe`)).status).toBe(200);
    await follow(fan, ben, { notify: "false" });
    const last = await post(ben, { status: "nobody hears this" });
    expect(await db().notification.count({ where: { statusId: last.id } })).toBe(0);
  });

  test("an exclusive list keeps its members' posts and reblogs out of home", async () => {
    const [ana, ben, cat] = await Promise.all(["ex_ana", "ex_ben", "ex_cat"].map((n) => user(server, n)));
    await follow(ana, ben);
    await follow(ana, cat);
    const listId = await newList(ana, [ben], { exclusive: "true" });
    const own = await post(ana, { status: "mine" });
    const benPost = await post(ben, { status: "ben in a list" });
    const catPost = await post(cat, { status: "cat not listed" });
    const benReblog = (await call(server, ben, "POST", `/api/v1/statuses/${catPost.id}/reblog`)).body as { id: string };

    const home = await ids(ana, "/api/v1/timelines/home?limit=40");
    expect(home).toEqual(expect.arrayContaining([own.id, catPost.id]));
    expect(home).not.toContain(benPost.id);
    expect(home).not.toContain(benReblog.id);
    expect(await ids(ana, `/api/v1/timelines/list/${listId}?limit=40`)).toEqual(expect.arrayContaining([benPost.id, benReblog.id]));

    // another viewer's exclusive lists do not matter; a non-exclusive list hides nothing
    expect((await call(server, ana, "PUT", `/api/v1/lists/${listId}`, { exclusive: "false" })).body.exclusive).toBe(false);
    expect(await ids(ana, "/api/v1/timelines/home?limit=40")).toEqual(expect.arrayContaining([benPost.id, benReblog.id]));
  });

  test("list memberships end with the follow: unfollow, block (both ways) and remove_from_followers (the follower's lists only)", async () => {
    const [ana, ben, cat, dan] = await Promise.all(["lm_ana", "lm_ben", "lm_cat", "lm_dan"].map((n) => user(server, n)));
    for (const [a, b] of [[ana, ben], [ana, cat], [ana, dan], [cat, ana], [dan, ana]] as const) await follow(a, b);
    const anaList = await newList(ana, [ben, cat, dan]);
    const anaOther = await newList(ana, [ben]);
    const catList = await newList(cat, [ana]);
    const danList = await newList(dan, [ana]);

    // unfollowing removes the account from every list of the unfollower
    expect((await call(server, ana, "POST", `/api/v1/accounts/${ben.id}/unfollow`)).status).toBe(200);
    expect(await members(anaList)).toEqual([cat.id, dan.id].sort());
    expect(await members(anaOther)).toEqual([]);
    expect((await call(server, ana, "GET", `/api/v1/accounts/${ben.id}/lists`)).body).toEqual([]);

    // blocking: the blocked leaves the blocker's lists, and the blocker leaves the blocked's lists
    expect((await call(server, ana, "POST", `/api/v1/accounts/${cat.id}/block`)).status).toBe(200);
    expect(await members(anaList)).toEqual([dan.id]);
    expect(await members(catList)).toEqual([]);

    // removing a follower: the follower's lists lose the remover; the remover's own lists stay
    expect((await call(server, ana, "POST", `/api/v1/accounts/${dan.id}/remove_from_followers`)).status).toBe(200);
    expect(await members(danList)).toEqual([]);
    expect(await members(anaList)).toEqual([dan.id]);
  });
});
