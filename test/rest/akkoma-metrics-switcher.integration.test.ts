// The later family's Prometheus scrape and frontend switcher, under its own set-up (API_NAMESPACE=pleroma
// API_FAMILY=akkoma): `/api/v1/akkoma/metrics` (admins, `admin:metrics`), the preferred-frontend API,
// the `/akkoma/frontend` page with its CSRF-protected form, and `/` honouring the chosen frontend.
import fs from "node:fs";
import path from "node:path";
import { strToU8, zipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { admin, user } from "../support/actors.ts";
import { passwordToken, startTestServer, type TestServer } from "../support/server.ts";

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

const auth = (token: string) => ({ authorization: `Bearer ${token}` });

/** A parsed exposition: `name{labels}` → value; every line must be a comment or a well-formed sample. */
function parseExposition(text: string): Map<string, number> {
  const samples = new Map<string, number>();
  const types = new Map<string, string>();
  for (const line of text.split("\n")) {
    if (line === "") continue;
    const type = /^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge)$/.exec(line);
    if (type) types.set(type[1]!, type[2]!);
    if (line.startsWith("#")) {
      expect(line).toMatch(/^# (HELP|TYPE) [a-zA-Z_:][a-zA-Z0-9_:]* .+$/);
      continue;
    }
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[a-z_]+="[^"]*"(?:,[a-z_]+="[^"]*")*\})? (-?[0-9.e+]+)$/.exec(line);
    expect(m, `malformed sample line: ${line}`).not.toBeNull();
    expect(types.has(m![1]!), `sample before its # TYPE: ${line}`).toBe(true);
    samples.set(m![1]! + (m![2] ?? ""), Number(m![3]));
  }
  return samples;
}

describe("the later family's metrics and frontend switcher (API_FAMILY=akkoma)", () => {
  let server: TestServer;
  const token: Record<string, string> = {};
  const setting = async (group: string, key: string, value: unknown) => {
    await server.services.db.configEntry.upsert({ where: { group_key: { group, key } }, create: { group, key, value: value as any }, update: { value: value as any } });
    await server.services.config.reload();
  };
  const install = async (name: string, ref: string, title: string) => {
    const zip = path.join(server.dataDir, `${name}-${ref}.zip`);
    fs.writeFileSync(zip, zipSync({ "dist/index.html": strToU8(`<!doctype html><title>${title}</title>`), "dist/static/app.js": strToU8(`// ${title}`) }));
    const res = await server.fetch("/api/v1/pleroma/admin/frontends/install", { json: { name, ref, file: zip }, headers: auth(token.ada!) });
    expect(res.status).toBe(200);
  };
  const graphql = async (query: string, bearer?: string) => {
    const res = await server.fetch("/graphql", { json: { query }, headers: bearer ? auth(bearer) : {} });
    return res.json();
  };
  const cookieOf = (res: Response, name: string) => res.headers.getSetCookie().find((c) => c.startsWith(`${name}=`));

  beforeAll(async () => {
    server = await startTestServer("pglite", { API_NAMESPACE: "pleroma", API_FAMILY: "akkoma", CONFIGURABLE_FROM_DATABASE: "true" });
    token.ada = (await admin(server, "ada", "read write admin")).token;
    token.joe = (await user(server, "joe", "read write")).token;
    token.adaRead = (await passwordToken(server, "ada", "read admin:read")).access_token;
    token.adaMetrics = (await passwordToken(server, "ada", "admin:metrics")).access_token;
    token.joeMetrics = (await passwordToken(server, "joe", "admin:metrics")).access_token;
  });
  afterAll(() => server?.close());

  describe("GET /api/v1/akkoma/metrics", () => {
    const scrape = () => server.fetch("/api/v1/akkoma/metrics", { headers: auth(token.adaMetrics!) });

    test("only admins holding admin:metrics may scrape", async () => {
      expect((await server.fetch("/api/v1/akkoma/metrics")).status).toBe(403);
      expect((await server.fetch("/api/v1/akkoma/metrics", { headers: auth(token.joe!) })).status).toBe(403);
      // the scope alone is not enough: admins only (the family never grants admin scopes to others)
      expect(token.joeMetrics).toEqual(expect.any(String));
      expect((await server.fetch("/api/v1/akkoma/metrics", { headers: auth(token.joeMetrics!) })).status).toBe(403);
      expect((await server.fetch("/api/v1/akkoma/metrics", { headers: auth(token.adaRead!) })).status).toBe(403);
      // the namespace word does not serve it: it is the later family's route
      expect((await server.fetch("/api/v1/pleroma/metrics", { headers: auth(token.adaMetrics!) })).status).toBe(404);
      const res = await scrape();
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
    });

    test("real figures: users, statuses, domains, the job queue, responses by class, process memory and CPU", async () => {
      const before = parseExposition(await (await scrape()).text());
      expect(before.get("pleroma_local_users_total")).toBe(2);
      expect(before.get("pleroma_remote_users_total")).toBe(0);
      expect(before.get("pleroma_domains_total")).toBe(0);
      for (const state of ["pending", "running", "done", "failed"]) expect(before.has(`job_queue_jobs{state="${state}"}`)).toBe(true);
      expect(before.get('http_responses_total{status_class="2xx"}')).toBeGreaterThan(0);
      expect(before.get("process_resident_memory_bytes")).toBeGreaterThan(1_000_000);
      expect(before.get("nodejs_heap_used_bytes")).toBeGreaterThan(0);
      expect(before.get("process_cpu_seconds_total")).toBeGreaterThan(0);

      // a post, a remote account, a queued job for later and a refused request move the figures
      expect((await server.fetch("/api/v1/statuses", { json: { status: "counted" }, headers: auth(token.joe!) })).status).toBe(200);
      await server.services.db.account.create({ data: { id: "remote-metrics-1", nickname: "rem@far.example", domain: "far.example", local: false, apId: "https://far.example/users/rem" } });
      await server.services.jobs.enqueue("metrics-test-job", {}, { runAt: new Date(Date.now() + 3_600_000) });
      expect((await server.fetch("/api/v1/akkoma/metrics")).status).toBe(403);
      const after = parseExposition(await (await scrape()).text());
      expect(after.get("pleroma_local_statuses_total")).toBe(before.get("pleroma_local_statuses_total")! + 1);
      expect(after.get("pleroma_remote_users_total")).toBe(1);
      expect(after.get("pleroma_domains_total")).toBe(1);
      expect(after.get('job_queue_jobs{state="pending"}')).toBe(before.get('job_queue_jobs{state="pending"}')! + 1);
      expect(after.get('http_responses_total{status_class="4xx"}')).toBeGreaterThanOrEqual(before.get('http_responses_total{status_class="4xx"}')! + 1);
    });

    test("a scrape costs the same few statements whatever the instance's size", async () => {
      const statements = async () => (await server.countQueries(async () => (await scrape()).text())).queries;
      const small = await statements();
      for (const nick of ["many1", "many2", "many3"]) await server.createUser(nick);
      for (let i = 0; i < 3; i++) await server.fetch("/api/v1/statuses", { json: { status: `more ${i}` }, headers: auth(token.joe!) });
      expect(await statements()).toBe(small);
      expect(small).toBeLessThanOrEqual(8);
    });

    test("GraphQL's serverMetrics gives the same database figures, to admins with admin:metrics only", async () => {
      const scraped = parseExposition(await (await scrape()).text());
      const q = "{ serverMetrics { localUsers remoteUsers localStatuses domains jobs { state count } } }";
      const { data } = await graphql(q, token.adaMetrics);
      expect(data.serverMetrics).toMatchObject({
        localUsers: scraped.get("pleroma_local_users_total"),
        remoteUsers: scraped.get("pleroma_remote_users_total"),
        localStatuses: scraped.get("pleroma_local_statuses_total"),
        domains: scraped.get("pleroma_domains_total"),
      });
      expect(data.serverMetrics.jobs).toContainEqual({ state: "pending", count: scraped.get('job_queue_jobs{state="pending"}') });
      for (const bearer of [token.joe, token.adaRead]) expect((await graphql(q, bearer)).errors?.length).toBeGreaterThan(0);
    });

    test("instance.export_prometheus_metrics off answers 404", async () => {
      await setting("instance", "export_prometheus_metrics", false);
      try {
        expect(server.services.config.get("instance", "export_prometheus_metrics")).toBe(false);
        expect((await scrape()).status).toBe(404);
      } finally {
        await server.services.db.configEntry.deleteMany({ where: { key: "export_prometheus_metrics" } });
        await server.services.config.reload();
      }
      expect((await scrape()).status).toBe(200);
    });
  });

  describe("the frontend switcher", () => {
    beforeAll(async () => {
      await install("pleroma-fe", "v1", "pleroma fe");
      await install("akkoma-fe", "stable", "akkoma fe");
      await install("admin-fe", "stable", "admin fe");
      await setting("frontends", "primary", { name: "pleroma-fe", ref: "v1" });
      await setting("frontends", "admin", { name: "admin-fe", ref: "stable" });
    });

    const root = async (cookie?: string) => (await server.fetch("/", { headers: { accept: "text/html", ...(cookie ? { cookie } : {}) } })).text();

    test("available lists the installed frontends but the admin one, as name/ref", async () => {
      const res = await server.fetch("/api/v1/akkoma/preferred_frontend/available");
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual(["akkoma-fe/stable", "pleroma-fe/v1"]);
      expect((await graphql("{ availableFrontends }")).data).toEqual({ availableFrontends: ["akkoma-fe/stable", "pleroma-fe/v1"] });
    });

    test("PUT preferred_frontend sets the cookie for an installed frontend, 400 otherwise; / follows the cookie", async () => {
      const unknown = await server.fetch("/api/v1/akkoma/preferred_frontend", { method: "PUT", json: { frontend_name: "soapbox/main" } });
      expect(unknown.status).toBe(400);
      expect(cookieOf(unknown, "preferred_frontend")).toBeUndefined();
      expect((await server.fetch("/api/v1/akkoma/preferred_frontend", { method: "PUT", json: { frontend_name: "admin-fe/stable" } })).status).toBe(400);

      const res = await server.fetch("/api/v1/akkoma/preferred_frontend", { method: "PUT", json: { frontend_name: "akkoma-fe/stable" } });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ frontend_name: "akkoma-fe/stable" });
      const cookie = cookieOf(res, "preferred_frontend")!;
      expect(cookie).toMatch(/^preferred_frontend=akkoma-fe%2Fstable; Max-Age=\d+; Path=\/; HttpOnly; SameSite=Lax$/);
      const pair = cookie.split(";")[0]!;

      expect(await root()).toContain("<title>pleroma fe</title>");
      expect(await root(pair)).toContain("<title>akkoma fe</title>");
      const asset = await server.fetch("/static/app.js", { headers: { cookie: pair } });
      expect(await asset.text()).toBe("// akkoma fe");
      expect(asset.headers.get("vary")).toMatch(/Cookie/);
      // a cookie naming something not installed (or the admin frontend, or a path) falls back to the primary
      for (const other of ["soapbox/main", "admin-fe/stable", "..%2F..%2Fetc", "akkoma-fe"]) expect(await root(`preferred_frontend=${other}`)).toContain("<title>pleroma fe</title>");
    });

    test("the /akkoma/frontend page lists them; its form needs the CSRF token, sets the cookie and redirects to /", async () => {
      const page = await server.fetch("/akkoma/frontend", { headers: { accept: "text/html", cookie: "preferred_frontend=pleroma-fe%2Fv1" } });
      expect(page.status).toBe(200);
      expect(page.headers.get("content-type")).toMatch(/^text\/html/);
      const html = await page.text();
      expect(html).toContain('<option value="akkoma-fe/stable">akkoma-fe/stable</option>');
      expect(html).toContain('<option value="pleroma-fe/v1" selected>pleroma-fe/v1</option>');
      expect(html).not.toContain("admin-fe");
      const formToken = /name="_csrf_token" value="([^"]+)"/.exec(html)![1]!;
      const csrfCookie = cookieOf(page, "form_csrf")!;
      expect(csrfCookie).toContain(`form_csrf=${formToken};`);
      expect(csrfCookie).toMatch(/HttpOnly; SameSite=Strict/);
      const cookies = csrfCookie.split(";")[0]!;

      // without the token, with a wrong one, without the cookie, or from another origin: refused
      const post = (form: Record<string, string>, headers: Record<string, string> = {}) => server.fetch("/akkoma/frontend", { form, headers });
      for (const res of [
        await post({ frontend: "akkoma-fe/stable" }, { cookie: cookies }),
        await post({ frontend: "akkoma-fe/stable", _csrf_token: "x".repeat(32) }, { cookie: cookies }),
        await post({ frontend: "akkoma-fe/stable", _csrf_token: formToken }),
        await post({ frontend: "akkoma-fe/stable", _csrf_token: formToken }, { cookie: cookies, origin: "https://evil.example" }),
      ]) {
        expect(res.status).toBe(403);
        expect(cookieOf(res, "preferred_frontend")).toBeUndefined();
      }
      const unknown = await post({ frontend: "soapbox/main", _csrf_token: formToken }, { cookie: cookies });
      expect(unknown.status).toBe(400);
      expect(await unknown.text()).toContain("soapbox/main");

      const ok = await post({ frontend: "akkoma-fe/stable", _csrf_token: formToken }, { cookie: cookies, origin: server.url });
      expect(ok.status).toBe(303);
      expect(ok.headers.get("location")).toBe("/");
      const chosen = cookieOf(ok, "preferred_frontend")!;
      expect(chosen).toMatch(/^preferred_frontend=akkoma-fe%2Fstable;/);
      expect(await root(chosen.split(";")[0])).toContain("<title>akkoma fe</title>");
    });
  });
});
