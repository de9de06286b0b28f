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

  test("follows an account and reads the relationship", async () => {
    const rel = await client.v1.accounts.$select(targetId).follow({ reblogs: false });
    expect(rel).toMatchObject({ id: targetId, following: true, showingReblogs: false });
    const [again] = await client.v1.accounts.relationships.fetch({ id: [targetId] });
    expect(again.following).toBe(true);
    const followers = await client.v1.accounts.$select(targetId).followers.list();
    expect(followers.map((a) => a.acct)).toEqual(["mia"]);
  });
});
