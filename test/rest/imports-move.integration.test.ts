// The family's follow/block/mute imports (text or file, run as a durable job) and move_account.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { IMPORT_JOB } from "../../src/domain/relationships/relationships.jobs.ts";
import { parseImportList } from "../../src/domain/relationships/imports.ops.ts";
import { suiteKinds } from "../support/databases.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { call, remoteAccount, user, type User } from "./relationships-helpers.ts";
import { waitFor } from "../support/wait.ts";

describe("import lists", () => {
  test("whitespace, newlines and commas separate handles; @ is dropped; duplicates kept once", () => {
    expect(parseImportList("alice\n@bob  carol@remote.example,dave\r\n\n,alice\t@eve@x.example")).toEqual(["alice", "bob", "carol@remote.example", "dave", "eve@x.example"]);
  });
  test("a CSV export with an 'Account address' header: the first column of each row", () => {
    const csv = "Account address,Show boosts,Notify on new posts,Languages\nalice@here.example,true,false,\n@bob@remote.example,false,false,en\n\n";
    expect(parseImportList(csv)).toEqual(["alice@here.example", "bob@remote.example"]);
    expect(parseImportList("\uFEFF\"Account address\",\"Hide notifications\"\n\"carol\",\"true\"")).toEqual(["carol"]);
  });
  test("an empty list has no handles", () => {
    expect(parseImportList(" \n ,")).toEqual([]);
  });
});

describe.each(suiteKinds(import.meta.url))("imports and moves on %s", (kind) => {
  let server: TestServer;
  let db: TestServer["services"]["db"];
  let ns: string;
  let domain: string;
  let ivy: User, bob: User, dave: User;

  beforeAll(async () => {
    server = await startTestServer(kind);
    db = server.services.db;
    ns = server.services.settings.namespace;
    domain = server.services.settings.domain;
    [ivy, bob, , dave] = [await user(server, "ivy"), await user(server, "bob"), await user(server, "carol"), await user(server, "dave")];
  });
  afterAll(() => server?.close());

  const following = (who: User) => db.follow.findMany({ where: { followerId: who.id }, include: { following: true }, orderBy: { id: "asc" } });
  const nicknames = (rows: { following: { nickname: string } }[]) => rows.map((r) => r.following.nickname).sort();

  test("follow_import with a text list: answers 'job started', the job follows known accounts and skips the rest", async () => {
    const remote = await remoteAccount(server, "rita", "remote.example");
    await db.account.update({ where: { id: dave.id }, data: { locked: true } });
    const res = await call(server, ivy, "POST", `/api/${ns}/follow_import`, { list: `bob\n@carol@${domain}, nobody\nrita@remote.example ivy dave\nunknown@nowhere.example` });
    expect(res).toMatchObject({ status: 200, body: "job started" });
    const rows = await waitFor(async () => {
      const r = await following(ivy);
      return r.length === 4 && r;
    }, "ivy's four imported follows");
    expect(nicknames(rows)).toEqual(["bob", "carol", "dave", "rita@remote.example"]);
    expect(Object.fromEntries(rows.map((r) => [r.following.nickname, r.state]))).toEqual({ bob: "accept", carol: "accept", dave: "pending", "rita@remote.example": "pending" });
    expect(remote.id).toBe(rows.find((r) => r.following.nickname === "rita@remote.example")!.followingId);
    const job = await waitFor(async () => {
      const j = await db.job.findFirst({ where: { name: IMPORT_JOB }, orderBy: { createdAt: "desc" } });
      return j?.state === "done" && j;
    }, "the import job to be done");
    expect(job!.payload).toEqual({ accountId: ivy.id, kind: "follow", identifiers: ["bob", `carol@${domain}`, "nobody", "rita@remote.example", "ivy", "dave", "unknown@nowhere.example"] });
  });

  test("follow_import with an uploaded CSV export under /api/v1/<ns>/", async () => {
    const pat = await user(server, "pat");
    const form = new FormData();
    form.append("list", new Blob([`Account address,Show boosts,Notify on new posts,Languages\nbob@${domain},true,false,\ncarol,false,false,\n`], { type: "text/csv" }), "following_accounts.csv");
    const res = await server.fetch(`/api/v1/${ns}/follow_import`, { method: "POST", body: form, headers: pat.auth });
    expect([res.status, await res.json()]).toEqual([200, "job started"]);
    const rows = await waitFor(async () => {
      const r = await following(pat);
      return r.length === 2 && r;
    }, "pat's two imported follows");
    expect(nicknames(rows)).toEqual(["bob", "carol"]);
  });

  test("blocks_import and mutes_import", async () => {
    const quinn = await user(server, "quinn");
    await call(server, quinn, "POST", `/api/v1/accounts/${bob.id}/follow`);
    expect(await call(server, quinn, "POST", `/api/${ns}/blocks_import`, { list: "bob nobody\ncarol" })).toMatchObject({ status: 200, body: "job started" });
    const blocks = await waitFor(async () => {
      const r = await db.userRelationship.findMany({ where: { sourceId: quinn.id, type: "block" }, include: { target: true } });
      return r.length === 2 && r;
    }, "quinn's two imported blocks");
    expect(blocks.map((b) => b.target.nickname).sort()).toEqual(["bob", "carol"]);
    expect(await db.follow.count({ where: { followerId: quinn.id } })).toBe(0); // the block ended the follow

    const form = new FormData();
    form.append("list", new Blob(["dave\n@ivy\n"]), "mutes.txt");
    const res = await server.fetch(`/api/${ns}/mutes_import`, { method: "POST", body: form, headers: quinn.auth });
    expect([res.status, await res.json()]).toEqual([200, "job started"]);
    const mutes = await waitFor(async () => {
      const r = await db.userRelationship.findMany({ where: { sourceId: quinn.id, type: { in: ["mute", "notification_mute"] } }, include: { target: true } });
      return r.length === 4 && r;
    }, "quinn's imported mutes (four rows)");
    expect(mutes.map((m) => `${m.target.nickname}:${m.type}`).sort()).toEqual(["dave:mute", "dave:notification_mute", "ivy:mute", "ivy:notification_mute"]);
  });

  test("imports: a missing list is 400; an empty one starts nothing; scopes are checked", async () => {
    expect(await call(server, ivy, "POST", `/api/${ns}/follow_import`, {})).toMatchObject({ status: 400, body: { error: "Missing field: list." } });
    const before = await db.job.count({ where: { name: IMPORT_JOB } });
    expect(await call(server, ivy, "POST", `/api/${ns}/mutes_import`, { list: "  " })).toMatchObject({ status: 200, body: "job started" });
    expect(await db.job.count({ where: { name: IMPORT_JOB } })).toBe(before);
    const reader = await user(server, "reader", "read write:mutes");
    expect((await call(server, reader, "POST", `/api/${ns}/follow_import`, { list: "bob" })).status).toBe(403);
    expect((await call(server, reader, "POST", `/api/${ns}/mutes_import`, { list: "bob" })).status).toBe(200);
    expect((await call(server, null, "POST", `/api/${ns}/follow_import`, { list: "bob" })).status).toBe(403);
  });

  test("move_account: refusals answer {error} as the family does, then the move and its followers", async () => {
    const old = await user(server, "oldme");
    const next = await user(server, "newme");
    const fan = await user(server, "fan");
    const stayer = await user(server, "stayer");
    const remoteFan = await remoteAccount(server, "far", "remote.example");
    await db.account.update({ where: { id: stayer.id }, data: { allowFollowingMove: false } });
    await call(server, fan, "POST", `/api/v1/accounts/${old.id}/follow`, { reblogs: "false" });
    await call(server, stayer, "POST", `/api/v1/accounts/${old.id}/follow`);
    await db.follow.create({ data: { id: `${old.id}r`, followerId: remoteFan.id, followingId: old.id, state: "accept" } });

    const move = (form: Record<string, string>, who: User = old) => call(server, who, "POST", `/api/${ns}/move_account`, form);
    expect(await move({ password: "wrong", target_account: "newme" })).toMatchObject({ status: 403, body: { error: "Invalid password." } });
    expect(await move({ password: "secret-password", target_account: "newme" })).toMatchObject({
      status: 400,
      body: { error: "Target account must have the origin in `alsoKnownAs`" },
    });
    expect(await move({ password: "secret-password", target_account: "ghost" })).toMatchObject({ status: 404, body: { error: "Target account not found." } });
    expect(await move({ target_account: "newme" })).toMatchObject({ status: 400, body: { error: "Missing field: password." } });
    expect((await db.account.findUniqueOrThrow({ where: { id: old.id } })).movedToId).toBeNull();

    await db.account.update({ where: { id: next.id }, data: { alsoKnownAs: [old.apId] } });
    const res = await call(server, old, "POST", `/api/v1/${ns}/move_account`, { password: "secret-password", target_account: `newme@${domain}` });
    expect(res).toMatchObject({ status: 200, body: { status: "success" } });
    expect((await db.account.findUniqueOrThrow({ where: { id: old.id } })).movedToId).toBe(next.id);
    // local followers are told (a `move` notification from the mover), remote ones through federation later
    const moves = await db.notification.findMany({ where: { type: "move", fromAccountId: old.id } });
    expect(moves.map((n) => n.accountId).sort()).toEqual([fan.id, stayer.id].sort());
    const shown = await call(server, fan, "GET", "/api/v1/notifications?types[]=move");
    expect(shown.body[0]).toMatchObject({ type: "move", account: { id: old.id }, target: { id: next.id } });

    // the job: the local follower who allows it now follows the new account, with the same options
    await waitFor(async () => {
      const rows = await following(fan);
      return rows.length === 1 && rows[0].followingId === next.id;
    }, "the fan to follow the new account instead");
    expect((await following(fan))[0]).toMatchObject({ state: "accept", showReblogs: false });
    expect((await following(stayer)).map((r) => r.followingId)).toEqual([old.id]);
    expect(await db.follow.count({ where: { followerId: remoteFan.id, followingId: old.id } })).toBe(1);
  });

  test("move_account needs write:accounts", async () => {
    const limited = await user(server, "limited", "read follow");
    expect((await call(server, limited, "POST", `/api/${ns}/move_account`, { password: "secret-password", target_account: "bob" })).status).toBe(403);
  });
});
