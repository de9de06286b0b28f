// Real responses against the OpenAPI document: a user with statuses, media, a poll, a reblog, a quote,
// notifications, a list, filters, a report, a conversation, a chat, a scheduled status; then the main
// read routes are fetched and each answer must match the success schema its operation declares
// (every one of them declares one). The fuzz test checks the same for every operation it reaches.
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { admin, user } from "../support/actors.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { jsonTypeOf, responseValidator } from "../support/openapi-responses.ts";

const PNG = fs.readFileSync("src/media/assets/avi.png");

describe("responses match the OpenAPI document", () => {
  let server: TestServer;
  let doc: any;
  let check: ReturnType<typeof responseValidator>;
  const ids: Record<string, string> = {};
  const tokens: Record<string, string> = {};
  /** every answer of the set-up (posting, following, creating lists, filters, reports…), checked below */
  const answers: { method: string; path: string; status: number; body: unknown }[] = [];
  const as = (who: string) => ({ authorization: `Bearer ${tokens[who]}` });
  async function call(who: string, path: string, init: Parameters<TestServer["fetch"]>[1] = {}) {
    const res = await server.fetch(path, { ...init, headers: { ...as(who), ...(init.headers as Record<string, string>) } });
    const text = await res.text();
    const method = init.method ?? (init.json || init.body ? "POST" : "GET");
    if (res.status >= 300) throw new Error(`${method} ${path} → ${res.status} ${text}`);
    const body = JSON.parse(text);
    answers.push({ method, path: path.split("?")[0], status: res.status, body });
    return body;
  }

  beforeAll(async () => {
    server = await startTestServer("postgres", { JOBS_ENABLED: "false", CONFIGURABLE_FROM_DATABASE: "true" });
    for (const who of [await user(server, "alice"), await user(server, "bob"), await admin(server, "root")]) tokens[who.nickname] = who.token;
    ids.alice = (await call("alice", "/api/v1/accounts/verify_credentials")).id;
    ids.bob = (await call("bob", "/api/v1/accounts/verify_credentials")).id;
    await call("bob", `/api/v1/accounts/${ids.alice}/follow`, { method: "POST" });
    await call("alice", `/api/v1/accounts/${ids.bob}/follow`, { method: "POST" });
    const form = new FormData();
    form.append("file", new Blob([PNG], { type: "image/png" }), "avi.png");
    form.append("description", "a picture");
    ids.media = (await call("alice", "/api/v2/media", { method: "POST", body: form })).id;
    ids.status = (await call("alice", "/api/v1/statuses", { json: { status: "hello #tagged @bob", media_ids: [ids.media], language: "en" } })).id;
    ids.poll = (await call("alice", "/api/v1/statuses", { json: { status: "which?", poll: { options: ["a", "b"], expires_in: 3600 } } })).id;
    ids.reply = (await call("bob", "/api/v1/statuses", { json: { status: "@alice hi back", in_reply_to_id: ids.status } })).id;
    await call("bob", `/api/v1/statuses/${ids.status}/reblog`, { method: "POST" });
    await call("bob", `/api/v1/statuses/${ids.status}/favourite`, { method: "POST" });
    await call("bob", `/api/v1/statuses/${ids.status}/bookmark`, { method: "POST" });
    const pollId = (await call("bob", `/api/v1/statuses/${ids.poll}`)).poll.id;
    ids.pollId = pollId;
    await call("bob", `/api/v1/polls/${pollId}/votes`, { json: { choices: [0] } });
    await call("bob", "/api/v1/statuses", { json: { status: "quoting", quote_id: ids.status } });
    await call("bob", "/api/v1/statuses", { json: { status: "@alice secret", visibility: "direct" } });
    await call("alice", `/api/v1/statuses/${ids.status}`, { method: "PUT", json: { status: "hello #tagged @bob (edited)", media_ids: [ids.media] } });
    ids.list = (await call("alice", "/api/v1/lists", { json: { title: "friends" } })).id;
    await call("alice", `/api/v1/lists/${ids.list}/accounts`, { json: { account_ids: [ids.bob] } });
    ids.filter = (await call("alice", "/api/v2/filters", { json: { title: "no spoilers", context: ["home"], keywords_attributes: [{ keyword: "back" }] } })).id;
    ids.filterV1 = (await call("alice", "/api/v1/filters", { json: { phrase: "ugh", context: ["home"] } })).id;
    await call("alice", "/api/v1/reports", { json: { account_id: ids.bob, status_ids: [ids.reply], comment: "rude" } });
    await call("alice", "/api/v1/statuses", { json: { status: "later", scheduled_at: new Date(Date.now() + 3_600_000).toISOString() } });
    await call("alice", "/api/v1/markers", { json: { home: { last_read_id: ids.status } } });
    await call("alice", "/api/v1/featured_tags", { json: { name: "tagged" } });
    await call("alice", "/api/v1/tags/tagged/follow", { method: "POST" });
    // the family's own: a reaction, a chat with a message, a bookmark folder, a scrobble, a chat
    await call("bob", `/api/v1/ext/statuses/${ids.status}/reactions/${encodeURIComponent("👍")}`, { method: "PUT" });
    ids.chat = (await call("alice", `/api/v1/ext/chats/by-account-id/${ids.bob}`, { method: "POST" })).id;
    await call("alice", `/api/v1/ext/chats/${ids.chat}/messages`, { json: { content: "hi bob" } });
    await call("alice", "/api/v1/ext/bookmark_folders", { json: { name: "mine" } });
    await call("alice", "/api/v1/ext/scrobble", { json: { title: "a song", artist: "someone" } });
    // the admin's: an announcement, a rule
    await call("root", "/api/v1/ext/admin/announcements", { json: { content: "welcome @alice #tagged" } });
    await call("root", "/api/v1/ext/admin/rules", { json: { text: "be kind" } });
    await call("root", "/api/v1/ext/admin/users/invite_token", { json: { max_use: 3 } });
    await call("root", "/api/v1/ext/admin/oauth_app", { json: { name: "an app", redirect_uris: "urn:ietf:wg:oauth:2.0:oob" } });
    await call("root", "/api/v1/admin/domain_blocks", { json: { domain: "bad.example", severity: "suspend", public_comment: "spam" } });
    await call("root", "/api/v1/admin/ip_blocks", { json: { ip: "192.0.2.0/24", severity: "no_access" } });
    await call("root", "/api/v1/admin/email_domain_blocks", { json: { domain: "spam.example" } });
    await call("root", "/api/v1/admin/warning_presets", { json: { title: "spam", text: "no spam" } });
    // the tools' writes: an emoji pack with a file, a stored setting, a frontend settings profile,
    // a media-proxy ban, permission groups, an instance document, a notification read, an import
    await call("root", "/api/v1/ext/emoji/pack", { json: { name: "checked" } });
    const emoji = new FormData();
    emoji.append("name", "checked");
    emoji.append("shortcode", "blob");
    emoji.append("filename", "blob.png");
    emoji.append("file", new Blob([PNG], { type: "image/png" }), "blob.png");
    await call("root", "/api/v1/ext/emoji/packs/files", { method: "POST", body: emoji });
    await call("root", "/api/v1/ext/emoji/packs/files", { method: "PATCH", json: { name: "checked", shortcode: "blob", new_shortcode: "blob2", new_filename: "blob2.png" } });
    await call("root", "/api/v1/ext/emoji/pack", { method: "PATCH", json: { name: "checked", metadata: { description: "a test pack", "share-files": true } } });
    await call("root", "/api/v1/ext/emoji/packs/files", { method: "DELETE", json: { name: "checked", shortcode: "blob2" } });
    await call("root", "/api/v1/ext/admin/reload_emoji", { method: "POST" });
    await call("root", "/api/v1/ext/admin/config", { json: { configs: [{ group: ":pleroma", key: ":instance", value: [{ tuple: [":description", "checked"] }] }] } });
    await call("alice", "/api/v1/own/frontend_settings/pleroma-fe/default", { method: "PUT", json: { settings: { theme: "dark" }, version: 1 } });
    await call("root", "/api/v1/ext/admin/media_proxy_caches/purge", { json: { urls: ["https://cdn.example/a.png"], ban: true } });
    await call("root", "/api/v1/ext/admin/users/permission_group/moderator", { json: { nicknames: ["bob"] } });
    await call("root", "/api/v1/ext/admin/users/permission_group/moderator", { method: "DELETE", json: { nicknames: ["bob"] } });
    await call("root", "/api/v1/ext/admin/users/bob/permission_group/moderator", { method: "POST" });
    await call("root", "/api/v1/ext/admin/users/bob/permission_group/moderator", { method: "DELETE" });
    await call("root", "/api/v1/ext/admin/users", { json: { users: [{ nickname: "carol", email: "carol@example.com", password: "secret-password" }] } });
    await call("root", "/api/v1/ext/admin/users/disable_mfa", { method: "PUT", json: { nickname: "carol" } });
    const document = new FormData();
    document.append("file", new Blob(["<p>our terms</p>"], { type: "text/html" }), "terms.html");
    await call("root", "/api/v1/ext/admin/instance_document/terms-of-service", { method: "PATCH", body: document });
    await call("root", "/api/v1/ext/admin/instance_document/terms-of-service", { method: "DELETE" });
    await call("root", "/api/v1/ext/admin/media_proxy_caches/delete", { json: { urls: ["https://cdn.example/a.png"] } });
    await call("root", "/api/v1/ext/admin/media_proxy_caches/purge", { json: { urls: ["https://cdn.example/b.png"], ban: true } });
    const range = { start_at: new Date(Date.now() - 7 * 86_400_000).toISOString(), end_at: new Date().toISOString() };
    await call("root", "/api/v1/admin/measures", { json: { keys: ["active_users", "new_users", "interactions"], ...range } });
    await call("root", "/api/v1/admin/dimensions", { json: { keys: ["languages", "sources", "software_versions"], ...range } });
    await call("root", "/api/v1/admin/retention", { json: { ...range, frequency: "day" } });
    await call("root", "/api/v1/ext/admin/backups", { json: { nickname: "alice" } });
    const notification = (await call("alice", "/api/v1/notifications"))[0].id;
    await call("alice", "/api/v1/ext/notifications/read", { json: { id: notification } });
    await call("alice", "/api/v1/ext/notifications/read", { json: { max_id: notification } });
    await call("alice", "/api/ext/mutes_import", { json: { list: "nobody@nowhere.example" } });
    doc = await (await server.fetch("/api/openapi")).json();
    check = responseValidator(doc);
  }, 120_000);
  afterAll(() => server?.close());

  const reads: [string, () => string][] = [
    ["alice", () => "/api/v1/accounts/verify_credentials"],
    ["bob", () => `/api/v1/accounts/${ids.alice}`],
    ["bob", () => `/api/v1/accounts/${ids.alice}/statuses`],
    ["bob", () => `/api/v1/accounts/${ids.alice}/followers`],
    ["alice", () => `/api/v1/accounts/relationships?id[]=${ids.bob}`],
    ["alice", () => "/api/v1/accounts/search?q=bob"],
    ["alice", () => "/api/v1/accounts/lookup?acct=bob"],
    ["alice", () => "/api/v1/timelines/home"],
    ["bob", () => "/api/v1/timelines/public"],
    ["bob", () => "/api/v1/timelines/tag/tagged"],
    ["alice", () => `/api/v1/timelines/list/${ids.list}`],
    ["alice", () => "/api/v1/timelines/direct"],
    ["alice", () => `/api/v1/statuses/${ids.status}`],
    ["bob", () => `/api/v1/statuses/${ids.poll}`],
    ["alice", () => `/api/v1/statuses/${ids.status}/context`],
    ["alice", () => `/api/v1/statuses/${ids.status}/history`],
    ["alice", () => `/api/v1/statuses/${ids.status}/source`],
    ["alice", () => `/api/v1/statuses/${ids.status}/favourited_by`],
    ["alice", () => `/api/v1/statuses/${ids.status}/reblogged_by`],
    ["bob", () => `/api/v1/polls/${ids.pollId}`],
    ["alice", () => `/api/v1/media/${ids.media}`],
    ["alice", () => "/api/v1/notifications"],
    ["alice", () => "/api/v2/notifications"],
    ["alice", () => "/api/v1/notifications/unread_count"],
    ["alice", () => "/api/v1/markers?timeline[]=home&timeline[]=notifications"],
    ["bob", () => "/api/v1/bookmarks"],
    ["bob", () => "/api/v1/favourites"],
    ["alice", () => "/api/v1/lists"],
    ["alice", () => `/api/v1/lists/${ids.list}`],
    ["alice", () => `/api/v1/lists/${ids.list}/accounts`],
    ["alice", () => "/api/v1/filters"],
    ["alice", () => "/api/v2/filters"],
    ["alice", () => `/api/v2/filters/${ids.filter}`],
    ["alice", () => "/api/v1/conversations"],
    ["alice", () => "/api/v1/scheduled_statuses"],
    ["alice", () => "/api/v1/follow_requests"],
    ["alice", () => "/api/v1/blocks"],
    ["alice", () => "/api/v1/mutes"],
    ["alice", () => "/api/v1/domain_blocks"],
    ["alice", () => "/api/v1/featured_tags"],
    ["alice", () => "/api/v1/followed_tags"],
    ["alice", () => "/api/v1/tags/tagged"],
    ["alice", () => "/api/v2/search?q=hello&resolve=false"],
    ["alice", () => "/api/v1/search?q=tagged&resolve=false"],
    ["alice", () => "/api/v1/instance"],
    ["alice", () => "/api/v2/instance"],
    ["alice", () => "/api/v1/instance/rules"],
    ["alice", () => "/api/v1/custom_emojis"],
    ["alice", () => "/api/v1/announcements"],
    ["alice", () => "/api/v1/preferences"],
    ["alice", () => "/api/v1/apps/verify_credentials"],
    ["alice", () => "/api/v1/trends/tags"],
    ["alice", () => "/api/v2/suggestions"],
    ["alice", () => "/api/v1/directory"],
    ["alice", () => `/api/v1/ext/statuses/${ids.status}/reactions`],
    ["alice", () => `/api/v1/statuses/${ids.status}/quotes`],
    ["alice", () => "/api/v1/ext/chats"],
    ["alice", () => `/api/v1/ext/chats/${ids.chat}`],
    ["alice", () => `/api/v1/ext/chats/${ids.chat}/messages`],
    ["bob", () => "/api/v2/ext/chats"],
    ["alice", () => "/api/v1/ext/bookmark_folders"],
    ["alice", () => `/api/v1/ext/accounts/${ids.alice}/scrobbles`],
    ["alice", () => "/api/ext/accounts/mfa"],
    ["alice", () => "/api/v0/ext/reports"],
    ["alice", () => "/api/oauth_tokens"],
    ["alice", () => "/api/v1/ext/apps"],
    ["root", () => "/api/v1/ext/admin/users"],
    ["root", () => "/api/v1/ext/admin/users/alice"],
    ["root", () => "/api/v1/ext/admin/users/alice/credentials"],
    ["root", () => "/api/v1/ext/admin/users/alice/statuses"],
    ["root", () => "/api/v1/ext/admin/users/alice/chats"],
    ["root", () => "/api/v1/ext/admin/reports"],
    ["root", () => "/api/v1/ext/admin/grouped_reports"],
    ["root", () => "/api/v1/ext/admin/statuses?godmode=true"],
    ["root", () => `/api/v1/ext/admin/statuses/${ids.status}`],
    ["root", () => `/api/v1/ext/admin/chats/${ids.chat}`],
    ["root", () => `/api/v1/ext/admin/chats/${ids.chat}/messages`],
    ["root", () => "/api/v1/ext/admin/announcements"],
    ["root", () => "/api/v1/ext/admin/rules"],
    ["root", () => "/api/v1/ext/admin/moderation_log"],
    ["root", () => "/api/v1/ext/admin/stats"],
    ["root", () => "/api/v1/ext/admin/instances/localhost/statuses"],
    ["alice", () => "/api/v1/notifications/policy"],
    ["alice", () => "/api/v2/notifications/policy"],
    ["alice", () => "/api/v1/notifications/requests"],
    ["root", () => "/api/v1/ext/admin/users/invites"],
    ["root", () => "/api/v1/ext/admin/oauth_app"],
    ["root", () => "/api/v1/ext/admin/instances"],
    ["alice", () => "/api/v1/ext/emoji"],
    ["alice", () => "/api/v1/ext/settings/checker"],
    ["root", () => "/api/v1/ext/admin/relay"],
    ["root", () => "/api/v1/admin/accounts"],
    ["root", () => "/api/v2/admin/accounts"],
    ["root", () => `/api/v1/admin/accounts/${ids.bob}`],
    ["root", () => "/api/v1/admin/reports"],
    ["root", () => "/api/v1/admin/domain_blocks"],
    ["root", () => "/api/v1/admin/ip_blocks"],
    ["root", () => "/api/v1/admin/email_domain_blocks"],
    ["root", () => "/api/v1/admin/warning_presets"],
    ["root", () => "/api/v1/admin/trends/tags"],
    ["root", () => "/api/v1/admin/trends/statuses"],
    ["alice", () => "/api/v1/ext/emoji/packs"],
    ["alice", () => "/api/v1/ext/emoji/pack?name=checked"],
    ["root", () => "/api/v1/ext/emoji/packs/import"],
    ["root", () => "/api/v1/ext/admin/config"],
    ["root", () => "/api/v1/ext/admin/config?only_db=true"],
    ["root", () => "/api/v1/ext/admin/config/descriptions"],
    ["root", () => "/api/v1/ext/admin/frontends"],
    ["root", () => "/api/v1/ext/admin/media_proxy_caches"],
    ["root", () => "/api/v1/ext/admin/users/bob/permission_group"],
    ["root", () => "/api/v1/ext/admin/users/alice/password_reset"],
    ["root", () => "/api/v1/ext/admin/restart"],
    ["alice", () => "/api/v1/ext/captcha"],
    ["alice", () => "/api/v1/ext/healthcheck"],
    ["alice", () => "/api/v1/ext/federation_status"],
    ["alice", () => "/api/v1/ext/frontend_configurations"],
    ["alice", () => "/api/v1/own/frontend_settings/pleroma-fe"],
    ["alice", () => "/api/v1/own/frontend_settings/pleroma-fe/default"],
    ["alice", () => "/api/v1/trends/links"],
    ["alice", () => "/.well-known/nodeinfo"],
    ["alice", () => "/nodeinfo/2.0"],
    ["alice", () => "/nodeinfo/2.1.json"],
    ["alice", () => "/.well-known/webfinger?resource=http://localhost:4000/users/alice"],
    ["alice", () => "/.well-known/host-meta.json"],
    ["alice", () => "/manifest.json"],
  ];

  test.each(reads.map(([who, path], i) => [i, who, path] as const))("#%i as %s", async (_i, who, path) => {
    const url = path();
    const res = await server.fetch(url, { headers: as(who) });
    const body = await res.json();
    expect(res.status, JSON.stringify(body).slice(0, 300)).toBe(200);
    const checked = check.forPath("GET", url.split("?")[0], res.status, body);
    expect(checked.operation, `${url} declares no success schema`).toBeDefined();
    expect(checked.errors, `${checked.operation}: ${JSON.stringify(body).slice(0, 300)}`).toEqual([]);
  });

  test("the answers to the set-up's writes match too", async () => {
    // an app and a token, as a client gets them
    const app = await call("alice", "/api/v1/apps", { json: { client_name: "checker", redirect_uris: "urn:ietf:wg:oauth:2.0:oob", scopes: "read" } });
    const token = await server.fetch("/oauth/token", { form: { grant_type: "password", client_id: app.client_id, client_secret: app.client_secret, username: "alice", password: "secret-password", scope: "read" } });
    answers.push({ method: "POST", path: "/oauth/token", status: token.status, body: await token.json() });
    // registering with an app token answers the new user's token
    const appToken = await server.fetch("/oauth/token", { form: { grant_type: "client_credentials", client_id: app.client_id, client_secret: app.client_secret, scope: "read" } });
    tokens.app = (await appToken.json()).access_token;
    await call("app", "/api/v1/accounts", { json: { username: "dave", email: "dave@example.test", password: "secret-password", agreement: true, locale: "en" } });
    await call("alice", "/api/v1/own/frontend_settings/pleroma-fe/default", { method: "DELETE" });
    const checked = answers.map((a) => ({ ...a, ...check.forPath(a.method, a.path, a.status, a.body) }));
    expect(checked.filter((c) => c.errors.length).map((c) => `${c.method} ${c.path} (${c.operation}): ${c.errors.join("; ")}`)).toEqual([]);
    // every one of them declares a schema
    expect(checked.filter((c) => !c.operation).map((c) => `${c.method} ${c.path}`)).toEqual([]);
  });

  /** operations whose success has no body to describe, each with why */
  const NO_SUCCESS_BODY: Record<string, string> = {
    "POST /own/frontend": "redirects (303) to / after setting the cookie",
    "GET /api/account/confirm_email/{user_id}/{token}": "redirects to / after confirming",
    "POST /main/ostatus": "redirects to the visitor's own server",
    "GET /authorize_interaction": "redirects to /ostatus_subscribe",
    "GET /objects/{id}": "redirects to the status's page (ActivityPub clients get the object from federation)",
    "DELETE /api/oauth_tokens/{id}": "201 with an empty body, as the family answers",
    "POST /api/v1/statuses/{id}/translate": "always 404: no translation backend",
    "POST /api/v1/admin/trends/links/{id}/approve": "always 404: no link trends",
    "POST /api/v1/admin/trends/links/{id}/reject": "always 404: no link trends",
  };

  test("every operation describes its success: a JSON schema, another media type, or 204", () => {
    const undescribed: string[] = [];
    for (const [path, methods] of Object.entries<Record<string, any>>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(methods)) {
        const [status, success] = Object.entries<any>(op.responses).find(([code]) => /^2/.test(code))!;
        const content: Record<string, { schema?: unknown }> = success.content ?? {};
        // a JSON answer names its view; a page, a file or a feed says its media type
        const described = jsonTypeOf(content) || Object.keys(content).some((type) => !/json/.test(type)) || status === "204";
        const name = `${method.toUpperCase()} ${path}`;
        if (!described && !NO_SUCCESS_BODY[name]) undescribed.push(name);
        if (described && NO_SUCCESS_BODY[name]) undescribed.push(`${name} is listed as having no body but describes one`);
      }
    }
    expect(undescribed).toEqual([]);
  });

  test("a schema that says otherwise than the view fails the check", async () => {
    const body = await call("alice", `/api/v1/statuses/${ids.status}`);
    const wrong = structuredClone(doc);
    // the Status schema as if `content` were a number, and without `language`
    wrong.components.schemas.Status.properties.content = { type: "number" };
    delete wrong.components.schemas.Status.properties.language;
    const checked = responseValidator(wrong).forPath("GET", `/api/v1/statuses/${ids.status}`, 200, body);
    expect(checked.operation).toBe("GET /api/v1/statuses/{id}");
    expect(checked.errors.length).toBeGreaterThan(0);
    expect(check.forPath("GET", `/api/v1/statuses/${ids.status}`, 200, body).errors).toEqual([]);
  });
});
