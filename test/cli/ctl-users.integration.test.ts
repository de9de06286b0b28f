// ctl user / invite / relay through a running server (tRPC): output, --json, exit codes and database state.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { json, runCtl } from "../support/ctl.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

describe("ctl users, invites and relays against a running server", () => {
  let server: TestServer;
  let env: Record<string, string>;
  const db = () => server.services.db;
  beforeAll(async () => {
    server = await startTestServer("postgres");
    env = { DATA_DIR: server.dataDir };
    await server.createUser("root", { admin: true });
    await server.createUser("ann");
  });
  afterAll(() => server?.close());

  test("user list and show, as text and as --json", async () => {
    const list = await runCtl(env, "user", "list");
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^ann {2}ann@example\.test {2}no roles$/m);
    expect(list.stdout).toMatch(/^root {2}root@example\.test {2}admin$/m);
    expect(list.stdout).toContain("2 user(s)");

    const filtered = json(await runCtl(env, "users", "list", "--filter", "is_admin", "--json"));
    expect(filtered).toMatchObject({ count: 1, users: [{ nickname: "root", isAdmin: true }] });
    expect(filtered.users[0]).not.toHaveProperty("passwordHash");

    const shown = json(await runCtl(env, "user", "show", "ann", "--json"));
    expect(shown).toMatchObject({ nickname: "ann", email: "ann@example.test", local: true, deactivated: false, tags: [] });
  });

  test("user new without a password prints a reset link that works", async () => {
    const r = await runCtl(env, "user", "new", "newbie", "newbie@example.test", "--moderator");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`created user newbie (moderator) via server at ${server.url}`);
    const token = r.stdout.match(/set the password at: \S+\/password_reset\/(\S+)/)?.[1];
    expect(token).toBeTruthy();
    const row = await db().account.findFirstOrThrow({ where: { nickname: "newbie" } });
    expect(row).toMatchObject({ isModerator: true, confirmationPending: false, approvalPending: false });
    expect(await db().accountToken.count({ where: { accountId: row.id, kind: "password_reset" } })).toBe(1);
  });

  test("deactivate, activate, tag, untag and reset-mfa change the database", async () => {
    expect((await runCtl(env, "user", "deactivate", "ann")).stdout).toContain("deactivated ann");
    expect(await db().account.findFirstOrThrow({ where: { nickname: "ann" } })).toMatchObject({ deactivated: true });
    expect((await runCtl(env, "user", "activate", "ann")).code).toBe(0);
    expect(await db().account.findFirstOrThrow({ where: { nickname: "ann" } })).toMatchObject({ deactivated: false });

    const tagged = json(await runCtl(env, "user", "tag", "ann", "mrf_tag:media-force-nsfw", "Friends", "--json"));
    expect(tagged.tags).toEqual(["mrf_tag:media-force-nsfw", "friends"]);
    expect((await runCtl(env, "user", "untag", "ann", "friends")).stdout).toContain("ann: tags mrf_tag:media-force-nsfw");
    expect((await db().account.findFirstOrThrow({ where: { nickname: "ann" } })).tags).toEqual(["mrf_tag:media-force-nsfw"]);

    await db().account.update({ where: { nickname: "ann" }, data: { mfaEnabled: true, mfaTotpSecret: "JBSWY3DPEHPK3PXP", mfaBackupCodes: ["x"] } });
    expect((await runCtl(env, "user", "reset-mfa", "ann")).stdout).toContain("two-factor authentication of ann is off");
    expect(await db().account.findFirstOrThrow({ where: { nickname: "ann" } })).toMatchObject({ mfaEnabled: false, mfaTotpSecret: null, mfaBackupCodes: [] });
  });

  test("user delete deactivates at once and queues the removal job", async () => {
    await server.createUser("gone");
    const r = await runCtl(env, "user", "delete", "gone", "--json");
    expect(json(r)).toMatchObject([{ nickname: "gone", deactivated: true }]);
    const row = await db().account.findFirst({ where: { nickname: "gone" } });
    // the job may already have removed the account; until then it is deactivated
    if (row) expect(row.deactivated).toBe(true);
    expect(await db().moderationLogEntry.count({ where: { action: "delete" } })).toBe(1);
  });

  test("errors: unknown user exits 1 with one line, a wrong command line exits 2 with the usage", async () => {
    const missing = await runCtl(env, "user", "show", "ghost");
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^error: Not found$/m);
    const usage = await runCtl(env, "user", "tag", "ann");
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("usage: ctl user tag <nickname> <tag>...");
    const badOption = await runCtl(env, "user", "list", "--frobnicate");
    expect(badOption.code).toBe(2);
    const badNumber = await runCtl(env, "invite", "new", "--max-use", "many");
    expect(badNumber.code).toBe(2);
    expect(badNumber.stderr).toContain("--max-use must be a whole number");
  });

  test("invite new, list and revoke", async () => {
    const created = json(await runCtl(env, "invite", "new", "--max-use", "3", "--expires-at", "2099-01-31", "--json"));
    expect(created).toMatchObject({ type: "reusable_date_limited", maxUse: 3, uses: 0, used: false, expiresAt: "2099-01-31" });
    expect(created.link).toBe(`http://localhost:4000/registration/${created.token}`);
    const listed = await runCtl(env, "invite", "list");
    expect(listed.stdout).toContain(`${created.token}  reusable_date_limited  uses 0/3  expires 2099-01-31`);
    expect((await runCtl(env, "invite", "revoke", created.token)).stdout).toContain(`revoked invite ${created.token}`);
    expect(await db().invite.findUniqueOrThrow({ where: { token: created.token } })).toMatchObject({ used: true });
    expect((await runCtl(env, "invite", "revoke", "nope")).code).toBe(1);
  });

  test("relay follow, list and unfollow", async () => {
    const relay = "https://relay.example.test/actor";
    expect((await runCtl(env, "relay", "follow", relay)).stdout).toContain(`following relay ${relay} (pending)`);
    expect(json(await runCtl(env, "relay", "list", "--json"))).toEqual([{ actor: relay, state: "pending", followedBack: false }]);
    expect((await runCtl(env, "relay", "unfollow", relay)).stdout).toContain(`unfollowed relay ${relay}`);
    expect(await db().relay.count()).toBe(0);
    const unknown = await runCtl(env, "relay", "unfollow", relay);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain(`Not following relay ${relay}`);
    expect((await runCtl(env, "relay", "unfollow", relay, "--force")).code).toBe(0);
  });

  test("ctl --help lists every area's commands", async () => {
    const r = await runCtl(env, "--help");
    expect(r.code).toBe(0);
    for (const line of ["ctl user list", "ctl user reset-mfa", "ctl invite new", "ctl emoji get", "ctl emoji import", "ctl instance purge", "ctl instance refetch", "ctl relay follow", "ctl config migrate", "ctl db vacuum", "ctl db prune"])
      expect(r.stdout).toContain(line);
  });
});
