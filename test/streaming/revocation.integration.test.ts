// Losing one's credentials ends one's live connections: a streaming socket (/api/v1/streaming) or a
// graphql-ws socket (/graphql) whose token is revoked, whose app is deleted, whose session signs out or
// whose account is deactivated, suspended or deleted is closed with 1008 "Credentials revoked" within a
// second, and a direct message sent right after the revocation never reaches it
// (src/domain/auth/credential-watch.ts). Each trigger goes through the route a client or an admin uses.
import WebSocket from "ws";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { streamHub } from "../../src/domain/streams/hub.ts";
import { suiteKinds } from "../support/databases.ts";
import { passwordToken, registerApp, startTestServer, type TestServer } from "../support/server.ts";
import { GqlSocket, openStream, waitForListeners, type StreamClient, type StreamMessage } from "./helpers.ts";

const REVOKED = { code: 1008, reason: "Credentials revoked" };
const SCOPES = "read write follow push";
const PASSWORD = "secret-password";

describe.each(suiteKinds(import.meta.url))("revocation closes live connections on %s", (kind) => {
  let server: TestServer;
  let adminAuth: Record<string, string>;
  const tokens: Record<string, { access_token: string; id: number }> = {};
  const bearer = (who: string) => ({ authorization: `Bearer ${tokens[who]!.access_token}` });

  /** ben sends `who` a direct message */
  const dm = async (who: string, text: string) => {
    const res = await server.fetch("/api/v1/statuses", { json: { status: `@${who} ${text}`, visibility: "direct" }, headers: bearer("ben") });
    expect(res.status).toBe(200);
  };
  const conversation = (text: string) => (m: StreamMessage) => m.event === "conversation" && JSON.stringify(m.payload).includes(text);

  async function user(nickname: string) {
    await server.createUser(nickname);
    tokens[nickname] = await passwordToken(server, nickname, SCOPES);
  }

  /** A `direct` stream of `who`'s token that a first direct message shows to be live. */
  async function liveStream(who: string): Promise<StreamClient> {
    const stream = await openStream(server, `/api/v1/streaming?stream=direct&access_token=${tokens[who]!.access_token}`);
    await dm(who, `before-${who}`);
    await stream.next(conversation(`before-${who}`));
    return stream;
  }

  /**
   * Runs the revocation, then sends a direct message at once: the socket is closed (1008) within a
   * second of the revocation's answer and the message never reached it.
   */
  async function expectClosedBy(stream: StreamClient, who: string, revoke: () => Promise<Response>, status = 200) {
    const res = await revoke();
    expect(res.status).toBe(status);
    const answered = Date.now();
    const after = dm(who, `after-${who}`).catch(() => {}); // a deactivated recipient may refuse it: either way
    const outcome = await Promise.race([stream.closed, stream.next(conversation(`after-${who}`)).then(() => "the message arrived")]);
    expect(outcome).toEqual(REVOKED);
    expect(Date.now() - answered).toBeLessThan(1000);
    await after;
    expect(stream.has(conversation(`after-${who}`))).toBe(false);
  }

  beforeAll(async () => {
    server = await startTestServer(kind);
    await server.createUser("root", { admin: true });
    adminAuth = { authorization: `Bearer ${(await passwordToken(server, "root", `${SCOPES} admin`)).access_token}` };
    for (const nick of ["ben", "rev", "own", "appdel", "deact", "susp", "gone", "gql", "keep"]) await user(nick);
  });
  afterAll(() => server?.close());

  test("POST /oauth/revoke", async () => {
    const app = await registerApp(server, SCOPES);
    const res = await server.fetch("/oauth/token", { form: { grant_type: "password", client_id: app.client_id, client_secret: app.client_secret, username: "rev", password: PASSWORD, scope: SCOPES } });
    tokens.rev = await res.json();
    const stream = await liveStream("rev");
    await expectClosedBy(stream, "rev", () =>
      server.fetch("/oauth/revoke", { form: { token: tokens.rev!.access_token, client_id: app.client_id, client_secret: app.client_secret } }),
    );
  });

  test("DELETE /api/oauth_tokens/:id (the family's token list), from another token of the user", async () => {
    const stream = await liveStream("own");
    const other = await passwordToken(server, "own", SCOPES);
    await expectClosedBy(stream, "own", () => server.fetch(`/api/oauth_tokens/${tokens.own!.id}`, { method: "DELETE", headers: { authorization: `Bearer ${other.access_token}` } }), 201);
  });

  test("an admin deletes the token's app (DELETE /api/v1/ext/admin/oauth_app/:id)", async () => {
    const stream = await liveStream("appdel");
    const row = await server.services.db.oAuthToken.findUniqueOrThrow({ where: { id: tokens.appdel!.id } });
    await expectClosedBy(stream, "appdel", () => server.fetch(`/api/v1/ext/admin/oauth_app/${row.appId}`, { method: "DELETE", headers: adminAuth }), 204);
  });

  test("an admin deactivates the account (PATCH /api/v1/ext/admin/users/deactivate)", async () => {
    const stream = await liveStream("deact");
    await expectClosedBy(stream, "deact", () => server.fetch("/api/v1/ext/admin/users/deactivate", { method: "PATCH", json: { nicknames: ["deact"] }, headers: adminAuth }));
  });

  test("a moderator suspends the account (POST /api/v1/admin/accounts/:id/action)", async () => {
    const stream = await liveStream("susp");
    const id = (await server.services.db.account.findFirstOrThrow({ where: { nickname: "susp" } })).id;
    await expectClosedBy(stream, "susp", () => server.fetch(`/api/v1/admin/accounts/${id}/action`, { json: { type: "suspend" }, headers: adminAuth }));
  });

  test("an admin deletes the account (DELETE /api/v1/ext/admin/users)", async () => {
    const stream = await liveStream("gone");
    await expectClosedBy(stream, "gone", () => server.fetch("/api/v1/ext/admin/users", { method: "DELETE", json: { nicknames: ["gone"] }, headers: adminAuth }));
  });

  test("revoking another token of the same user leaves the socket open", async () => {
    const stream = await liveStream("keep");
    const spare = await passwordToken(server, "keep", SCOPES);
    const res = await server.fetch("/oauth/revoke", { form: { token: spare.access_token } });
    expect(res.status).toBe(200);
    await dm("keep", "still-live");
    await stream.next(conversation("still-live"));
    expect(stream.ws.readyState).toBe(WebSocket.OPEN);
    stream.close();
  });

  describe("GraphQL subscriptions over graphql-ws", () => {
    const DIRECT = 'subscription { streamEvents(stream: "direct") { event status { content } conversation { lastStatus { content } } } }';
    /** whether a subscription event shows `text` (the direct stream sends a status and its conversation) */
    const shows = (socket: GqlSocket, text: string) => socket.data().some((d) => JSON.stringify(d).includes(text));

    /** a graphql-ws socket subscribed to the direct stream, shown live by a first direct message */
    async function liveSubscription(who: string, socket: GqlSocket) {
      const before = streamHub(server.services).stats().listeners;
      socket.subscribe(DIRECT);
      await waitForListeners(server, before + 1);
      await dm(who, `gql-before-${who}`);
      await socket.next((m) => m.type === "next" && JSON.stringify(m).includes(`gql-before-${who}`));
    }

    test("a bearer token revoked (POST /oauth/revoke): the socket closes, no event after", async () => {
      const socket = await GqlSocket.open(server.url, {}, { authorization: `Bearer ${tokens.gql!.access_token}` });
      await liveSubscription("gql", socket);
      const res = await server.fetch("/oauth/revoke", { form: { token: tokens.gql!.access_token } });
      expect(res.status).toBe(200);
      const answered = Date.now();
      const after = dm("gql", "gql-after");
      const outcome = await Promise.race([socket.closed, socket.next((m) => m.type === "next" && JSON.stringify(m).includes("gql-after")).then(() => "the message arrived")]);
      expect(outcome).toEqual(REVOKED);
      await after;
      expect(Date.now() - answered).toBeLessThan(1000);
      expect(shows(socket, "gql-after")).toBe(false);
    });

    test("the session cookie signed out (tRPC session.signOut): the socket closes, no event after", async () => {
      await user("web");
      const app = await registerApp(server, SCOPES);
      const signIn = await server.fetch("/oauth/authorize", {
        form: { "authorization[name]": "web", "authorization[password]": PASSWORD, "authorization[client_id]": app.client_id, "authorization[redirect_uri]": "urn:ietf:wg:oauth:2.0:oob", "authorization[scope]": "read" },
      });
      const cookie = signIn.headers.getSetCookie().find((c) => c.startsWith("_ext_key="))!.split(";")[0]!;
      const socket = await GqlSocket.open(server.url, { cookie, origin: server.url });
      await liveSubscription("web", socket);
      const res = await server.fetch("/trpc/session.signOut", { method: "POST", json: {}, headers: { cookie, origin: server.url, "x-csrf-protection": "1" } });
      expect(res.status).toBe(200);
      const answered = Date.now();
      const after = dm("web", "web-after");
      const outcome = await Promise.race([socket.closed, socket.next((m) => m.type === "next" && JSON.stringify(m).includes("web-after")).then(() => "the message arrived")]);
      expect(outcome).toEqual(REVOKED);
      await after;
      expect(Date.now() - answered).toBeLessThan(1000);
      expect(shows(socket, "web-after")).toBe(false);
    });
  });
});
