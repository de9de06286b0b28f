// An outside client: megalodon's Pleroma driver (it recognises the family through nodeinfo) signing in
// through the authorization-code flow, posting, reacting and reading timelines and notifications. The
// driver hard-codes the family's namespace word, so the server runs in the pleroma profile
// (API_NAMESPACE=pleroma API_FAMILY=pleroma), as an operator serving such clients would.
import net from "node:net";
import generator from "megalodon";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { passwordToken, startTestServer, type TestServer } from "../support/server.ts";

describe("the megalodon client (Pleroma driver)", () => {
  let server: TestServer;
  let token: string;
  let other: string;

  beforeAll(async () => {
    // detection follows nodeinfo's links, so the public URL must be the real one
    const port = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, "127.0.0.1", () => {
        const { port } = probe.address() as net.AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    server = await startTestServer("pglite", { API_NAMESPACE: "pleroma", API_FAMILY: "pleroma", PORT: String(port), BASE_URL: `http://127.0.0.1:${port}` });
    await server.createUser("meg");
    await server.createUser("lou");
    token = (await passwordToken(server, "meg")).access_token;
    other = (await passwordToken(server, "lou")).access_token;
  });
  afterAll(() => server?.close());

  const as = (t: string, path: string, json: unknown) => server.fetch(path, { json, headers: { authorization: `Bearer ${t}` } });

  test("detects the server as Pleroma through nodeinfo", async () => {
    const { detector } = await import("megalodon");
    expect(await detector(server.url)).toBe("pleroma");
  });

  test("reads the home timeline and notifications", async () => {
    const lou = await (await server.fetch("/api/v1/accounts/lou")).json();
    await as(token, `/api/v1/accounts/${lou.id}/follow`, {});
    await as(other, "/api/v1/statuses", { status: "hi @meg from lou" });
    await as(token, "/api/v1/statuses", { status: "my own post" });

    const client = generator("pleroma", server.url, token);
    const home = await client.getHomeTimeline({ limit: 10 });
    expect(home.status).toBe(200);
    expect(home.data.map((s) => s.content)).toEqual(["my own post", expect.stringContaining("from lou")]);
    expect(home.data[1].account.acct).toBe("lou");

    const notifications = await client.getNotifications();
    expect(notifications.data).toHaveLength(1);
    expect(notifications.data[0]).toMatchObject({ type: "mention", account: expect.objectContaining({ acct: "lou" }) });
    expect(notifications.data[0].status?.content).toContain("from lou");
  });

  test("signs in with the authorization-code flow and reads its own account", async () => {
    const client = generator("pleroma", server.url);
    const app = await client.registerApp("megalodon test", { scopes: ["read", "write", "follow", "push"] });
    expect(app.url).toContain("/oauth/authorize");
    const page = await server.fetch("/oauth/authorize", {
      form: {
        "authorization[name]": "meg",
        "authorization[password]": "secret-password",
        "authorization[client_id]": app.client_id,
        "authorization[redirect_uri]": "urn:ietf:wg:oauth:2.0:oob",
        "authorization[scope]": "read write follow push",
      },
    });
    const code = (await page.text()).match(/<code id="code">([^<]+)<\/code>/)?.[1];
    expect(code).toBeTruthy();
    const tokens = await client.fetchAccessToken(app.client_id, app.client_secret, code!);
    expect(tokens.access_token).toBeTruthy();

    const signedIn = generator("pleroma", server.url, tokens.access_token);
    const me = await signedIn.verifyAccountCredentials();
    expect(me.status).toBe(200);
    expect(me.data).toMatchObject({ acct: "meg", username: "meg" });
    // what the driver drops, the raw body keeps: both objects' fields under `pleroma`
    const raw = await (await server.fetch("/api/v1/accounts/verify_credentials", { headers: { authorization: `Bearer ${tokens.access_token}` } })).json();
    expect(raw.pleroma).toMatchObject({ is_admin: false, privileges: [], settings_store: {}, permit_followback: false });
  });

  test("posts with a poll, reacts, favourites, and reads the local and public timelines and the thread", async () => {
    const client = generator("pleroma", server.url, token);
    const posted = await client.postStatus("a poll from megalodon", { poll: { options: ["yes", "no"], expires_in: 3600 } });
    expect(posted.status).toBe(200);
    const status = posted.data as { id: string; poll: { options: { title: string }[] } | null };
    expect(status.poll?.options.map((o) => o.title)).toEqual(["yes", "no"]);

    const loud = generator("pleroma", server.url, other);
    const reply = await loud.postStatus("@meg a reply", { in_reply_to_id: status.id });
    expect(reply.status).toBe(200);
    expect((await loud.favouriteStatus(status.id)).data.favourited).toBe(true);
    const reacted = await loud.createEmojiReaction(status.id, "👍");
    expect(reacted.status).toBe(200);
    expect(reacted.data.emoji_reactions).toEqual([expect.objectContaining({ name: "👍", count: 1, me: true })]);

    const local = await client.getLocalTimeline({ limit: 5 });
    expect(local.data.map((s) => s.id)).toEqual(expect.arrayContaining([status.id]));
    const pub = await client.getPublicTimeline({ limit: 5 });
    expect(pub.status).toBe(200);
    const context = await client.getStatusContext(status.id);
    expect(context.data.descendants.map((s) => s.content)).toEqual([expect.stringContaining("a reply")]);
    const own = await client.getAccountStatuses((await client.verifyAccountCredentials()).data.id, { limit: 5 });
    expect(own.data[0]!.id).toBe(status.id);
  });
});
