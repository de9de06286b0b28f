// What the instance tells an account about moderation, through `masto`: moderation warnings (the admin
// account action records a warning, notifies the account and, when asked, e-mails it) and severed
// relationships (an admin domain suspension, a user's domain block or a remote account's suspension cuts follows, records them,
// notifies each local account and serves the lost lists as CSV). Shapes as masto's typings declare them.
import { createRestAPIClient, type mastodon } from "masto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { newId } from "../../src/db/ids.ts";
import { mailsTo } from "../support/mailbox.ts";
import * as actors from "../support/actors.ts";
import { passwordToken, startTestServer, type TestServer } from "../support/server.ts";

type Client = ReturnType<typeof createRestAPIClient>;
const iso = expect.stringMatching(/^\d{4}-\d\d-\d\dT/);

function expectSeveranceEvent(e: mastodon.v1.RelationshipSeveranceEvent) {
  expect(e).toMatchObject({ id: expect.any(String), purged: false, targetName: expect.any(String), followersCount: expect.any(Number), followingCount: expect.any(Number), createdAt: iso });
  expect(["domain_block", "user_domain_block", "account_suspension"]).toContain(e.type);
}

describe("moderation notices through masto", () => {
  let server: TestServer;
  let admin: Client;
  let adminToken: string;
  const db = () => server.services.db;

  beforeAll(async () => {
    // configurable from the database: one test narrows the moderators' privileges
    server = await startTestServer("pglite", { CONFIGURABLE_FROM_DATABASE: "true" });
    adminToken = (await actors.admin(server, "root", "read write admin")).token;
    admin = createRestAPIClient({ url: server.url, accessToken: adminToken });
  });
  afterAll(() => server?.close());

  const signIn = async (nickname: string) => createRestAPIClient({ url: server.url, accessToken: (await passwordToken(server, nickname, "read write follow")).access_token });
  const remote = (nick: string, host: string) =>
    db().account.create({ data: { id: newId(), nickname: `${nick}@${host}`, domain: host, local: false, apId: `https://${host}/users/${nick}` } });
  const follow = (followerId: string, followingId: string) => db().follow.create({ data: { id: newId(), followerId, followingId, state: "accept" } });

  describe("moderation warnings", () => {
    test("an action the moderator may not take is refused before any warning is recorded", async () => {
      // a moderator who may deactivate accounts but not tag them: silencing is a tag
      await db().configEntry.upsert({
        where: { group_key: { group: "instance", key: "moderator_privileges" } },
        create: { group: "instance", key: "moderator_privileges", value: ["users_read", "users_manage_activation_state"] },
        update: { value: ["users_read", "users_manage_activation_state"] },
      });
      await server.services.config.reload();
      try {
        const mona = createRestAPIClient({ url: server.url, accessToken: (await actors.moderator(server, "mona", "read write admin")).token });
        const target = await server.createUser("sid");
        await expect(mona.v1.admin.accounts.$select(target.id).action.create({ type: "silence", text: "quiet" })).rejects.toMatchObject({ statusCode: 403 });
        expect(await db().accountWarning.count({ where: { accountId: target.id } })).toBe(0);
        expect(await db().notification.count({ where: { accountId: target.id } })).toBe(0);
        // what the moderator may do is recorded
        await mona.v1.admin.accounts.$select(target.id).action.create({ type: "disable", text: "bye" });
        expect(await db().accountWarning.count({ where: { accountId: target.id, action: "disable" } })).toBe(1);
      } finally {
        await db().configEntry.delete({ where: { group_key: { group: "instance", key: "moderator_privileges" } } });
        await server.services.config.reload();
      }
    });

    test("a warning is recorded, notified (v1 and v2) and e-mailed when asked", async () => {
      const vic = await server.createUser("vic");
      const vicClient = await signIn("vic");
      const post = await vicClient.v1.statuses.create({ status: "buy my stuff" });
      const reporter = await server.createUser("rita");
      const report = await (await signIn("rita")).v1.reports.create({ accountId: vic.id, statusIds: [post.id], comment: "ads" });
      expect(reporter.id).toBeTruthy();

      await admin.v1.admin.accounts.$select(vic.id).action.create({ type: "sensitive", text: "mark your ads", reportId: report.id, sendEmailNotification: true });

      const [warning] = await db().accountWarning.findMany({ where: { accountId: vic.id } });
      expect(warning).toMatchObject({ action: "sensitive", text: "mark your ads", statusIds: [post.id], reportId: report.id });
      expect(warning!.actorId).toBe((await db().account.findUnique({ where: { nickname: "root" } }))!.id);

      const notifications = await vicClient.v1.notifications.list({ types: ["moderation_warning"] });
      expect(notifications).toHaveLength(1);
      const n = notifications[0] as mastodon.v1.ModerationWarningNotification;
      expect(n.type).toBe("moderation_warning");
      expect(n.account.id).toBe(vic.id);
      expect(n.moderationWarning).toMatchObject({ id: warning!.id, action: "sensitive", text: "mark your ads", statusIds: [post.id], createdAt: iso, appeal: null });
      expect(n.moderationWarning.targetAccount).toMatchObject({ id: vic.id, acct: "vic" });
      // in the default listing too
      expect((await vicClient.v1.notifications.list()).map((x) => x.type)).toContain("moderation_warning");

      const grouped = await vicClient.v2.notifications.list({ types: ["moderation_warning"] });
      const group = grouped.notificationGroups[0] as mastodon.v1.ModerationWarningNotificationGroup;
      expect(group).toMatchObject({ type: "moderation_warning", groupKey: `ungrouped-${n.id}` });
      expect(group.moderationWarning).toMatchObject({ id: warning!.id, action: "sensitive" });

      const mails = mailsTo(server.dataDir, "vic@example.test");
      expect(mails).toHaveLength(1);
      expect(mails[0]!.subject).toContain("Your media will be marked as sensitive");
      expect(mails[0]!.decoded).toContain("mark your ads");
      expect(mails[0]!.decoded).toContain(`/notice/${post.id}`);
    });

    test("without send_email_notification no mail goes; a suspension is told before the account goes", async () => {
      const wes = await server.createUser("wes");
      const wesClient = await signIn("wes");
      await admin.v1.admin.accounts.$select(wes.id).action.create({ type: "none", text: "be nice" });
      expect(mailsTo(server.dataDir, "wes@example.test")).toHaveLength(0);
      const [n] = (await wesClient.v1.notifications.list()) as mastodon.v1.ModerationWarningNotification[];
      expect(n!.moderationWarning).toMatchObject({ action: "none", text: "be nice", statusIds: [] });

      await admin.v1.admin.accounts.$select(wes.id).action.create({ type: "suspend", sendEmailNotification: true });
      expect((await db().accountWarning.findMany({ where: { accountId: wes.id }, orderBy: { id: "asc" } })).map((w) => w.action)).toEqual(["none", "suspend"]);
      expect(await db().notification.count({ where: { accountId: wes.id, type: "moderation_warning" } })).toBe(2);
      expect(mailsTo(server.dataDir, "wes@example.test").map((m) => m.subject)).toEqual([expect.stringContaining("Your account has been suspended")]);
    });

    test("warning presets: CRUD over REST (masto has no client for them) and GraphQL; a preset's text leads the warning", async () => {
      const auth = { authorization: `Bearer ${adminToken}` };
      const created = await server.fetch("/api/v1/admin/warning_presets", { json: { title: "Spam", text: "Stop spamming." }, headers: auth });
      expect(created.status).toBe(200);
      const preset = (await created.json()) as { id: string };
      expect(preset).toEqual({ id: expect.any(String), title: "Spam", text: "Stop spamming.", created_at: iso, updated_at: iso });
      const updated = await server.fetch(`/api/v1/admin/warning_presets/${preset.id}`, { method: "PUT", json: { text: "Stop spamming, please." }, headers: auth });
      expect(await updated.json()).toMatchObject({ id: preset.id, title: "Spam", text: "Stop spamming, please." });
      expect(await (await server.fetch("/api/v1/admin/warning_presets", { headers: auth })).json()).toEqual([expect.objectContaining({ id: preset.id })]);
      expect((await server.fetch("/api/v1/admin/warning_presets", { json: { text: " " }, headers: auth })).status).toBe(422);
      // moderators and users are refused, as for the reference's "manage settings"
      const userToken = (await passwordToken(server, "rita", "read write admin")).access_token;
      expect((await server.fetch("/api/v1/admin/warning_presets", { headers: { authorization: `Bearer ${userToken}` } })).status).toBe(403);

      const zed = await server.createUser("zed");
      await admin.v1.admin.accounts.$select(zed.id).action.create({ type: "none", warningPresetId: preset.id, text: "Last chance." });
      expect((await db().accountWarning.findFirstOrThrow({ where: { accountId: zed.id } })).text).toBe("Stop spamming, please.\n\nLast chance.");

      // GraphQL: the same presets, and the warning on the notification
      const gql = async (query: string, token: string) => (await (await server.fetch("/graphql", { json: { query }, headers: { authorization: `Bearer ${token}` } })).json()) as any;
      expect((await gql("{ adminWarningPresets { id title text } }", adminToken)).data.adminWarningPresets).toEqual([{ id: preset.id, title: "Spam", text: "Stop spamming, please." }]);
      const zedToken = (await passwordToken(server, "zed", "read")).access_token;
      const notes = await gql("{ notifications(first: 5) { edges { node { type moderationWarning { action text targetAccount { id } } } } } }", zedToken);
      expect(notes.data.notifications.edges.map((e: any) => e.node)).toEqual([{ type: "moderation_warning", moderationWarning: { action: "none", text: "Stop spamming, please.\n\nLast chance.", targetAccount: { id: zed.id } } }]);
      expect((await server.fetch(`/api/v1/admin/warning_presets/${preset.id}`, { method: "DELETE", headers: auth })).status).toBe(200);
      expect(await db().warningPreset.count()).toBe(0);
    });

    test("a page of warnings renders in the same number of queries for 1 or 4", async () => {
      const kim = await server.createUser("kim");
      const kimClient = await signIn("kim");
      for (let i = 0; i < 4; i++) await admin.v1.admin.accounts.$select(kim.id).action.create({ type: "none", text: `warning ${i}` });
      await kimClient.v1.notifications.list({ limit: 1 }); // the token's first use reads it; later ones come from the token cache
      const one = await server.countQueries(async () => await kimClient.v1.notifications.list({ limit: 1 }));
      const four = await server.countQueries(async () => await kimClient.v1.notifications.list({ limit: 4 }));
      expect(four.result.map((n) => (n as mastodon.v1.ModerationWarningNotification).moderationWarning.text)).toEqual(["warning 3", "warning 2", "warning 1", "warning 0"]);
      expect(four.queries).toBe(one.queries);
    });

    test("a remote account's warning is recorded, nobody is notified", async () => {
      const far = await remote("far", "elsewhere.example");
      await admin.v1.admin.accounts.$select(far.id).action.create({ type: "silence", sendEmailNotification: true });
      expect(await db().accountWarning.count({ where: { accountId: far.id, action: "silence" } })).toBe(1);
      expect(await db().notification.count({ where: { accountId: far.id } })).toBe(0);
    });

    test("suspending a remote account cuts its follows with local accounts, as an account_suspension event", async () => {
      const eve = await server.createUser("eve");
      const eveClient = await signIn("eve");
      const gone = await remote("gone", "elsewhere.example");
      await follow(eve.id, gone.id);
      await follow(gone.id, eve.id);
      await admin.v1.admin.accounts.$select(gone.id).action.create({ type: "suspend" });
      expect(await db().follow.count({ where: { OR: [{ followerId: gone.id }, { followingId: gone.id }] } })).toBe(0);
      const [n] = (await eveClient.v1.notifications.list({ types: ["severed_relationships"] })) as mastodon.v1.SeveredRelationshipsNotification[];
      expectSeveranceEvent(n!.event);
      expect(n!.event).toMatchObject({ type: "account_suspension", targetName: "gone@elsewhere.example", followersCount: 1, followingCount: 1 });
    });
  });

  describe("severed relationships", () => {
    test("an admin domain suspension cuts the follows, records them per local account and notifies", async () => {
      const ann = await server.createUser("ann");
      const bob = await server.createUser("bob");
      const annClient = await signIn("ann");
      const [x, y, other] = await Promise.all([remote("x", "bad.example"), remote("y", "sub.bad.example"), remote("z", "good.example")]);
      await follow(ann.id, x.id);
      await follow(x.id, ann.id);
      await follow(y.id, ann.id);
      await follow(bob.id, x.id);
      await follow(ann.id, other.id);

      // a silence cuts nothing; turning it into a suspension does
      const block = await admin.v1.admin.domainBlocks.create({ domain: "*.bad.example", severity: "silence" });
      expect(await db().relationshipSeveranceEvent.count({ where: { type: "domain_block" } })).toBe(0);
      await admin.v1.admin.domainBlocks.$select(block.id).update({ severity: "suspend" });

      expect(await db().follow.count({ where: { OR: [{ followerId: { in: [x.id, y.id] } }, { followingId: { in: [x.id, y.id] } }] } })).toBe(0);
      expect(await db().follow.count({ where: { followerId: ann.id, followingId: other.id } })).toBe(1);

      const notifications = (await annClient.v1.notifications.list({ types: ["severed_relationships"] })) as mastodon.v1.SeveredRelationshipsNotification[];
      expect(notifications).toHaveLength(1);
      expectSeveranceEvent(notifications[0]!.event);
      expect(notifications[0]!.event).toMatchObject({ type: "domain_block", targetName: "*.bad.example", followersCount: 2, followingCount: 1 });
      expect(notifications[0]!.account.id).toBe(ann.id);
      const bobShare = await db().accountRelationshipSeveranceEvent.findFirstOrThrow({ where: { accountId: bob.id } });
      expect(bobShare).toMatchObject({ followersCount: 0, followingCount: 1 });

      // masto has no method for these routes: read over plain HTTP
      const annToken = (await passwordToken(server, "ann", "read")).access_token;
      const auth = { headers: { authorization: `Bearer ${annToken}` } };
      const listed = (await (await server.fetch("/api/v1/severed_relationships", auth)).json()) as { id: string; followers_count: number }[];
      expect(listed).toEqual([expect.objectContaining({ id: notifications[0]!.event.id, type: "domain_block", followers_count: 2, following_count: 1, purged: false })]);

      const following = await server.fetch(`/api/v1/severed_relationships/${listed[0]!.id}/following`, auth);
      expect(following.status).toBe(200);
      expect(following.headers.get("content-type")).toMatch(/^text\/csv/);
      expect(await following.text()).toBe("Account address,Show boosts,Notify on new posts,Languages\nx@bad.example,true,false,\n");
      const followers = await (await server.fetch(`/api/v1/severed_relationships/${listed[0]!.id}/followers`, auth)).text();
      expect(followers.split("\n").slice(1, -1).sort()).toEqual(["x@bad.example", "y@sub.bad.example"]);
      // another account's event is not found
      expect((await server.fetch(`/api/v1/severed_relationships/${bobShare.id}/followers`, auth)).status).toBe(404);
      // GraphQL: the same event
      const gql = (await (await server.fetch("/graphql", { json: { query: "{ severedRelationships(first: 5) { edges { node { id type targetName followersCount followingCount } } } }" }, ...auth })).json()) as any;
      expect(gql.data.severedRelationships.edges.map((e: any) => e.node)).toEqual([{ id: listed[0]!.id, type: "domain_block", targetName: "*.bad.example", followersCount: 2, followingCount: 1 }]);
    });

    test("a user's domain block cuts only that user's follows, as a user_domain_block event", async () => {
      const cat = await server.createUser("cat");
      const dan = await server.createUser("dan");
      const catClient = await signIn("cat");
      const q = await remote("q", "meh.example");
      await follow(cat.id, q.id);
      await follow(dan.id, q.id);
      await catClient.v1.domainBlocks.create({ domain: "meh.example" });

      expect(await db().follow.count({ where: { followerId: cat.id, followingId: q.id } })).toBe(0);
      expect(await db().follow.count({ where: { followerId: dan.id, followingId: q.id } })).toBe(1);
      const [n] = (await catClient.v1.notifications.list({ types: ["severed_relationships"] })) as mastodon.v1.SeveredRelationshipsNotification[];
      expect(n!.event).toMatchObject({ type: "user_domain_block", targetName: "meh.example", followersCount: 0, followingCount: 1 });
      expect(await db().notification.count({ where: { accountId: dan.id, type: "severed_relationships" } })).toBe(0);
    });
  });
});
