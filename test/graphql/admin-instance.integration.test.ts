// Admin GraphQL for instance documents, frontends and user backups: the REST operations, admin-only,
// and the admin token accepted.
import fs from "node:fs";
import path from "node:path";
import { strToU8, zipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { cast, type Cast } from "../support/actors.ts";
import { suiteKinds } from "../support/databases.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

vi.setConfig({ testTimeout: 30_000, hookTimeout: 120_000 });

describe.each(suiteKinds(import.meta.url))("GraphQL admin documents, frontends, backups on %s", (kind) => {
  let server: TestServer;
  let token: Cast["token"];
  const gql = (query: string, variables: Record<string, unknown> = {}, headers: Record<string, string> = { authorization: `Bearer ${token.ada}` }) =>
    server.fetch("/graphql", { json: { query, variables }, headers }).then((r) => r.json());

  beforeAll(async () => {
    server = await startTestServer(kind, { ADMIN_TOKEN: "secret-admin-token" });
    ({ token } = await cast(server, { ada: { admin: true }, mo: { moderator: true } }));
    await server.createUser("bob");
  });
  afterAll(() => server?.close());

  test("documents: update, read, delete back to the default", async () => {
    const url = await gql('mutation { updateInstanceDocument(name: "terms-of-service", html: "<p>Be kind</p>") }');
    expect(url.data.updateInstanceDocument).toBe("http://localhost:4000/static/terms-of-service.html");
    expect(await (await server.fetch("/static/terms-of-service.html")).text()).toBe("<p>Be kind</p>");
    expect((await gql('{ instanceDocument(name: "terms-of-service") }')).data.instanceDocument).toBe("<p>Be kind</p>");
    await gql('mutation { deleteInstanceDocument(name: "terms-of-service") }');
    expect((await gql('{ instanceDocument(name: "terms-of-service") }')).data.instanceDocument).not.toBe("<p>Be kind</p>");
    const unknown = await gql('{ instanceDocument(name: "nope") }');
    expect(unknown.errors[0].message).toBe("Not found");
  });

  test("frontends: install from a zip and list; moderators refused; the admin token accepted", async () => {
    const zip = path.join(server.dataDir, "fe.zip");
    fs.writeFileSync(zip, zipSync({ "dist/index.html": strToU8("<html></html>") }));
    const installed = await gql("mutation($f: String!) { installFrontend(name: \"admin-fe\", ref: \"v2\", file: $f) { name installedRefs } }", { f: zip });
    expect(installed.data.installFrontend).toContainEqual({ name: "admin-fe", installedRefs: ["v2"] });
    const viaToken = await gql("{ frontends { name installed } }", {}, { "x-admin-token": "secret-admin-token" });
    expect(viaToken.data.frontends.map((f: any) => f.name)).toContain("admin-fe");
    const mod = await gql("{ frontends { name } }", {}, { authorization: `Bearer ${token.mo}` });
    expect(mod.data).toBeNull();
    expect(mod.errors[0].message).toMatch(/Not authorized/);
  });

  test("backups: the admin asks for a user's backup (logged)", async () => {
    const res = await gql('mutation { requestUserBackup(nickname: "bob") }');
    expect(res.data.requestUserBackup).toBe(true);
    expect(await server.services.db.backup.count()).toBe(1);
    expect((await server.services.db.moderationLogEntry.findFirst({ where: { action: "create_backup" } }))?.message).toBe("@ada requested account backup for @bob");
  });
});
