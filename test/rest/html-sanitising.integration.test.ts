// What users write is rendered back safely on every output path. Fields the API defines as HTML (status
// content in every content type, bio, profile field names and values, chat messages) carry only inert
// markup: allowed tags, no event handlers or styles, no javascript: links. Fields the API defines as plain
// text (display name, content warning, poll options, the `source` and `text/plain` copies) come back
// verbatim, for the client to escape — and the server's own HTML pages escape them.
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { passwordToken, startTestServer, type TestServer } from "../support/server.ts";

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const XSS = `<script>alert(1)</script><img src=x onerror=alert(1)><iframe src="https://evil.example"></iframe><svg onload=alert(1)></svg><style>*{}</style><a href="javascript:alert(1)">j</a><b onclick="x()" style="color:red">b</b> [m](javascript:alert(2))`;
const ALLOWED_TAGS = new Set(["p", "br", "span", "a", "em", "strong", "b", "i", "u", "del", "s", "code", "pre", "blockquote", "ul", "ol", "li", "h1", "h2", "h3", "h4", "h5", "h6", "sup", "sub", "hr"]);

/** Fails unless every tag of `html` is an allowed one without handlers, styles or script links. */
function expectInert(html: string, where: string) {
  for (const [tag, name, attrs] of html.matchAll(/<\/?([a-zA-Z][\w-]*)([^>]*)>/g)) {
    expect(ALLOWED_TAGS.has(name.toLowerCase()), `${where}: tag ${tag}`).toBe(true);
    expect(attrs, `${where}: ${tag}`).not.toMatch(/\son\w+\s*=|\sstyle\s*=|\ssrc\s*=/i);
    for (const [, href] of attrs.matchAll(/href\s*=\s*"([^"]*)"/gi)) expect(href, `${where}: ${tag}`).toMatch(/^(https?:|mailto:|#|\/)/);
  }
  // what is not a tag is text: a `<script` or `javascript:` that survived would be a tag or an href above
  expect(html, where).not.toMatch(/<script|<img|<iframe|<svg|<style/i);
}

describe("HTML sanitising on output", () => {
  let server: TestServer;
  let alice: { authorization: string };
  let bobId: string;
  beforeAll(async () => {
    server = await startTestServer("pglite");
    await server.createUser("alice");
    bobId = (await server.createUser("bob")).id;
    alice = { authorization: `Bearer ${(await passwordToken(server, "alice")).access_token}` };
  });
  afterAll(() => server?.close());

  test("profile: bio and fields are inert HTML, the display name is verbatim text, on REST and GraphQL", async () => {
    const name = XSS.slice(0, 100);
    const res = await server.fetch("/api/v1/accounts/update_credentials", { method: "PATCH", headers: alice, json: { display_name: name, note: XSS, fields_attributes: { "0": { name: XSS.slice(0, 120), value: XSS } } } });
    expect(res.status).toBe(200);
    const me = await res.json();
    expectInert(me.note, "note");
    expectInert(me.fields[0].name, "field name");
    expectInert(me.fields[0].value, "field value");
    expect(me.display_name).toBe(name);
    expect(me.source.note).toBe(XSS); // what the user typed, for editing
    for (const path of [`/api/v1/accounts/${me.id}`, "/api/v1/accounts/verify_credentials"]) {
      const again = await (await server.fetch(path, { headers: alice })).json();
      expectInert(again.note, `${path} note`);
      expectInert(again.fields[0].value, `${path} field`);
    }
    const gql = await (await server.fetch("/graphql", { headers: alice, json: { query: `{ account(nickname: "alice") { note displayName } }` } })).json();
    // GraphQL's Account.note is documented as the bio as typed (text, like REST's source.note): the admin UI renders it as text
    expect(gql.data.account.note).toBe(XSS);
    expect(gql.data.account.displayName).toBe(name);
  });

  test.each(["text/plain", "text/markdown", "text/html"])("status content as %s is inert HTML; content warning and poll options are verbatim text", async (contentType) => {
    const res = await server.fetch("/api/v1/statuses", { headers: alice, json: { status: XSS, spoiler_text: XSS.slice(0, 60), content_type: contentType, poll: { options: [XSS.slice(0, 40), "fine"], expires_in: 3600 } } });
    expect(res.status).toBe(200);
    const status = await res.json();
    expectInert(status.content, `${contentType} content`);
    expect(status.spoiler_text).toBe(XSS.slice(0, 60));
    expect(status.poll.options[0].title).toBe(XSS.slice(0, 40));
    // every path that renders it again: the status, timelines, its edit history, GraphQL
    const fetched = await (await server.fetch(`/api/v1/statuses/${status.id}`, { headers: alice })).json();
    expectInert(fetched.content, "GET status");
    const home = await (await server.fetch("/api/v1/timelines/home", { headers: alice })).json();
    expectInert(home.find((s: { id: string }) => s.id === status.id).content, "home timeline");
    const history = await (await server.fetch(`/api/v1/statuses/${status.id}/history`, { headers: alice })).json();
    for (const version of history) expectInert(version.content, "history");
    const gql = await (await server.fetch("/graphql", { headers: alice, json: { query: `query($id: ID!) { status(id: $id) { content } }`, variables: { id: status.id } } })).json();
    if (gql.data?.status) expectInert(gql.data.status.content, "GraphQL content");
  });

  test("chat messages are inert HTML", async () => {
    const chat = await (await server.fetch(`/api/v1/ext/chats/by-account-id/${bobId}`, { method: "POST", headers: alice })).json();
    const res = await server.fetch(`/api/v1/ext/chats/${chat.id}/messages`, { headers: alice, json: { content: XSS } });
    expect(res.status).toBe(200);
    expectInert((await res.json()).content, "chat message");
    const list = await (await server.fetch(`/api/v1/ext/chats/${chat.id}/messages`, { headers: alice })).json();
    expectInert(list[0].content, "chat messages list");
  });

  test("the server's HTML pages escape every user field", async () => {
    const status = await (await server.fetch("/api/v1/statuses", { headers: alice, json: { status: XSS, spoiler_text: "<script>cw()</script>" } })).json();
    for (const path of ["/users/alice", `/notice/${status.id}`]) {
      const page = await server.fetch(path, { headers: { accept: "text/html" } });
      expect(page.status, path).toBe(200);
      expect(page.headers.get("content-type"), path).toMatch(/text\/html/);
      const html = await page.text();
      const body = html.slice(html.indexOf("<body"));
      // user text is escaped, so every tag of the page is the page's own: no script, frame or handler, images only our avatar
      for (const [tag, name, attrs] of body.matchAll(/<\/?([a-zA-Z][\w-]*)([^>]*)>/g)) {
        expect(["script", "iframe", "svg", "style", "object", "embed"], `${path}: ${tag}`).not.toContain(name.toLowerCase());
        expect(attrs, `${path}: ${tag}`).not.toMatch(/\son\w+\s*=|javascript:/i);
        if (name.toLowerCase() === "img") expect(attrs, `${path}: ${tag}`).toMatch(/src="http:\/\/localhost:4000\/images\/avi\.png"/);
      }
      expect(body, path).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    }
  });
});
