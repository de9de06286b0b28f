// Admin API: instance documents (upload, public page, default back after delete) and frontends
// (install from a zip file or a build URL through the guarded fetcher; zip-slip refused).
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { zipSync, strToU8 } from "fflate";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { suiteKinds } from "../support/databases.ts";
import { cast } from "../support/actors.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

vi.setConfig({ testTimeout: 30_000, hookTimeout: 120_000 });

const auth = (token: string) => ({ authorization: `Bearer ${token}` });

/** A local fixture standing in for a remote build server. */
async function buildServer(zip: Uint8Array) {
  const server = http.createServer((req, res) => {
    if (req.url?.startsWith("/build/v1.2.zip")) res.writeHead(200, { "content-type": "application/zip" }).end(Buffer.from(zip));
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((r) => server.close(r)) };
}

const build = zipSync({ "dist/index.html": strToU8("<html>fe</html>"), "dist/static/app.js": strToU8("console.log(1)"), "README.md": strToU8("x") });
const slip = zipSync({ "dist/index.html": strToU8("ok"), "dist/../../../escaped.txt": strToU8("owned") });

describe.each(suiteKinds(import.meta.url))("admin documents and frontends on %s", (kind) => {
  for (const allowPrivate of [false, true]) {
    describe(allowPrivate ? "private fetches allowed" : "private fetches refused", () => {
      let server: TestServer;
      let fixture: Awaited<ReturnType<typeof buildServer>>;
      const token: Record<string, string> = {};

      beforeAll(async () => {
        server = await startTestServer(kind, allowPrivate ? { ALLOW_PRIVATE_FETCH: "true" } : {});
        fixture = await buildServer(build);
        Object.assign(token, (await cast(server, { ada: { admin: true }, mo: { moderator: true }, joe: {} })).token);
      });
      afterAll(async () => {
        await fixture?.close();
        await server?.close();
      });

      const install = (body: Record<string, unknown>, who = "ada") => server.fetch("/api/v1/ext/admin/frontends/install", { json: body, headers: auth(token[who]) });

      if (!allowPrivate) {
        test("instance documents: default, upload served publicly under both prefixes, delete restores the default", async () => {
          const before = await server.fetch("/instance/panel.html");
          expect(before.status).toBe(200);
          const defaultPanel = await before.text();
          expect(defaultPanel).toContain("<p>");

          const form = new FormData();
          form.append("file", new Blob(["<p>Our own panel</p>"], { type: "text/html" }), "panel.html");
          const put = await server.fetch("/api/ext/admin/instance_document/instance-panel", { method: "PATCH", body: form, headers: auth(token.ada) });
          expect(put.status).toBe(200);
          expect(await put.json()).toEqual({ url: "http://localhost:4000/instance/panel.html" });
          expect(fs.readFileSync(path.join(server.dataDir, "static/instance/panel.html"), "utf8")).toBe("<p>Our own panel</p>");
          expect(await (await server.fetch("/instance/panel.html")).text()).toBe("<p>Our own panel</p>");
          for (const prefix of ["/api/v1/ext/admin", "/api/ext/admin"]) {
            const shown = await server.fetch(`${prefix}/instance_document/instance-panel`, { headers: auth(token.ada) });
            expect(shown.headers.get("content-type")).toMatch(/text\/html/);
            expect(await shown.text()).toBe("<p>Our own panel</p>");
          }

          const del = await server.fetch("/api/v1/ext/admin/instance_document/instance-panel", { method: "DELETE", headers: auth(token.ada) });
          expect(await del.json()).toEqual({ url: "http://localhost:4000/instance/panel.html" });
          expect(await (await server.fetch("/instance/panel.html")).text()).toBe(defaultPanel);
          expect((await server.fetch("/static/terms-of-service.html")).status).toBe(200);
        });

        test("instance documents: unknown name 404, missing file 400, staff and users refused", async () => {
          const unknown = await server.fetch("/api/v1/ext/admin/instance_document/nope", { headers: auth(token.ada) });
          expect([unknown.status, await unknown.json()]).toEqual([404, { error: "Not found" }]);
          const empty = await server.fetch("/api/v1/ext/admin/instance_document/terms-of-service", { method: "PATCH", body: new FormData(), headers: auth(token.ada) });
          expect(empty.status).toBe(400);
          for (const [who, error] of [["mo", "User is not an admin."], ["joe", "User is not an admin."]]) {
            const res = await server.fetch("/api/v1/ext/admin/instance_document/instance-panel", { headers: auth(token[who]) });
            expect([res.status, await res.json()]).toEqual([403, { error }]);
          }
          const anon = await server.fetch("/api/v1/ext/admin/instance_document/instance-panel");
          expect([anon.status, await anon.json()]).toEqual([403, { error: "Invalid credentials." }]);
        });

        test("frontends: listed with installed flags; install from a zip file on the server", async () => {
          const list = await (await server.fetch("/api/v1/ext/admin/frontends", { headers: auth(token.ada) })).json();
          expect(list.map((f: any) => f.name)).toContain("pleroma-fe");
          expect(list.every((f: any) => f.installed === false)).toBe(true);

          const zipFile = path.join(server.dataDir, "fe.zip");
          fs.writeFileSync(zipFile, build);
          const res = await install({ name: "pleroma-fe", ref: "v1.0", file: zipFile });
          expect(res.status).toBe(200);
          const fe = (await res.json()).find((f: any) => f.name === "pleroma-fe");
          expect(fe).toMatchObject({ installed: false, installed_refs: ["v1.0"], ref: "develop" });
          const dir = path.join(server.dataDir, "frontends/pleroma-fe/v1.0");
          expect(fs.readFileSync(path.join(dir, "index.html"), "utf8")).toBe("<html>fe</html>");
          expect(fs.existsSync(path.join(dir, "static/app.js"))).toBe(true);
          expect(fs.existsSync(path.join(dir, "README.md"))).toBe(false);

          const again = await install({ name: "pleroma-fe", file: zipFile });
          expect((await again.json()).find((f: any) => f.name === "pleroma-fe")).toMatchObject({ installed: true, installed_refs: ["develop", "v1.0"] });
        });

        test("frontends: zip-slip refused and nothing written; missing file; bad names; moderator refused", async () => {
          const zipFile = path.join(server.dataDir, "slip.zip");
          fs.writeFileSync(zipFile, slip);
          const res = await install({ name: "evil-fe", ref: "x", file: zipFile });
          expect(res.status).toBe(400);
          expect((await res.json()).error).toMatch(/^Could not install frontend: .*outside/);
          expect(fs.existsSync(path.join(server.dataDir, "frontends/evil-fe/x"))).toBe(false);
          expect(fs.existsSync(path.join(server.dataDir, "escaped.txt"))).toBe(false);
          expect(fs.existsSync(path.join(server.dataDir, "frontends/escaped.txt"))).toBe(false);

          const missing = await install({ name: "pleroma-fe", file: "/nonexistent/fe.zip" });
          expect([missing.status, (await missing.json()).error]).toEqual([400, "Could not install frontend: cannot read /nonexistent/fe.zip"]);
          const traversal = await install({ name: "../up", ref: "x", file: zipFile });
          expect(traversal.status).toBe(400);
          const mod = await install({ name: "pleroma-fe", file: zipFile }, "mo");
          expect([mod.status, await mod.json()]).toEqual([403, { error: "User is not an admin." }]);
        });

        test("frontends: a build URL on a private address is refused by the guarded fetcher", async () => {
          const res = await install({ name: "fedi-fe", ref: "v1.2", build_url: `${fixture.url}/build/\${ref}.zip` });
          expect(res.status).toBe(400);
          expect((await res.json()).error).toMatch(/private or local address/);
          expect(fs.existsSync(path.join(server.dataDir, "frontends/fedi-fe"))).toBe(false);
        });
      } else {
        test("frontends: install from a build URL (with ${ref}) when private fetches are allowed", async () => {
          const res = await install({ name: "fedi-fe", ref: "v1.2", build_url: `${fixture.url}/build/\${ref}.zip` });
          expect(res.status).toBe(200);
          expect((await res.json()).find((f: any) => f.name === "fedi-fe")).toMatchObject({ installed_refs: ["v1.2"] });
          expect(fs.readFileSync(path.join(server.dataDir, "frontends/fedi-fe/v1.2/index.html"), "utf8")).toBe("<html>fe</html>");
          const notFound = await install({ name: "fedi-fe", ref: "v9", build_url: `${fixture.url}/build/\${ref}.zip` });
          expect([notFound.status, (await notFound.json()).error]).toEqual([400, expect.stringMatching(/answered 404/)]);
        });
      }
    });
  }
});
