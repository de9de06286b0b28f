// The reference admin API through an outside client library (`masto`), as moderation tools use it:
// domain blocks and allows (with a blocklist synchroniser end to end), accounts and reports. Shapes are
// checked against what masto's typings declare; effects against the database, the runtime settings and
// what the instance publishes.
import { createRestAPIClient, type mastodon } from "masto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import * as actors from "../support/actors.ts";
import { passwordToken, startTestServer, type TestServer } from "../support/server.ts";

type Client = ReturnType<typeof createRestAPIClient>;

const iso = expect.stringMatching(/^\d{4}-\d\d-\d\dT/);

/** The keys masto's `admin.DomainBlock` declares (its `rejectReposts` is a misspelling of the server's `reject_reports`). */
function expectDomainBlock(b: mastodon.v1.admin.DomainBlock) {
  expect(b).toMatchObject({ id: expect.any(String), domain: expect.any(String), createdAt: iso, obfuscate: expect.any(Boolean), rejectMedia: expect.any(Boolean), digest: expect.stringMatching(/^[0-9a-f]{64}$/) });
  expect(["silence", "suspend", "noop"]).toContain(b.severity);
  expect(typeof (b as unknown as { rejectReports: boolean }).rejectReports).toBe("boolean");
}

function expectAdminAccount(a: mastodon.v1.admin.Account) {
  expect(a).toMatchObject({
    id: expect.any(String),
    username: expect.any(String),
    createdAt: iso,
    email: expect.any(String),
    ips: expect.any(Array),
    locale: expect.any(String),
    role: expect.objectContaining({ name: expect.any(String), highlighted: expect.any(Boolean) }),
    confirmed: expect.any(Boolean),
    approved: expect.any(Boolean),
    disabled: expect.any(Boolean),
    silenced: expect.any(Boolean),
    suspended: expect.any(Boolean),
    sensitized: expect.any(Boolean),
    account: expect.objectContaining({ id: a.id, acct: expect.any(String) }),
  });
}

function expectAdminReport(r: mastodon.v1.admin.Report) {
  expect(r).toMatchObject({
    id: expect.any(String),
    actionTaken: expect.any(Boolean),
    category: expect.any(String),
    comment: expect.any(String),
    forwarded: expect.any(Boolean),
    createdAt: iso,
    updatedAt: iso,
    statuses: expect.any(Array),
    rules: expect.any(Array),
  });
  // masto types these as public accounts; the reference server sends admin accounts (which carry the public one)
  expectAdminAccount(r.account as unknown as mastodon.v1.admin.Account);
  expectAdminAccount(r.targetAccount as unknown as mastodon.v1.admin.Account);
}

/** A blocklist synchroniser, as operators run them: makes the server's domain blocks match `desired`. */
async function syncBlocklist(client: Client, desired: { domain: string; severity: mastodon.v1.admin.DomainBlockSeverity; rejectMedia?: boolean; publicComment?: string }[]) {
  const current: mastodon.v1.admin.DomainBlock[] = [];
  // small pages, so the synchroniser follows the Link header
  for await (const page of client.v1.admin.domainBlocks.list({ limit: 2 })) current.push(...page);
  const byDomain = new Map(current.map((b) => [b.domain, b]));
  const changes = { created: 0, updated: 0, removed: 0 };
  for (const want of desired) {
    const have = byDomain.get(want.domain);
    if (!have) {
      await client.v1.admin.domainBlocks.create(want);
      changes.created++;
    } else if (have.severity !== want.severity || have.rejectMedia !== (want.rejectMedia ?? false) || (have.publicComment ?? "") !== (want.publicComment ?? "")) {
      await client.v1.admin.domainBlocks.$select(have.id).update({ severity: want.severity, rejectMedia: want.rejectMedia ?? false, publicComment: want.publicComment ?? "" });
      changes.updated++;
    }
  }
  for (const have of current) {
    if (!desired.some((d) => d.domain === have.domain)) {
      await client.v1.admin.domainBlocks.$select(have.id).remove();
      changes.removed++;
    }
  }
  return changes;
}

describe("the reference admin API through masto", () => {
  let server: TestServer;
  let admin: Client;
  let moderator: Client;
  let user: Client;
  let adminToken: string;

  const simple = () => server.services.config.group("mrf_simple");
  const hosts = (list: { host: string }[]) => list.map((r) => r.host).sort();
  const published = async () => ((await (await server.fetch("/api/v1/instance")).json()) as any).ext.metadata.federation;
  const logMessages = async () => (await server.services.db.moderationLogEntry.findMany({ orderBy: { id: "asc" } })).map((e) => e.message);

  beforeAll(async () => {
    server = await startTestServer("pglite");
    adminToken = (await actors.admin(server, "root", "read write admin")).token;
    admin = createRestAPIClient({ url: server.url, accessToken: adminToken });
    moderator = createRestAPIClient({ url: server.url, accessToken: (await actors.moderator(server, "mod", "read write admin")).token });
    user = createRestAPIClient({ url: server.url, accessToken: (await actors.user(server, "ursula", "read write")).token });
  });
  afterAll(() => server?.close());

  describe("domain blocks", () => {
    test("create, read, update and delete a block; its SimplePolicy lists follow at once", async () => {
      const block = await admin.v1.admin.domainBlocks.create({ domain: "Spam.Example", severity: "suspend", rejectReports: true, privateComment: "seen in #mods", publicComment: "spam" });
      expectDomainBlock(block);
      expect(block).toMatchObject({ domain: "spam.example", severity: "suspend", rejectMedia: false, privateComment: "seen in #mods", publicComment: "spam", obfuscate: false });
      expect(hosts(simple().reject)).toContain("spam.example");
      expect(hosts(simple().report_removal)).toContain("spam.example");
      expect((await published()).mrf_simple_info.reject["spam.example"]).toEqual({ reason: "spam" });

      expect(await admin.v1.admin.domainBlocks.$select(block.id).fetch()).toEqual(block);
      const listed = await admin.v1.admin.domainBlocks.list();
      expect(listed.map((b) => b.domain)).toContain("spam.example");

      const updated = await admin.v1.admin.domainBlocks.$select(block.id).update({ severity: "silence", rejectMedia: true, obfuscate: true });
      expect(updated).toMatchObject({ id: block.id, severity: "silence", rejectMedia: true, obfuscate: true, publicComment: "spam" });
      expect(hosts(simple().reject)).not.toContain("spam.example");
      expect(hosts(simple().federated_timeline_removal)).toContain("spam.example");
      expect(hosts(simple().media_removal)).toContain("spam.example");
      // obfuscated: left out of what the instance publishes
      expect((await published()).mrf_simple.federated_timeline_removal).not.toContain("spam.example");

      await admin.v1.admin.domainBlocks.$select(block.id).remove();
      expect(hosts(simple().federated_timeline_removal)).not.toContain("spam.example");
      await expect(admin.v1.admin.domainBlocks.$select(block.id).fetch()).rejects.toMatchObject({ statusCode: 404 });
      expect(await server.services.db.instanceDomainBlock.count()).toBe(0);

      const log = await logMessages();
      expect(log).toContain("@root added domain block: spam.example (suspend, reject reports)");
      expect(log).toContain("@root updated domain block: spam.example (silence, reject media, reject reports)");
      expect(log).toContain("@root removed domain block: spam.example");
    });

    test("a second block of a domain is refused with the existing one; bad input is a 4xx", async () => {
      const first = await admin.v1.admin.domainBlocks.create({ domain: "dup.example" });
      expect(first.severity).toBe("silence");
      const again = await server.fetch("/api/v1/admin/domain_blocks", { json: { domain: "DUP.example." }, headers: { authorization: `Bearer ${adminToken}` } });
      expect(again.status).toBe(422);
      expect(await again.json()).toMatchObject({ error: expect.stringContaining("already"), existing_domain_block: { id: first.id, domain: "dup.example" } });
      const bad = await server.fetch("/api/v1/admin/domain_blocks", { json: { domain: "not a domain" }, headers: { authorization: `Bearer ${adminToken}` } });
      expect(bad.status).toBe(422);
      expect(await bad.json()).toEqual({ error: expect.any(String) });
      const badSeverity = await server.fetch("/api/v1/admin/domain_blocks", { json: { domain: "x.example", severity: "nuke" }, headers: { authorization: `Bearer ${adminToken}` } });
      expect(badSeverity.status).toBe(400);
      await admin.v1.admin.domainBlocks.$select(first.id).remove();
    });

    test("a blocklist synchroniser adds, changes and removes blocks end to end", async () => {
      const first = await syncBlocklist(admin, [
        { domain: "a.example", severity: "suspend", publicComment: "harassment" },
        { domain: "b.example", severity: "silence" },
        { domain: "c.example", severity: "noop", rejectMedia: true },
      ]);
      expect(first).toEqual({ created: 3, updated: 0, removed: 0 });
      expect(hosts(simple().reject)).toEqual(["a.example"]);
      expect(hosts(simple().federated_timeline_removal)).toEqual(["b.example"]);
      expect(hosts(simple().media_removal)).toEqual(["c.example"]);

      // the list changes upstream: a lifted, b escalated, d added, c unchanged
      const second = await syncBlocklist(admin, [
        { domain: "b.example", severity: "suspend" },
        { domain: "c.example", severity: "noop", rejectMedia: true },
        { domain: "d.example", severity: "suspend", publicComment: "malware" },
      ]);
      expect(second).toEqual({ created: 1, updated: 1, removed: 1 });
      expect(hosts(simple().reject)).toEqual(["b.example", "d.example"]);
      expect(hosts(simple().federated_timeline_removal)).toEqual([]);
      expect((await published()).mrf_simple.reject.sort()).toEqual(["b.example", "d.example"]);
      // nothing to do the second time round
      expect(await syncBlocklist(admin, [{ domain: "b.example", severity: "suspend" }, { domain: "c.example", severity: "noop", rejectMedia: true }, { domain: "d.example", severity: "suspend", publicComment: "malware" }])).toEqual({ created: 0, updated: 0, removed: 0 });
      expect((await server.services.db.instanceDomainBlock.findMany()).map((b) => b.domain).sort()).toEqual(["b.example", "c.example", "d.example"]);
      await syncBlocklist(admin, []);
      expect(simple().reject).toEqual([]);
    });

    test("only admins manage domain blocks", async () => {
      await expect(moderator.v1.admin.domainBlocks.list()).rejects.toMatchObject({ statusCode: 403 });
      await expect(user.v1.admin.domainBlocks.create({ domain: "x.example" })).rejects.toMatchObject({ statusCode: 403 });
      expect(await server.services.db.instanceDomainBlock.count()).toBe(0);
    });
  });

  test("domain allows: the allow-list, with allow-list federation while it is not empty", async () => {
    const allow = await admin.v1.admin.domainAllows.create({ domain: "friends.example" });
    expect(allow).toEqual({ id: expect.any(String), domain: "friends.example", createdAt: iso });
    expect(await admin.v1.admin.domainAllows.create({ domain: "friends.example" })).toEqual(allow);
    expect(hosts(simple().accept)).toEqual(["friends.example"]);
    expect(await admin.v1.admin.domainAllows.$select(allow.id).fetch()).toEqual(allow);
    expect((await admin.v1.admin.domainAllows.list()).map((a) => a.id)).toEqual([allow.id]);
    await admin.v1.admin.domainAllows.$select(allow.id).remove();
    expect(simple().accept).toEqual([]);
    expect(await logMessages()).toContain("@root removed domain allow: friends.example");
  });

  describe("accounts", () => {
    test("lists with the reference filters, v1 and v2, and shows one", async () => {
      const all = await admin.v1.admin.accounts.list({ local: true, limit: 50 });
      all.forEach(expectAdminAccount);
      expect(all.map((a) => a.username).sort()).toEqual(expect.arrayContaining(["mod", "root", "ursula"]));
      const staff = await admin.v1.admin.accounts.list({ staff: true });
      expect(staff.map((a) => a.username).sort()).toEqual(["mod", "root"]);
      expect(staff.find((a) => a.username === "root")!.role.name).toBe("Admin");

      const v2 = await server.fetch("/api/v2/admin/accounts?origin=local&permissions=staff", { headers: { authorization: `Bearer ${adminToken}` } });
      expect(v2.status).toBe(200);
      expect(((await v2.json()) as { username: string }[]).map((a) => a.username).sort()).toEqual(["mod", "root"]);

      const ursula = all.find((a) => a.username === "ursula")!;
      const shown = await admin.v1.admin.accounts.$select(ursula.id).fetch();
      expectAdminAccount(shown);
      expect(shown).toMatchObject({ email: "ursula@example.test", approved: true, confirmed: true, suspended: false });
      // moderators do not read users by default (the family's users_read)
      await expect(moderator.v1.admin.accounts.list()).rejects.toMatchObject({ statusCode: 403 });
    });

    test("approve and reject pending sign-ups", async () => {
      const pat = await server.createUser("pat");
      const quinn = await server.createUser("quinn");
      await server.services.db.account.updateMany({ where: { id: { in: [pat.id, quinn.id] } }, data: { approvalPending: true } });
      const pending = await admin.v1.admin.accounts.list({ pending: true });
      expect(pending.map((a) => a.username).sort()).toEqual(["pat", "quinn"]);

      const approved = await admin.v1.admin.accounts.$select(pat.id).approve();
      expect(approved).toMatchObject({ id: pat.id, approved: true });
      const rejected = await admin.v1.admin.accounts.$select(quinn.id).reject();
      expect(rejected).toMatchObject({ id: quinn.id, suspended: true });
      // an approved account is not rejected (deleted) by mistake
      await expect(admin.v1.admin.accounts.$select(pat.id).reject()).rejects.toMatchObject({ statusCode: 403 });
      expect(await server.services.db.account.findUniqueOrThrow({ where: { id: pat.id } })).toMatchObject({ approvalPending: false, deactivated: false });
      const log = await logMessages();
      expect(log).toContain("@root approved users: @pat");
      expect(log).toContain("@root rejected users: @quinn");
    });

    test("actions: silence, sensitive, suspend and warn, and their reversals", async () => {
      const vic = await actors.user(server, "vic", "read write");
      const vicToken = vic.token;
      const acts = admin.v1.admin.accounts.$select(vic.id);

      await acts.action.create({ type: "silence" });
      expect(await acts.fetch()).toMatchObject({ silenced: true, suspended: false });
      await acts.action.create({ type: "sensitive" });
      expect(await acts.fetch()).toMatchObject({ silenced: true, sensitized: true });
      expect((await admin.v1.admin.accounts.list({ silenced: true })).map((a) => a.id)).toEqual([vic.id]);
      expect(await acts.unsilence()).toMatchObject({ silenced: false, sensitized: true });
      expect(await acts.unsensitive()).toMatchObject({ silenced: false, sensitized: false });

      await acts.action.create({ type: "suspend", text: "spam run" });
      expect(await acts.fetch()).toMatchObject({ suspended: true, disabled: true });
      // a suspended account's token stops working
      const refused = await server.fetch("/api/v1/accounts/verify_credentials", { headers: { authorization: `Bearer ${vicToken}` } });
      expect(refused.status).toBe(401);
      expect(await acts.unsuspend()).toMatchObject({ suspended: false });
      await acts.action.create({ type: "disable" });
      expect(await acts.enable()).toMatchObject({ disabled: false });

      await acts.action.create({ type: "none", text: "please tag your spoilers" });
      const bad = await server.fetch(`/api/v1/admin/accounts/${vic.id}/action`, { json: { type: "obliterate" }, headers: { authorization: `Bearer ${adminToken}` } });
      expect(bad.status).toBe(400);

      const log = await logMessages();
      expect(log).toContain("@root added tags: mrf_tag:force-unlisted to users: @vic");
      expect(log).toContain("@root removed tags: mrf_tag:media-force-nsfw from users: @vic");
      expect(log).toContain("@root deactivated users: @vic");
      expect(log).toContain("@root warned users: @vic with 'spam run'");
      expect(log).toContain("@root activated users: @vic");
      expect(log).toContain("@root warned users: @vic with 'please tag your spoilers'");
    });

    test("delete an account", async () => {
      const wes = await server.createUser("wes");
      const deleted = await server.fetch(`/api/v1/admin/accounts/${wes.id}`, { method: "DELETE", headers: { authorization: `Bearer ${adminToken}` } });
      expect(deleted.status).toBe(200);
      expect(await deleted.json()).toMatchObject({ id: wes.id, suspended: true });
      expect(await logMessages()).toContain("@root deleted users: @wes");
      const missing = await server.fetch("/api/v1/admin/accounts/nobody-here/approve", { method: "POST", headers: { authorization: `Bearer ${adminToken}` } });
      expect(missing.status).toBe(404);
    });
  });

  test("reports: list, show, assign, resolve, reopen and categorise", async () => {
    const xan = await actors.user(server, "xan", "read write");
    const xanClient = createRestAPIClient({ url: server.url, accessToken: xan.token });
    const post = await xanClient.v1.statuses.create({ status: "buy my stuff" });
    await user.v1.reports.create({ accountId: xan.id, statusIds: [post.id], comment: "spam", category: "spam" });

    const open = await moderator.v1.admin.reports.list();
    expect(open).toHaveLength(1);
    open.forEach(expectAdminReport);
    const report = open[0]!;
    expect(report).toMatchObject({ actionTaken: false, category: "spam", comment: "spam", assignedAccount: null });
    expect(report.account.username).toBe("ursula");
    expect(report.targetAccount.username).toBe("xan");
    expect((report.targetAccount as unknown as mastodon.v1.admin.Account).account.acct).toBe("xan");
    expect(report.statuses.map((s) => s.id)).toEqual([post.id]);
    expect(await moderator.v1.admin.reports.list({ targetAccountId: xan.id })).toHaveLength(1);
    expect(await moderator.v1.admin.reports.list({ accountId: xan.id })).toHaveLength(0);

    const mine = await moderator.v1.admin.reports.$select(report.id).assignToSelf();
    expect(mine.assignedAccount?.username).toBe("mod");
    expect((await moderator.v1.admin.reports.$select(report.id).unassign()).assignedAccount).toBeNull();

    const resolved = await moderator.v1.admin.reports.$select(report.id).resolve();
    expect(resolved).toMatchObject({ actionTaken: true, actionTakenAt: iso });
    expect(await moderator.v1.admin.reports.list()).toHaveLength(0);
    expect((await moderator.v1.admin.reports.list({ resolved: true })).map((r) => r.id)).toEqual([report.id]);
    expect(await moderator.v1.admin.reports.$select(report.id).reopen()).toMatchObject({ actionTaken: false });

    const rule = await server.services.db.rule.create({ data: { text: "No advertising" } });
    const put = await server.fetch(`/api/v1/admin/reports/${report.id}`, { method: "PUT", json: { category: "violation", rule_ids: [String(rule.id)] }, headers: { authorization: `Bearer ${adminToken}` } });
    expect(put.status).toBe(200);
    expect(await put.json()).toMatchObject({ category: "violation", rules: [{ id: String(rule.id), text: "No advertising" }] });
    expect((await moderator.v1.admin.reports.$select(report.id).fetch()).category).toBe("violation");

    // an action naming the report resolves it
    await admin.v1.admin.accounts.$select(xan.id).action.create({ type: "none", reportId: report.id, text: "no ads" });
    expect((await moderator.v1.admin.reports.$select(report.id).fetch()).actionTaken).toBe(true);

    const log = await logMessages();
    expect(log).toContain(`@mod assigned report #${report.id} on user @xan to @mod`);
    expect(log).toContain(`@mod unassigned report #${report.id} on user @xan`);
    expect(log).toContain(`@mod updated report #${report.id} (on user @xan) with 'resolved' state`);
    expect(log).toContain(`@root updated report #${report.id} on user @xan with category 'violation' and rules ${rule.id}`);
    // plain users are refused
    await expect(user.v1.admin.reports.list()).rejects.toMatchObject({ statusCode: 403 });
  });

  test("a page of reports costs the same statements whatever its length: their statuses render in one batch", async () => {
    const yul = await server.createUser("yul");
    const yulClient = createRestAPIClient({ url: server.url, accessToken: (await passwordToken(server, "yul", "read write")).access_token });
    for (let i = 0; i < 3; i++) {
      const post = await yulClient.v1.statuses.create({ status: `report me ${i}` });
      await user.v1.reports.create({ accountId: yul.id, statusIds: [post.id], comment: `r${i}` });
    }
    const page = (limit: number) =>
      server.countQueries(async () => {
        const res = await server.fetch(`/api/v1/admin/reports?target_account_id=${yul.id}&limit=${limit}`, { headers: { authorization: `Bearer ${adminToken}` } });
        expect(res.status).toBe(200);
        return (await res.json()) as { statuses: { id: string }[] }[];
      });
    const one = await page(1);
    const three = await page(3);
    expect(three.result.map((r) => r.statuses.length)).toEqual([1, 1, 1]);
    expect(three.queries).toBe(one.queries);
  });

  describe("sign-up and sign-in blocklists", () => {
    let appToken: string;
    const from = (ip: string) => ({ "x-forwarded-for": ip });
    const signUp = (username: string, email: string, ip = "198.51.100.1") =>
      server.fetch("/api/v1/accounts", { json: { username, email, password: "secret-password", agreement: true }, headers: { authorization: `Bearer ${appToken}`, ...from(ip) } });

    beforeAll(async () => {
      const app = await admin.v1.apps.create({ clientName: "sign-up", redirectUris: "urn:ietf:wg:oauth:2.0:oob", scopes: "read write" });
      const res = await server.fetch("/oauth/token", { form: { grant_type: "client_credentials", client_id: app.clientId!, client_secret: app.clientSecret!, scope: "read write" } });
      appToken = ((await res.json()) as { access_token: string }).access_token;
    });

    test("e-mail domain blocks refuse sign-ups from the domain and its subdomains", async () => {
      const block = await admin.v1.admin.emailDomainBlocks.create({ domain: "spam-mail.example" });
      expect(block).toEqual({ id: expect.any(String), domain: "spam-mail.example", createdAt: iso, history: [] });
      expect(await admin.v1.admin.emailDomainBlocks.$select(block.id).fetch()).toEqual(block);
      expect((await admin.v1.admin.emailDomainBlocks.list()).map((b) => b.id)).toEqual([block.id]);

      for (const email of ["a@spam-mail.example", "b@eu.spam-mail.example"]) {
        const refused = await signUp(`u${email.length}`, email);
        expect(refused.status).toBe(422);
        expect(await refused.json()).toMatchObject({ details: { email: [{ error: "ERR_BLOCKED", description: "is not allowed" }] } });
      }
      expect((await signUp("fine1", "a@good-mail.example")).status).toBe(200);
      await admin.v1.admin.emailDomainBlocks.$select(block.id).remove();
      expect((await signUp("fine2", "c@spam-mail.example")).status).toBe(200);
      expect(await logMessages()).toContain("@root added e-mail domain block: spam-mail.example");
    });

    test("canonical e-mail blocks refuse an address however it is dotted or tagged", async () => {
      const block = await admin.v1.admin.canonicalEmailBlocks.create({ email: "Evil.Person+x@mail.example" });
      expect(block).toEqual({ id: expect.any(String), canonicalEmailHash: expect.stringMatching(/^[0-9a-f]{64}$/) });
      const matches = await admin.v1.admin.canonicalEmailBlocks.test({ email: "evilperson@mail.example" });
      expect(matches.map((b) => b.id)).toEqual([block.id]);
      expect(await admin.v1.admin.canonicalEmailBlocks.test({ email: "someone@mail.example" })).toEqual([]);
      expect((await signUp("evil", "e.v.i.l.person+new@mail.example")).status).toBe(422);
      // the same hash given directly is the same block
      const again = await server.fetch("/api/v1/admin/canonical_email_blocks", { json: { canonical_email_hash: block.canonicalEmailHash }, headers: { authorization: `Bearer ${adminToken}` } });
      expect(again.status).toBe(422);
      expect(await admin.v1.admin.canonicalEmailBlocks.$select(block.id).fetch()).toEqual(block);
      expect((await admin.v1.admin.canonicalEmailBlocks.list()).map((b) => b.id)).toEqual([block.id]);
      await admin.v1.admin.canonicalEmailBlocks.$select(block.id).remove();
      expect((await signUp("evil", "e.v.i.l.person+new@mail.example")).status).toBe(200);
    });

    test("IP blocks hold sign-ups for approval, refuse them, and refuse sign-in under no_access", async () => {
      const held = await admin.v1.admin.ipBlocks.create({ ip: "203.0.113.0/24", severity: "sign_up_requires_approval", comment: "abuse range" });
      expect(held).toMatchObject({ id: expect.any(String), ip: "203.0.113.0/24", severity: "sign_up_requires_approval", comment: "abuse range", createdAt: iso, expiresAt: null });
      const pending = await signUp("heldback", "held@ok.example", "203.0.113.7");
      expect(pending.status).toBe(200);
      expect(await server.services.db.account.findFirstOrThrow({ where: { nickname: "heldback" } })).toMatchObject({ approvalPending: true });

      const updated = await admin.v1.admin.ipBlocks.$select(held.id).update({ severity: "sign_up_block", expiresIn: 3600 });
      expect(updated).toMatchObject({ id: held.id, severity: "sign_up_block", expiresAt: iso });
      expect((await signUp("blocked1", "b1@ok.example", "203.0.113.8")).status).toBe(403);
      expect((await signUp("elsewhere", "e@ok.example", "198.51.100.9")).status).toBe(200);

      // no_access: a correct password from that address is refused; from elsewhere it works
      const whole = await admin.v1.admin.ipBlocks.create({ ip: "2001:db8::/32", severity: "no_access" });
      const app = await admin.v1.apps.create({ clientName: "sign-in", redirectUris: "urn:ietf:wg:oauth:2.0:oob", scopes: "read" });
      const signIn = (ip: string) =>
        server.fetch("/oauth/token", { form: { grant_type: "password", client_id: app.clientId!, client_secret: app.clientSecret!, username: "ursula", password: "secret-password", scope: "read" }, headers: from(ip) });
      const refused = await signIn("2001:db8::1");
      expect(refused.status).toBe(403);
      expect(await refused.json()).toEqual({ error: expect.stringContaining("IP address") });
      expect((await signIn("198.51.100.9")).status).toBe(200);
      expect((await admin.v1.admin.ipBlocks.list()).map((b) => b.id).sort()).toEqual([held.id, whole.id].sort());
      expect(await admin.v1.admin.ipBlocks.$select(whole.id).fetch()).toMatchObject({ ip: "2001:db8::/32" });

      await admin.v1.admin.ipBlocks.$select(whole.id).remove();
      expect((await signIn("2001:db8::1")).status).toBe(200);
      const bad = await server.fetch("/api/v1/admin/ip_blocks", { json: { ip: "300.1.2.3", severity: "no_access" }, headers: { authorization: `Bearer ${adminToken}` } });
      expect(bad.status).toBe(422);
      await admin.v1.admin.ipBlocks.$select(held.id).remove();
      expect(await logMessages()).toContain("@root added IP block: 2001:db8::/32 (no_access)");
    });
  });

  test("dashboard: measures, dimensions and retention computed from the data", async () => {
    const today = new Date().toISOString().slice(0, 10);
    const startAt = new Date(Date.now() - 2 * 86_400_000).toISOString();
    const endAt = new Date().toISOString();
    const poster = createRestAPIClient({ url: server.url, accessToken: (await passwordToken(server, "ursula", "read write")).access_token });
    const post = await poster.v1.statuses.create({ status: "counting #metrics", language: "de" });
    await admin.v1.statuses.$select(post.id).favourite();
    const tag = await server.services.db.tag.findUniqueOrThrow({ where: { name: "metrics" } });

    const result = await admin.v1.admin.measures.create({ keys: ["new_users", "active_users", "interactions", "opened_reports", "tag_uses", "bogus" as never], startAt, endAt, tagUses: { id: tag.id } });
    expect(result.map((m) => m.key)).toEqual(["new_users", "active_users", "interactions", "opened_reports", "tag_uses"]);
    for (const m of result) {
      expect(m).toMatchObject({ total: expect.stringMatching(/^\d+$/), data: expect.any(Array) });
      expect(m.data).toHaveLength(3);
      expect(m.data.reduce((sum, d) => sum + Number(d.value), 0)).toBe(Number(m.total));
    }
    const byKey = Object.fromEntries(result.map((m) => [m.key, m]));
    const localUsers = await server.services.db.account.count({ where: { local: true } });
    expect(Number(byKey.new_users!.total)).toBe(localUsers);
    expect(byKey.new_users!.data.at(-1)).toEqual({ date: `${today}T00:00:00Z`, value: String(localUsers) });
    expect(Number(byKey.tag_uses!.total)).toBe(1);
    expect(Number(byKey.interactions!.total)).toBeGreaterThanOrEqual(1);
    expect(Number(byKey.active_users!.total)).toBeGreaterThanOrEqual(2);
    expect(Number(byKey.opened_reports!.total)).toBe(await server.services.db.report.count());

    const dims = await admin.v1.admin.dimensions.create({ keys: ["languages", "software_versions", "space_usage"], startAt, endAt });
    expect(dims.map((d) => d.key)).toEqual(["languages", "software_versions", "space_usage"]);
    expect(dims[0]!.data).toContainEqual({ key: "de", humanKey: "German", value: "1" });
    expect(dims[1]!.data.map((d) => d.key)).toEqual(["node", "postgresql"]);

    const cohorts = await admin.v1.admin.retention.create({ startAt, endAt, frequency: "day" });
    expect(cohorts).toHaveLength(3);
    const todays = cohorts.at(-1)!;
    expect(todays).toMatchObject({ period: `${today}T00:00:00Z`, frequency: "day" });
    expect(todays.data[0]!.rate).toBeGreaterThan(0);
    expect(todays.data[0]!.rate).toBeLessThanOrEqual(1);
    // moderators do not read statistics by default
    await expect(moderator.v1.admin.measures.create({ keys: ["new_users"], startAt, endAt })).rejects.toMatchObject({ statusCode: 403 });
    const bad = await server.fetch("/api/v1/admin/measures", { json: { keys: ["new_users"], start_at: endAt, end_at: startAt }, headers: { authorization: `Bearer ${adminToken}` } });
    expect(bad.status).toBe(400);
  });

  test("GraphQL reaches the same operations", async () => {
    const gql = async (query: string) => (await server.fetch("/graphql", { json: { query }, headers: { authorization: `Bearer ${adminToken}` } })).json() as Promise<any>;
    const created = await gql(`mutation { createDomainBlock(domain: "gql.example", fields: { severity: suspend, publicComment: "via graphql" }) { id domain severity publicComment } }`);
    expect(created.data.createDomainBlock).toMatchObject({ domain: "gql.example", severity: "suspend", publicComment: "via graphql" });
    expect(hosts(simple().reject)).toContain("gql.example");
    const listed = await admin.v1.admin.domainBlocks.list();
    expect(listed.map((b) => b.domain)).toContain("gql.example");
    const removed = await gql(`mutation { deleteDomainBlock(id: "${created.data.createDomainBlock.id}") { domain } }`);
    expect(removed.data.deleteDomainBlock.domain).toBe("gql.example");
    expect(simple().reject).toEqual([]);
    const accounts = await gql(`{ adminAccounts(staff: true) { nickname } }`);
    expect(accounts.data.adminAccounts.map((a: { nickname: string }) => a.nickname).sort()).toEqual(["mod", "root"]);
  });
});
