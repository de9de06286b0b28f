// The viewer's account settings over GraphQL (issue 18, criterion 5): the same operations as the own
// namespace's account actions and token routes, with the same effects on the database.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { suiteKinds } from "../support/databases.ts";
import { passwordToken, startTestServer, type TestServer } from "../support/server.ts";

describe.each(suiteKinds(import.meta.url))("GraphQL account settings on %s", (kind) => {
  let server: TestServer;
  let token: string;
  let meId: string;
  const gql = async (query: string, variables: Record<string, unknown> = {}, bearer = token) =>
    (await server.fetch("/graphql", { json: { query, variables }, headers: { authorization: `Bearer ${bearer}` } })).json();
  const ok = async (query: string, variables: Record<string, unknown> = {}, bearer = token) => {
    const body = await gql(query, variables, bearer);
    expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
    return body.data;
  };
  const rest = async (method: string, path: string, bearer = token) => {
    const r = await server.fetch(path, { method, headers: { authorization: `Bearer ${bearer}` } });
    expect(r.status, `${method} ${path}`).toBe(200);
    return r.json();
  };

  beforeAll(async () => {
    server = await startTestServer(kind);
    meId = (await server.createUser("dora")).id;
    await server.createUser("eli");
    token = (await passwordToken(server, "dora")).access_token;
  });
  afterAll(() => server?.close());

  test("aliases, notification settings and e-mail: REST's operations and rows", async () => {
    expect((await ok('mutation { addAlias(alias: "eli") }')).addAlias).toBe(true);
    expect((await server.services.db.account.findUniqueOrThrow({ where: { id: meId } })).alsoKnownAs).toHaveLength(1);
    const aliases = await ok("{ aliases }");
    expect(aliases.aliases).toEqual((await rest("GET", "/api/ext/aliases")).aliases);
    expect(aliases.aliases).toHaveLength(1);
    await ok("mutation($a: String!) { deleteAlias(alias: $a) }", { a: aliases.aliases[0] });
    expect((await rest("GET", "/api/ext/aliases")).aliases).toEqual([]);

    const before = JSON.stringify(await server.services.db.account.findUniqueOrThrow({ where: { id: meId } }));
    await ok("mutation { updateNotificationSettings(blockFromStrangers: true) }");
    expect(JSON.stringify(await server.services.db.account.findUniqueOrThrow({ where: { id: meId } }))).not.toBe(before);

    const wrong = await gql('mutation { changeEmail(password: "not-it", email: "dora@new.example") }');
    expect(wrong.errors).toBeDefined();
    await ok('mutation { changeEmail(password: "secret-password", email: "dora@new.example") }');
    expect((await server.services.db.account.findUniqueOrThrow({ where: { id: meId } })).email).toBe("dora@new.example");
  });

  test("ownTokens lists REST's tokens; revokeOwnToken deletes one", async () => {
    const other = (await passwordToken(server, "dora")).access_token;
    const listed = await ok("{ ownTokens { id scopes appName } }");
    const restTokens = await rest("GET", "/api/oauth_tokens");
    expect(listed.ownTokens.map((t: { id: string }) => t.id)).toEqual(restTokens.map((t: { id: number }) => String(t.id)));
    expect(listed.ownTokens.length).toBeGreaterThanOrEqual(2);
    const target = listed.ownTokens[1].id; // the older token; the newer one revokes it
    await ok("mutation($id: ID!) { revokeOwnToken(id: $id) }", { id: target }, other);
    expect(await server.services.db.oAuthToken.count({ where: { id: Number(target) } })).toBe(0);
  });
});

describe.each(suiteKinds(import.meta.url))("GraphQL profile images and moves on %s", (kind) => {
  let server: TestServer;
  let token: string;
  let meId: string;
  beforeAll(async () => {
    server = await startTestServer(kind);
    meId = (await server.createUser("fay")).id;
    token = (await passwordToken(server, "fay")).access_token;
  });
  afterAll(() => server?.close());

  test("setProfileImage uploads and clears the avatar as REST does; moveAccount refuses a wrong password", async () => {
    const png = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");
    const form = new FormData();
    form.set("operations", JSON.stringify({ query: "mutation($f: File) { setProfileImage(image: avatar, file: $f) { id avatar } }", variables: { f: null } }));
    form.set("map", JSON.stringify({ 0: ["variables.f"] }));
    form.set("0", new Blob([png], { type: "image/png" }), "me.png");
    const up = await (await server.fetch("/graphql", { method: "POST", body: form, headers: { authorization: `Bearer ${token}`, "graphql-require-preflight": "1" } })).json();
    expect(up.errors, JSON.stringify(up.errors)).toBeUndefined();
    const stored = (await server.services.db.account.findUniqueOrThrow({ where: { id: meId } })).avatar;
    expect(stored).toBeTruthy();
    const restMe = await (await server.fetch("/api/v1/accounts/verify_credentials", { headers: { authorization: `Bearer ${token}` } })).json();
    expect(up.data.setProfileImage.avatar).toBe(restMe.avatar);

    const cleared = await (await server.fetch("/graphql", { json: { query: "mutation { setProfileImage(image: avatar) { avatar } }" }, headers: { authorization: `Bearer ${token}` } })).json();
    expect(cleared.errors).toBeUndefined();
    expect((await server.services.db.account.findUniqueOrThrow({ where: { id: meId } })).avatar).toBeFalsy();

    const move = await (await server.fetch("/graphql", { json: { query: 'mutation { moveAccount(password: "wrong", targetAccount: "nobody") }' }, headers: { authorization: `Bearer ${token}` } })).json();
    expect(move.errors).toBeDefined();
    expect((await server.services.db.account.findUniqueOrThrow({ where: { id: meId } })).movedToId ?? null).toBeNull();
  });
});
