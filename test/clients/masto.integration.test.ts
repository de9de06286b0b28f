// An outside client: the `masto` library, as third-party apps use it, against the running server.
import { createRestAPIClient } from "masto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { passwordToken, startTestServer, type TestServer } from "../support/server.ts";

describe("the masto client", () => {
  let server: TestServer;
  let client: ReturnType<typeof createRestAPIClient>;
  let targetId: string;

  beforeAll(async () => {
    server = await startTestServer("pglite");
    await server.createUser("mia");
    targetId = (await server.createUser("noa")).id;
    const { access_token } = await passwordToken(server, "mia");
    client = createRestAPIClient({ url: server.url, accessToken: access_token });
  });
  afterAll(() => server?.close());

  test("reads verify_credentials", async () => {
    const me = await client.v1.accounts.verifyCredentials();
    expect(me).toMatchObject({ username: "mia", acct: "mia", locked: false });
    expect(me.source?.privacy).toBe("public");
  });

  test("updates the profile", async () => {
    const me = await client.v1.accounts.updateCredentials({ displayName: "Mia M", note: "hi there", locked: true, fieldsAttributes: [{ name: "web", value: "https://mia.example" }] });
    expect(me).toMatchObject({ displayName: "Mia M", locked: true });
    expect(me.fields).toEqual([expect.objectContaining({ name: "web", value: "https://mia.example" })]);
    const row = await server.services.db.account.findFirstOrThrow({ where: { nickname: "mia" } });
    expect(row).toMatchObject({ displayName: "Mia M", note: "hi there", locked: true });
  });

  test("posts, favourites and votes", async () => {
    const noaToken = (await passwordToken(server, "noa")).access_token;
    const noa = createRestAPIClient({ url: server.url, accessToken: noaToken });
    const poll = await noa.v1.statuses.create({ status: "tea or coffee? #poll", poll: { options: ["tea", "coffee"], expiresIn: 3600 } });
    expect(poll.poll?.options.map((o) => o.title)).toEqual(["tea", "coffee"]);
    expect(poll.tags.map((t) => t.name)).toEqual(["poll"]);

    const posted = await client.v1.statuses.create({ status: "hello @noa", visibility: "unlisted", spoilerText: "greeting" });
    expect(posted).toMatchObject({ visibility: "unlisted", spoilerText: "greeting", mentions: [expect.objectContaining({ acct: "noa" })] });

    const faved = await client.v1.statuses.$select(poll.id).favourite();
    expect(faved).toMatchObject({ favourited: true, favouritesCount: 1 });
    const voted = await client.v1.polls.$select(poll.poll!.id).votes.create({ choices: [1] });
    expect(voted).toMatchObject({ voted: true, ownVotes: [1], votesCount: 1 });
    expect(await server.services.db.pollVote.count({ where: { pollId: poll.poll!.id } })).toBe(1);
  });

  test("follows an account and reads the relationship", async () => {
    const rel = await client.v1.accounts.$select(targetId).follow({ reblogs: false });
    expect(rel).toMatchObject({ id: targetId, following: true, showingReblogs: false });
    const [again] = await client.v1.accounts.relationships.fetch({ id: [targetId] });
    expect(again.following).toBe(true);
    const followers = await client.v1.accounts.$select(targetId).followers.list();
    expect(followers.map((a) => a.acct)).toEqual(["mia"]);
  });

  test("reads the home, local and tag timelines and a thread", async () => {
    const posted = await client.v1.statuses.create({ status: "timeline check #mastotl" });
    const reply = await client.v1.statuses.create({ status: "and a reply", inReplyToId: posted.id });
    const home = await client.v1.timelines.home.list({ limit: 10 });
    expect(home.map((s) => s.id)).toEqual(expect.arrayContaining([posted.id, reply.id]));
    const local = await client.v1.timelines.public.list({ local: true, limit: 10 });
    expect(local.map((s) => s.id)).toContain(posted.id);
    const tagged = await client.v1.timelines.tag.$select("mastotl").list();
    expect(tagged.map((s) => s.id)).toEqual([posted.id]);
    const context = await client.v1.statuses.$select(posted.id).context.fetch();
    expect(context.descendants.map((s) => s.id)).toEqual([reply.id]);
  });
});
