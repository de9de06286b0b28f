// GraphQL parity (issue 18, criterion 5) for the viewer's client settings: the mascot, the synced
// frontend settings profiles and the registered apps answer what REST answers, and changes land in the rows.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { suiteKinds } from "../support/databases.ts";
import { passwordToken, startTestServer, type TestServer } from "../support/server.ts";

describe.each(suiteKinds(import.meta.url))("GraphQL mascot, frontend profiles and own apps on %s", (kind) => {
  let server: TestServer;
  let ann: string;
  let annId: string;
  // the family word of the frontend settings routes is set as that family sets it up
  const ns = "pleroma";
  const family = "akkoma";
  const ok = async (query: string, variables: Record<string, unknown> = {}) => {
    const r = await server.fetch("/graphql", { json: { query, variables }, headers: { authorization: `Bearer ${ann}` } });
    const body = await r.json();
    expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
    return body.data;
  };
  const rest = async (method: string, path: string, json?: unknown) => {
    const r = await server.fetch(path, { method, headers: { authorization: `Bearer ${ann}` }, ...(json !== undefined ? { json } : {}) });
    expect(r.status, `${method} ${path}`).toBe(200);
    return r.json();
  };

  beforeAll(async () => {
    server = await startTestServer(kind, { API_NAMESPACE: ns, API_FAMILY: family });
    annId = (await server.createUser("ann")).id;
    ann = (await passwordToken(server, "ann")).access_token;
  });
  afterAll(() => server?.close());

  test("the mascot reads as REST's and an upload replaces it", async () => {
    const before = await rest("GET", `/api/v1/${ns}/mascot`);
    expect((await ok("{ mascot { id url type mimeType } }")).mascot).toEqual({ id: before.id, url: before.url, type: before.type, mimeType: before[ns].mime_type });

    const png = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");
    const form = new FormData();
    form.set("operations", JSON.stringify({ query: "mutation($f: File!) { updateMascot(file: $f) { id url mimeType } }", variables: { f: null } }));
    form.set("map", JSON.stringify({ 0: ["variables.f"] }));
    form.set("0", new Blob([png], { type: "image/png" }), "dot.png");
    const r = await server.fetch("/graphql", { method: "POST", body: form, headers: { authorization: `Bearer ${ann}`, "graphql-require-preflight": "1" } });
    const up = await r.json();
    expect(up.errors, JSON.stringify(up.errors)).toBeUndefined();
    expect(up.data.updateMascot.mimeType).toBe("image/png");
    const after = await rest("GET", `/api/v1/${ns}/mascot`);
    expect(after.id).toBe(up.data.updateMascot.id);
    expect(after.id).not.toBe(before.id);
    expect(((await server.services.db.account.findUniqueOrThrow({ where: { id: annId } })).mascot as { id: string }).id).toBe(after.id);
  });

  test("frontend profiles saved over GraphQL read back over REST; deleting removes the row", async () => {
    const saved = await ok('mutation { saveFrontendProfile(frontendName: "fe", profileName: "default", settingsJson: "{\\"theme\\":\\"dark\\"}", version: 1) { name version settingsJson } }');
    expect(saved.saveFrontendProfile).toEqual({ name: "default", version: 1, settingsJson: '{"theme":"dark"}' });
    expect(await rest("GET", `/api/v1/${family}/frontend_settings/fe`)).toEqual([{ name: "default", version: 1 }]);
    expect(await rest("GET", `/api/v1/${family}/frontend_settings/fe/default`)).toEqual({ theme: "dark" });
    const q = await ok('{ frontendProfiles(frontendName: "fe") { name version } frontendProfile(frontendName: "fe", profileName: "default") { settingsJson } }');
    expect(q.frontendProfiles).toEqual([{ name: "default", version: 1 }]);
    expect(JSON.parse(q.frontendProfile.settingsJson)).toEqual({ theme: "dark" });
    expect((await ok('mutation { deleteFrontendProfile(frontendName: "fe", profileName: "default") }')).deleteFrontendProfile).toBe(true);
    expect(await server.services.db.frontendSettingsProfile.count({ where: { accountId: annId } })).toBe(0);
  });

  test("ownApps lists the apps REST lists", async () => {
    await rest("POST", "/api/v1/apps", { client_name: "my app", redirect_uris: "urn:ietf:wg:oauth:2.0:oob", scopes: "read" });
    const apps = (await ok("{ ownApps { id name clientId } }")).ownApps;
    const restApps = await rest("GET", `/api/v1/${ns}/apps`);
    expect(apps.map((a: { name: string; clientId: string }) => [a.name, a.clientId])).toEqual(restApps.map((a: { name: string; client_id: string }) => [a.name, a.client_id]));
    expect(apps.map((a: { name: string }) => a.name)).toContain("my app");
  });
});
