// The authorization matrix, generated from the route table (src/routes.ts): every route × {anonymous,
// user, moderator without the route's privilege, admin, token lacking the scope} gets the outcome its
// declaration documents (docs/development.md, "Adding a REST route"; src/domain/auth/policy.ts):
//
// - public routes refuse nobody for who they are;
// - a route with scopes refuses anonymous requests (403 "Invalid credentials.") unless it is `optional`;
// - a token without one of the route's scopes gets 403 "Insufficient permissions: …" (unless `optional`,
//   which proceeds anonymously; `"any"` takes any valid token);
// - `role: "admin"` refuses users and moderators ("User is not an admin."), `role: "staff"` refuses users
//   ("User is not a staff member."), and a `privilege` the moderator does not hold refuses them ("User
//   isn't privileged.");
// - the admin (every scope) is refused by no route's declaration.
//
// Object-level checks (another user's status, list, chat, …) are the operations' own and are tested with
// them; visibility across REST, GraphQL and streaming is at the end of this file.
import WebSocket from "ws";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { allRoutes } from "../../src/routes.ts";
import { streamHub } from "../../src/domain/streams/hub.ts";
import { authOf, resolveRoute, type RouteAuth, type RouteDef } from "../../src/http/routes/route.ts";
import type { Privilege } from "../../src/config/runtime.ts";
import { admin, moderator, user } from "../support/actors.ts";
import { passwordToken, startTestServer, type TestServer } from "../support/server.ts";
import { waitFor } from "../support/wait.ts";

vi.setConfig({ testTimeout: 300_000, hookTimeout: 60_000 });

const PERSONAS = ["anonymous", "user", "moderator", "admin", "lacking_scope"] as const;
type Persona = (typeof PERSONAS)[number];
/** messages of refusals by the declaration (src/http/routes/mount.ts authorize → src/domain/auth/policy.ts) */
const DECLARATION_REFUSAL = /^(Invalid credentials\.|Insufficient permissions: .*|User is not an admin\.|User is not a staff member\.|User isn't privileged\.)$/;
const MODERATOR_PRIVILEGES: Privilege[] = ["messages_delete", "reports_manage_reports"]; // the default moderator_privileges

type Auth = Exclude<RouteAuth, "public">;

/** What the declaration says `persona` gets: "refused" (403 with a declaration message) or "passes". */
function expected(def: RouteDef, persona: Persona): "refused" | "passes" {
  const declared = authOf(def);
  if (declared === "public") return "passes";
  const auth = declared as Auth;
  const staffOnly = !!auth.role || !!auth.privilege;
  if (persona === "admin") return "passes";
  if (persona === "anonymous") return auth.optional && !staffOnly ? "passes" : "refused";
  if (persona === "user") return staffOnly ? (auth.optional ? "refused" : "refused") : "passes";
  if (persona === "moderator") {
    if (auth.role === "admin") return "refused";
    if (auth.privilege && !MODERATOR_PRIVILEGES.includes(auth.privilege)) return "refused";
    return "passes";
  }
  // lacking_scope: the admin's account with a token whose scopes cover none of the route's
  if (auth.scopes === "any") return "passes";
  return auth.optional && !staffOnly ? "passes" : "refused";
}

/** A token scope that covers none of `scopes` (the route's alternatives). */
function scopeNotCovering(scopes: readonly string[] | "any"): string {
  const needed = scopes === "any" ? [] : scopes;
  const families = new Set(needed.map((s) => s.split(":")[0]));
  return ["push", "follow", "read", "write", "admin"].find((f) => !families.has(f) && !needed.some((n) => n.startsWith(`${f}:`) || n === f)) ?? "push";
}

describe("authorization matrix from the route table", () => {
  let server: TestServer;
  const tokens: Partial<Record<Persona, string>> = {};
  const narrowTokens = new Map<string, string>();

  beforeAll(async () => {
    server = await startTestServer("pglite");
    tokens.user = (await user(server, "user1")).token;
    tokens.moderator = (await moderator(server, "mod1")).token;
    tokens.admin = (await admin(server, "admin1")).token;
  });
  afterAll(() => server?.close());

  const tokenFor = async (persona: Persona, def: RouteDef): Promise<string | undefined> => {
    if (persona === "anonymous") return undefined;
    if (persona !== "lacking_scope") return tokens[persona];
    const scope = scopeNotCovering(((a) => (a === "public" ? [] : a.scopes))(authOf(def)));
    if (!narrowTokens.has(scope)) narrowTokens.set(scope, (await passwordToken(server, "admin1", scope)).access_token);
    return narrowTokens.get(scope);
  };

  test("every route × persona gets the documented outcome", async () => {
    const wrong: string[] = [];
    let checked = 0;
    const refusals: Record<Persona, number> = { anonymous: 0, user: 0, moderator: 0, admin: 0, lacking_scope: 0 };
    // destructive routes last, so a persona's own token or account outlives the matrix
    const routes = [...allRoutes].sort((a, b) => Number(/revoke|sign_out|logout|delete_account|disable_account/.test(JSON.stringify(a.path))) - Number(/revoke|sign_out|logout|delete_account|disable_account/.test(JSON.stringify(b.path))));
    for (const declared of routes) {
      const def = resolveRoute(declared, "ext", "own");
      const path = def.paths[0].replace(/:([A-Za-z_]+)/g, "zz-none");
      for (const persona of PERSONAS) {
        const token = await tokenFor(persona, declared);
        const res = await server.fetch(path, { method: def.method, headers: token ? { authorization: `Bearer ${token}` } : {} });
        const text = await res.text();
        let error: string | undefined;
        try {
          error = JSON.parse(text)?.error;
        } catch {
          /* HTML pages, redirects */
        }
        const refusedByDeclaration = (res.status === 403 || res.status === 401) && typeof error === "string" && DECLARATION_REFUSAL.test(error);
        const want = expected(declared, persona);
        checked++;
        if (refusedByDeclaration) refusals[persona]++;
        if (res.status >= 500) wrong.push(`${def.method} ${path} as ${persona}: ${res.status} ${text.slice(0, 120)}`);
        else if (want === "refused" && !refusedByDeclaration) wrong.push(`${def.method} ${path} as ${persona}: expected a refusal, got ${res.status} ${text.slice(0, 120)}`);
        else if (want === "passes" && refusedByDeclaration) wrong.push(`${def.method} ${path} as ${persona}: refused (${error}) though its declaration admits them`);
      }
    }
    expect(checked).toBe(allRoutes.length * PERSONAS.length);
    // not vacuous: most personas are refused somewhere, and the admin nowhere
    for (const persona of ["anonymous", "user", "moderator", "lacking_scope"] as const) expect(refusals[persona], persona).toBeGreaterThan(20);
    expect(refusals.admin).toBe(0);
    expect(wrong).toEqual([]);
  });
});

// Field-level privileges in GraphQL: a field showing what an admin-API privilege guards is that privilege's,
// whatever role asks. `Account.email` is `users_read`'s (the admin user routes'); the default moderator lacks
// it and gets null (the field is nullable: no error, the rest of the query answers), as users and anonymous do.
describe("GraphQL field-level staff privileges", () => {
  let server: TestServer;
  const auth: Record<string, Record<string, string>> = { anonymous: {}, adminToken: { "x-admin-token": "matrix-admin-token" } };
  let target: { id: string; nickname: string };
  beforeAll(async () => {
    server = await startTestServer("pglite", { ADMIN_TOKEN: "matrix-admin-token" });
    target = await user(server, "someone");
    auth.user = (await user(server, "user1")).auth;
    auth.moderator = (await moderator(server, "mod1")).auth;
    auth.admin = (await admin(server, "admin1")).auth;
  }, 180_000);
  afterAll(() => server?.close());

  const SEES_EMAIL: Record<string, boolean> = { anonymous: false, user: false, moderator: false, admin: true, adminToken: true };

  test("Account.email: only holders of users_read see it; the others get null and no error", async () => {
    expect(MODERATOR_PRIVILEGES).not.toContain("users_read");
    for (const [persona, sees] of Object.entries(SEES_EMAIL)) {
      const res = await server.fetch("/graphql", { headers: auth[persona], json: { query: "query($id: ID) { account(id: $id) { id email } }", variables: { id: target.id } } });
      const body = await res.json();
      expect(res.status, persona).toBe(200);
      expect(body.errors, `${persona}: ${JSON.stringify(body.errors)}`).toBeUndefined();
      expect(body.data.account, persona).toEqual({ id: target.id, email: sees ? "someone@example.test" : null });
    }
  });
});

// Who sees a status of each visibility, on the other surfaces than REST's GET (which
// test/rest/visibility-matrix.integration.test.ts covers): GraphQL's `status(id:)` and the streaming API.
const VISIBILITIES = ["public", "unlisted", "private", "direct", "local"] as const;
const SEES: Record<"follower" | "mentioned" | "stranger" | "anonymous", readonly string[]> = {
  follower: ["public", "unlisted", "private", "local"],
  mentioned: ["public", "unlisted", "private", "direct", "local"],
  stranger: ["public", "unlisted", "local"],
  anonymous: ["public", "unlisted"],
};

describe("visibility across GraphQL and streaming", () => {
  let server: TestServer;
  const auth: Record<string, { authorization: string }> = {};
  beforeAll(async () => {
    server = await startTestServer("pglite");
    for (const name of ["author", "follower", "mentioned", "stranger"]) {
      auth[name] = (await user(server, name)).auth;
    }
    const author = await (await server.fetch("/api/v1/accounts/verify_credentials", { headers: auth.author })).json();
    expect((await server.fetch(`/api/v1/accounts/${author.id}/follow`, { method: "POST", headers: auth.follower })).status).toBe(200);
  });
  afterAll(() => server?.close());

  const post = async (visibility: string, text: string) => {
    const res = await server.fetch("/api/v1/statuses", { headers: auth.author, json: { status: `@mentioned ${text}`, visibility } });
    expect(res.status).toBe(200);
    return (await res.json()).id as string;
  };

  test("GraphQL status(id:) shows each viewer exactly what REST does", async () => {
    const ids = Object.fromEntries(await Promise.all(VISIBILITIES.map(async (v) => [v, await post(v, `gql ${v}`)] as const)));
    for (const [viewer, sees] of Object.entries(SEES)) {
      for (const visibility of VISIBILITIES) {
        const res = await server.fetch("/graphql", { headers: viewer === "anonymous" ? {} : auth[viewer], json: { query: "query($id: ID!) { status(id: $id) { id visibility } }", variables: { id: ids[visibility] } } });
        const body = await res.json();
        const visible = body.data?.status?.id === ids[visibility];
        expect(visible, `${viewer} × ${visibility}: ${JSON.stringify(body)}`).toBe(sees.includes(visibility));
        if (!visible) expect(body.errors?.[0]?.extensions?.code, `${viewer} × ${visibility}`).toBe("NOT_FOUND");
      }
    }
  });

  test("streaming: the public stream carries public statuses (and local-only ones to signed-in users), the home stream what the follower may see", async () => {
    const open = (path: string, who?: string) =>
      new Promise<{ texts: string[]; close: () => void }>((resolve, reject) => {
        const texts: string[] = [];
        const ws = new WebSocket(`${server.url.replace(/^http/, "ws")}/api/v1/streaming?${path}`, { headers: who ? auth[who] : {} });
        ws.on("message", (data) => {
          const m = JSON.parse(String(data));
          if (m.event === "update") texts.push(JSON.parse(m.payload).content.replace(/<[^>]*>/g, ""));
        });
        ws.once("open", () => resolve({ texts, close: () => ws.close() }));
        ws.once("error", reject);
      });
    const hub = streamHub(server.services);
    const subscribed = hub.stats().subscriptions;
    const streams = {
      anonymousPublic: await open("stream=public"),
      strangerPublic: await open("stream=public", "stranger"),
      strangerHome: await open("stream=user", "stranger"),
      followerHome: await open("stream=user", "follower"),
      mentionedDirect: await open("stream=direct", "mentioned"),
    };
    await waitFor(() => hub.stats().subscriptions >= subscribed + Object.keys(streams).length, "the five streams to be subscribed", { intervalMs: 10 });
    for (const v of VISIBILITIES) await post(v, `stream ${v}`);
    await post("public", "stream sentinel");
    // every stream that carries public statuses has seen the sentinel posted last: what it lacks now it never gets
    for (const name of ["anonymousPublic", "strangerPublic", "followerHome"] as const) {
      await vi.waitFor(() => expect(streams[name].texts.some((t) => t.includes("stream sentinel")), name).toBe(true), { timeout: 15_000 });
    }
    await vi.waitFor(() => expect(streams.mentionedDirect.texts.some((t) => t.includes("stream direct"))).toBe(true), { timeout: 15_000 });
    const seen = (name: keyof typeof streams) => VISIBILITIES.filter((v) => streams[name].texts.some((t) => t.includes(`stream ${v}`)));
    expect(seen("anonymousPublic"), "anonymousPublic").toEqual(["public"]);
    expect(seen("strangerPublic"), "strangerPublic").toEqual(["public", "local"]); // local-only posts are for signed-in users of the instance
    expect(seen("strangerHome")).toEqual([]); // follows nobody
    expect(seen("followerHome")).toEqual(["public", "unlisted", "private", "local"]);
    expect(seen("mentionedDirect")).toEqual(["direct"]);
    for (const s of Object.values(streams)) s.close();
  });
});

// The "other user" column: what one user owns, another user's full-scope token can neither read nor
// change; every attempt answers 403 or 404, or the family's documented refusal of that route (422 for
// pinning someone else's status, 400 `not_found` for posting to a chat that is not yours), and changes nothing.
describe("another user's objects", () => {
  let server: TestServer;
  const auth: Record<string, { authorization: string }> = {};
  beforeAll(async () => {
    server = await startTestServer("pglite");
    for (const name of ["owner", "other", "friend"]) {
      auth[name] = (await user(server, name)).auth;
    }
  });
  afterAll(() => server?.close());

  test("statuses, lists, filters, scheduled statuses, chats, media and bookmark folders of the owner are closed to the other user", async () => {
    const as = (who: string, path: string, init: RequestInit & { json?: unknown } = {}) => server.fetch(path, { ...init, headers: { ...auth[who], ...(init.headers ?? {}) } });
    const body = async (res: Response) => (res.status === 204 ? null : res.json());
    const friend = await body(await as("friend", "/api/v1/accounts/verify_credentials"));
    const status = await body(await as("owner", "/api/v1/statuses", { json: { status: "mine", visibility: "public" } }));
    const list = await body(await as("owner", "/api/v1/lists", { json: { title: "mine" } }));
    const filter = await body(await as("owner", "/api/v1/filters", { json: { phrase: "mine", context: ["home"] } }));
    const scheduled = await body(await as("owner", "/api/v1/statuses", { json: { status: "later", scheduled_at: new Date(Date.now() + 3_600_000).toISOString() } }));
    const chat = await body(await as("owner", `/api/v1/ext/chats/by-account-id/${friend.id}`, { method: "POST" }));
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array((await import("node:fs")).readFileSync("src/media/assets/avi.png"))], { type: "image/png" }), "mine.png");
    const media = await body(await as("owner", "/api/v2/media", { method: "POST", body: form }));
    const folder = await body(await as("owner", "/api/v1/ext/bookmark_folders", { json: { name: "mine" } }));
    for (const [what, id] of Object.entries({ status: status?.id, list: list?.id, filter: filter?.id, scheduled: scheduled?.id, chat: chat?.id, media: media?.id, folder: folder?.id })) expect(id, what).toBeTruthy();

    const attempts: [string, string, unknown?, number?][] = [
      ["DELETE", `/api/v1/statuses/${status.id}`],
      ["PUT", `/api/v1/statuses/${status.id}`, { status: "not yours" }],
      ["POST", `/api/v1/statuses/${status.id}/pin`, undefined, 422],
      ["GET", `/api/v1/lists/${list.id}`],
      ["PUT", `/api/v1/lists/${list.id}`, { title: "not yours" }],
      ["DELETE", `/api/v1/lists/${list.id}`],
      ["GET", `/api/v1/lists/${list.id}/accounts`],
      ["GET", `/api/v1/filters/${filter.id}`],
      ["PUT", `/api/v1/filters/${filter.id}`, { phrase: "not yours", context: ["home"] }],
      ["DELETE", `/api/v1/filters/${filter.id}`],
      ["GET", `/api/v1/scheduled_statuses/${scheduled.id}`],
      ["DELETE", `/api/v1/scheduled_statuses/${scheduled.id}`],
      ["GET", `/api/v1/ext/chats/${chat.id}`],
      ["GET", `/api/v1/ext/chats/${chat.id}/messages`],
      ["POST", `/api/v1/ext/chats/${chat.id}/messages`, { content: "not yours" }, 400],
      ["PUT", `/api/v1/media/${media.id}`, { description: "not yours" }],
      ["GET", `/api/v1/media/${media.id}`],
      ["PATCH", `/api/v1/ext/bookmark_folders/${folder.id}`, { name: "not yours" }],
      ["DELETE", `/api/v1/ext/bookmark_folders/${folder.id}`],
    ];
    const wrong: string[] = [];
    for (const [method, path, json, documented] of attempts) {
      const res = await as("other", path, { method, ...(json ? { json } : {}) });
      if (res.status !== 403 && res.status !== 404 && res.status !== documented) wrong.push(`${method} ${path}: ${res.status} ${(await res.text()).slice(0, 100)}`);
    }
    expect(wrong).toEqual([]);

    // nothing changed
    expect((await body(await as("owner", `/api/v1/statuses/${status.id}`))).content).toContain("mine");
    expect((await body(await as("owner", `/api/v1/statuses/${status.id}`))).pinned).toBe(false);
    expect((await body(await as("owner", `/api/v1/lists/${list.id}`))).title).toBe("mine");
    expect((await body(await as("owner", `/api/v1/filters/${filter.id}`))).phrase).toBe("mine");
    expect((await as("owner", `/api/v1/scheduled_statuses/${scheduled.id}`)).status).toBe(200);
    expect(await body(await as("owner", `/api/v1/ext/chats/${chat.id}/messages`))).toEqual([]);
    expect((await body(await as("owner", `/api/v1/media/${media.id}`))).description ?? null).toBe(null);
    expect((await body(await as("owner", "/api/v1/ext/bookmark_folders"))).map((f: { name: string }) => f.name)).toEqual(["mine"]);
  });
});
