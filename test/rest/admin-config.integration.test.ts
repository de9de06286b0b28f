// Admin API: runtime configuration (GET/POST /config, /config/descriptions, /need_reboot, /restart)
// over REST and GraphQL: the family's conversion and merge rules round-trip, changed settings take
// effect at once, need_reboot, the 400 without CONFIGURABLE_FROM_DATABASE, and admin-only access.
import { afterAll, beforeAll, beforeEach, describe, expect, test, vi } from "vitest";
import { registeredSettings } from "../../src/config/registry.ts";
import { suiteKinds } from "../support/databases.ts";
import { cast } from "../support/actors.ts";
import { passwordToken, registerApp, startTestServer, type TestServer } from "../support/server.ts";

vi.setConfig({ testTimeout: 30_000, hookTimeout: 120_000 });

const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const PREFIXES = ["/api/v1/ext/admin", "/api/ext/admin"] as const;
const DISABLED = { error: "You must enable configurable_from_database in your config file." };
const kw = (...pairs: [string, unknown][]): any[] => pairs.map(([k, v]) => ({ tuple: [`:${k}`, v] }));

/** Every endpoint of the section, as [method, path, body]. */
const ENDPOINTS: [string, string, unknown?][] = [
  ["GET", "/config"],
  ["GET", "/config?only_db=true"],
  ["POST", "/config", { configs: [] }],
  ["GET", "/config/descriptions"],
  ["GET", "/need_reboot"],
  ["GET", "/restart"],
];

async function users(server: TestServer) {
  const { token } = await cast(server, { ada: { admin: true }, mo: { moderator: true }, joe: {} });
  token.adaNoAdminScope = (await passwordToken(server, "ada", "read write")).access_token;
  return token;
}

describe.each(suiteKinds(import.meta.url))("admin runtime configuration on %s", (kind) => {
  describe("with CONFIGURABLE_FROM_DATABASE", () => {
    let server: TestServer;
    let token: Record<string, string>;
    const call = (method: string, path: string, body?: unknown, who: string | null = "ada", prefix: string = PREFIXES[0]) =>
      server.fetch(prefix + path, { method, ...(body !== undefined ? { json: body } : {}), headers: who ? auth(token[who]!) : {} });
    const post = async (configs: unknown[], prefix: string = PREFIXES[0]) => {
      const res = await call("POST", "/config", { configs }, "ada", prefix);
      expect(res.status).toBe(200);
      return (await res.json()) as { configs: { group: string; key: string; value: unknown; db?: string[] }[]; need_reboot: boolean };
    };
    const getConfig = async (query = "", prefix: string = PREFIXES[0]) => {
      const res = await call("GET", `/config${query}`, undefined, "ada", prefix);
      expect(res.status).toBe(200);
      return (await res.json()) as { configs: { group: string; key: string; value: unknown; db?: string[] }[]; need_reboot: boolean };
    };
    const rows = () => server.services.db.configEntry.findMany({ orderBy: { id: "asc" } });

    beforeAll(async () => {
      server = await startTestServer(kind, { CONFIGURABLE_FROM_DATABASE: "true" });
      token = await users(server);
    });
    afterAll(() => server?.close());
    beforeEach(async () => {
      await server.services.db.configEntry.deleteMany({});
      await server.services.config.reload();
    });

    test("GET /config: only_db lists what is stored; without it the registry's defaults in the family's form, merged with it", async () => {
      for (const prefix of PREFIXES) expect(await getConfig("?only_db=true", prefix)).toEqual({ configs: [], need_reboot: false });

      const defaults = await getConfig();
      const instance = defaults.configs.find((c) => c.group === ":ext" && c.key === ":instance")!;
      expect(instance.db).toBeUndefined();
      expect(instance.value).toEqual(expect.arrayContaining([{ tuple: [":name", "ext"] }, { tuple: [":limit", 5000] }, { tuple: [":registrations_open", true] }]));
      expect(defaults.configs.find((c) => c.key === "Pleroma.Emails.Mailer")!.value).toEqual(expect.arrayContaining([{ tuple: [":adapter", "Swoosh.Adapters.Local"] }]));
      expect(defaults.configs.map((c) => c.key)).toEqual(expect.arrayContaining([":instance", "Pleroma.Emails.Mailer", ":http", "Pleroma.Captcha", "Pleroma.User.Backup"]));
      expect(await getConfig("", PREFIXES[1])).toEqual(defaults);

      await post([{ group: ":ext", key: ":instance", value: kw(["name", "Stored"]) }, { group: ":ext", key: ":unknown_key", value: ":x" }]);
      const merged = await getConfig();
      const stored = merged.configs.find((c) => c.key === ":instance")!;
      expect(stored.db).toEqual([":name"]);
      expect(stored.value).toEqual(expect.arrayContaining([{ tuple: [":name", "Stored"] }, { tuple: [":limit", 5000] }]));
      expect((stored.value as unknown[]).length).toBe((instance.value as unknown[]).length);
      expect(merged.configs.at(-1)).toEqual({ group: ":ext", key: ":unknown_key", value: ":x", db: [":unknown_key"] });
      expect((await getConfig("?only_db=true")).configs).toEqual([
        { group: ":ext", key: ":instance", value: kw(["name", "Stored"]), db: [":name"] },
        { group: ":ext", key: ":unknown_key", value: ":x", db: [":unknown_key"] },
      ]);
    });

    test("POST /config stores modules, atoms, tuples, keyword lists and maps, and answers them back as posted (both prefixes)", async () => {
      const configs = [
        { group: ":ext", key: ":key1", value: "value1" },
        { group: ":ueberauth", key: "Ueberauth", value: [{ tuple: [":consumer_secret", "aaaa"] }] },
        { group: ":ext", key: ":key2", value: { ":nested_1": "nested_value1", ":nested_2": [{ ":nested_22": "nested_value222" }, { ":nested_33": { ":nested_44": "nested_444" } }] } },
        { group: ":ext", key: ":key3", value: [{ nested_3: ":nested_3", nested_33: "nested_33" }, { nested_4: true }] },
        { group: ":idna", key: ":key5", value: { tuple: ["string", "Pleroma.Captcha.NotReal", []] } },
        { group: ":ext", key: "Pleroma.Upload", value: kw(["uploader", "Pleroma.Uploaders.Local"], ["filters", ["Pleroma.Upload.Filter.Dedupe"]], ["proxy_opts", kw(["redirect_on_failure", false])]) },
      ];
      const expected = configs.map((c) => ({ ...c, db: c.key === "Ueberauth" ? [":consumer_secret"] : c.key === "Pleroma.Upload" ? [":uploader", ":filters", ":proxy_opts"] : [c.key] }));
      for (const prefix of PREFIXES) {
        await server.services.db.configEntry.deleteMany({});
        expect(await post(configs, prefix)).toEqual({ configs: expected, need_reboot: false });
        expect((await getConfig("?only_db=true", prefix)).configs).toEqual(expected);
      }
      // stored as the family's JSON form of the term
      expect((await rows()).find((r) => r.key === ":key5")!.value).toEqual({ tuple: ["string", "Pleroma.Captcha.NotReal", []] });

      // the family's normalisation: strings are trimmed, so " :info " is the atom :info
      const trimmed = await post([{ group: ":quack", key: ":level", value: " :info " }]);
      expect(trimmed.configs).toEqual([{ group: ":quack", key: ":level", value: ":info", db: [":level"] }]);
    });

    test("rule 9: a group without keys is sent as one config object per key", async () => {
      const res = await post([
        { group: ":quack", key: ":level", value: ":info" },
        { group: ":quack", key: ":meta", value: [":none"] },
        { group: ":quack", key: ":webhook_url", value: "https://hooks.example.test/KEY" },
      ]);
      expect(res.configs).toEqual([
        { group: ":quack", key: ":level", value: ":info", db: [":level"] },
        { group: ":quack", key: ":meta", value: [":none"], db: [":meta"] },
        { group: ":quack", key: ":webhook_url", value: "https://hooks.example.test/KEY", db: [":webhook_url"] },
      ]);
    });

    test("keyword values merge; lists, whole-key and whole-subkey settings are replaced", async () => {
      await post([{ group: ":ext", key: ":key4", value: kw(["a", 1], ["nested", kw(["x", 1])]) }]);
      const merged = await post([{ group: ":ext", key: ":key4", value: kw(["nested", kw(["y", 2])], ["b", 2]) }]);
      expect(merged.configs).toEqual([{ group: ":ext", key: ":key4", value: kw(["a", 1], ["nested", kw(["x", 1], ["y", 2])], ["b", 2]), db: [":a", ":nested", ":b"] }]);

      await post([{ group: ":quack", key: ":meta", value: [":a", ":b"] }]);
      expect((await post([{ group: ":quack", key: ":meta", value: [":c"] }])).configs[0]!.value).toEqual([":c"]);

      for (const [group, key] of [[":cors_plug", ":headers"], [":logger", ":backends"], [":mime", ":types"], [":ext", ":ecto_repos"]]) {
        await post([{ group, key, value: kw(["a", 1]) }]);
        expect((await post([{ group, key, value: kw(["b", 2]) }])).configs[0]!.value).toEqual(kw(["b", 2]));
      }

      await post([{ group: ":ext", key: ":emoji", value: kw(["groups", kw(["Custom", "/emoji/*.png"])], ["shortcode_globs", ["/emoji/*.png"]]) }]);
      const emoji = await post([{ group: ":ext", key: ":emoji", value: kw(["groups", kw(["Other", "/other/*.png"])]) }]);
      expect(emoji.configs[0]!.value).toEqual(kw(["groups", kw(["Other", "/other/*.png"])], ["shortcode_globs", ["/emoji/*.png"]]));
      expect((await getConfig("?only_db=true")).configs.find((c) => c.key === ":emoji")!.value).toEqual(emoji.configs[0]!.value);
    });

    test("delete with subkeys removes only those keys; without subkeys, the whole setting; unknown ones are skipped", async () => {
      await post([{ group: ":ext", key: ":key6", value: kw(["a", 1], ["b", 2], ["c", 3]) }, { group: ":ext", key: ":key7", value: "x" }]);
      const partial = await post([{ group: ":ext", key: ":key6", delete: true, subkeys: [":b"] }]);
      expect(partial).toEqual({ configs: [{ group: ":ext", key: ":key6", value: kw(["a", 1], ["c", 3]), db: [":a", ":c"] }], need_reboot: false });

      const whole = await post([
        { group: ":ext", key: ":key7", delete: true },
        { group: ":ext", key: ":key6", delete: true, subkeys: [":a", ":c"] },
        { group: ":ext", key: ":never_stored", delete: true },
      ]);
      expect(whole).toEqual({ configs: [], need_reboot: false });
      expect(await rows()).toEqual([]);
    });

    test("a changed setting takes effect at once: instance name, max_toot_chars, registrations_open", async () => {
      const instance = async () => (await (await server.fetch("/api/v1/instance")).json()) as { title: string; max_toot_chars: number; registrations: boolean };
      await post([{ group: ":ext", key: ":instance", value: kw(["name", "Renamed"]) }]);
      expect((await instance()).title).toBe("Renamed");

      await post([{ group: ":ext", key: ":instance", value: kw(["limit", 10]) }]);
      expect(await instance()).toMatchObject({ title: "Renamed", max_toot_chars: 10 });
      const status = (text: string) => server.fetch("/api/v1/statuses", { json: { status: text }, headers: auth(token.joe!) });
      const long = await status("eleven char");
      expect(long.status).toBe(422);
      expect(await long.json()).toMatchObject({ error: "Validation failed: Text is too long (limit 10 characters)" });
      expect((await status("ten chars!")).status).toBe(200);

      const app = await registerApp(server, "read write follow push");
      const appToken = (await (await server.fetch("/oauth/token", { form: { grant_type: "client_credentials", client_id: app.client_id, client_secret: app.client_secret, scope: "read write" } })).json()).access_token;
      const register = (nickname: string) =>
        server.fetch("/api/v1/accounts", { json: { username: nickname, email: `${nickname}@example.test`, password: "a good password", agreement: true, locale: "en" }, headers: auth(appToken) });
      await post([{ group: ":ext", key: ":instance", value: kw(["registrations_open", false]) }]);
      expect((await instance()).registrations).toBe(false);
      const closed = await register("closedout");
      expect([closed.status, await closed.json()]).toEqual([403, { error: "Registrations are closed" }]);
      await post([{ group: ":ext", key: ":instance", value: kw(["registrations_open", true]) }]);
      expect((await register("openagain")).status).toBe(200);

      // the stored value holds every change, merged
      expect((await rows())[0]!.value).toEqual(kw(["name", "Renamed"], ["limit", 10], ["registrations_open", true]));
      // removing the setting brings the default back
      await post([{ group: ":ext", key: ":instance", delete: true, subkeys: [":name", ":limit"] }]);
      expect(await instance()).toMatchObject({ title: "ext", max_toot_chars: 5000 });
    });

    test("the mailer's and the frontends' family settings drive ours", async () => {
      await post([{ group: ":ext", key: "Pleroma.Emails.Mailer", value: kw(["adapter", "Swoosh.Adapters.SMTP"], ["relay", "smtp.example.test"], ["port", 2525], ["ssl", true], ["enabled", true]) }]);
      expect(server.services.config.group("mailer")).toMatchObject({ transport: "smtp", smtp: { host: "smtp.example.test", port: 2525, secure: true } });

      await post([{ group: ":ext", key: ":frontend_configurations", value: kw(["pleroma_fe", { ":theme": "redmond-xx", ":logoMask": false }]) }]);
      const fe = await (await server.fetch("/api/v1/ext/frontend_configurations")).json();
      expect(fe.pleroma_fe).toEqual({ theme: "redmond-xx", logoMask: false });
      expect(fe.masto_fe).toEqual({ showInstanceSpecificPanel: true });
    });

    test("a value that does not fit a known setting is refused and nothing is stored", async () => {
      const res = await call("POST", "/config", { configs: [{ group: ":ext", key: ":key8", value: "ok" }, { group: ":ext", key: ":instance", value: kw(["limit", "many"]) }] });
      expect(res.status).toBe(400);
      expect((await res.json()).error).toMatch(/:ext :instance :limit: expected "integer"/);
      expect(await rows()).toEqual([]);
      expect(server.services.config.get("instance", "limit")).toBe(5000);

      const missing = await call("POST", "/config", { configs: [{ group: ":ext", key: ":key8" }] });
      expect([missing.status, (await missing.json()).error]).toEqual([400, "Missing field: configs.0.value."]);
      const badTuple = await call("POST", "/config", { configs: [{ group: ":ext", key: ":key8", value: { tuple: 1 } }] });
      expect(badTuple.status).toBe(400);
      const reserved = await call("POST", "/config", { configs: [{ group: ":_internal", key: ":need_reboot", value: false }] });
      expect(reserved.status).toBe(400);
    });

    test("need_reboot: set by upload_limit (and whole restart-only keys), applied anyway, cleared by GET /restart", async () => {
      expect((await post([{ group: ":ext", key: ":instance", value: kw(["name", "No reboot"]) }])).need_reboot).toBe(false);
      const changed = await post([{ group: ":ext", key: ":instance", value: kw(["upload_limit", 1_000_000]) }]);
      expect(changed.need_reboot).toBe(true);
      for (const prefix of PREFIXES) expect(await (await call("GET", "/need_reboot", undefined, "ada", prefix)).json()).toEqual({ need_reboot: true });
      expect(await getConfig("?only_db=true")).toEqual({ configs: [{ group: ":ext", key: ":instance", value: kw(["name", "No reboot"], ["upload_limit", 1_000_000]), db: [":name", ":upload_limit"] }], need_reboot: true });
      expect(server.services.config.get("instance", "upload_limit")).toBe(1_000_000);
      // an unrelated change later leaves it set
      expect((await post([{ group: ":ext", key: ":instance", value: kw(["name", "Still"]) }])).need_reboot).toBe(true);

      for (const prefix of PREFIXES) {
        const restart = await call("GET", "/restart", undefined, "ada", prefix);
        expect([restart.status, await restart.json()]).toEqual([200, {}]);
        expect(await (await call("GET", "/need_reboot", undefined, "ada", prefix)).json()).toEqual({ need_reboot: false });
      }
      expect(server.services.config.get("instance", "upload_limit")).toBe(1_000_000);

      expect((await post([{ group: ":ext", key: ":chat", value: kw(["enabled", false]) }])).need_reboot).toBe(true);
      await call("GET", "/restart");
      expect((await post([{ group: ":ext", key: "Pleroma.Captcha", value: kw(["seconds_valid", 120]) }])).need_reboot).toBe(true);
      await call("GET", "/restart");
      expect((await post([{ group: ":ext", key: ":instance", delete: true, subkeys: [":upload_limit"] }])).need_reboot).toBe(true);
    });

    test("GET /config/descriptions describes every setting the server reads, the same under both prefixes", async () => {
      const [first, second] = await Promise.all(PREFIXES.map(async (prefix) => (await call("GET", "/config/descriptions", undefined, "ada", prefix)).json()));
      expect(second).toEqual(first);
      const described = first as { group: string; key: string; type: string; description: string; children: { key: string; type: unknown; children?: any[] }[] }[];
      for (const { setting } of registeredSettings()) {
        const entry = described.find((d) => d.group === ":ext" && d.key === setting.key)!;
        let children = entry.children;
        for (const part of setting.path.slice(0, -1)) children = children.find((c) => c.key === `:${part}`)!.children!;
        expect(children.find((c) => c.key === `:${setting.path.at(-1)}`)).toMatchObject({ type: setting.type, description: setting.description });
      }
      const instance = described.find((d) => d.key === ":instance")!;
      expect(instance).toMatchObject({ type: "group", description: "Instance-related settings" });
      expect(instance.children.find((c) => c.key === ":name")).toEqual({ key: ":name", label: "Name", type: "string", description: "Name of the instance", suggestions: ["Pleroma"] });
    });

    test("the service group is named after the namespace: :pleroma is its alias, stored as :ext; a row stored as :pleroma is the same setting", async () => {
      const aliased = await post([{ group: ":pleroma", key: ":instance", value: kw(["name", "Alias"]) }]);
      expect(aliased.configs).toEqual([{ group: ":ext", key: ":instance", value: kw(["name", "Alias"]), db: [":name"] }]);
      expect((await rows()).map((r) => r.group)).toEqual([":ext"]);
      expect(server.services.config.get("instance", "name")).toBe("Alias");
      expect((await getConfig()).configs.filter((c) => c.key === ":instance").map((c) => c.group)).toEqual([":ext"]);

      // a row written under the family's spelling (before this rule, or by hand) is updated in place
      await server.services.db.configEntry.deleteMany({});
      await server.services.db.configEntry.create({ data: { group: ":pleroma", key: ":instance", value: kw(["name", "Old"]) } });
      const merged = await post([{ group: ":ext", key: ":instance", value: kw(["limit", 77]) }]);
      expect(merged.configs).toEqual([{ group: ":pleroma", key: ":instance", value: kw(["name", "Old"], ["limit", 77]), db: [":name", ":limit"] }]);
      expect(await rows()).toHaveLength(1);
      expect(server.services.config.get("instance", "limit")).toBe(77);
    });

    test("a config_changed event on the bus makes the process reload (how every node applies a change)", async () => {
      await server.services.db.configEntry.create({ data: { group: ":ext", key: ":instance", value: kw(["name", "From another node"]) } });
      expect(server.services.config.get("instance", "name")).toBe("ext");
      server.services.bus.publish("config_changed", {});
      // the subscriber reloads asynchronously: wait for it (not a timing assertion)
      await vi.waitFor(() => expect(server.services.config.get("instance", "name")).toBe("From another node"), { timeout: 15_000 });
    });

    test("only admins: moderators, users, anonymous and tokens without an admin scope are refused", async () => {
      for (const prefix of PREFIXES) {
        for (const [method, path, body] of ENDPOINTS) {
          for (const who of ["mo", "joe"]) {
            const res = await call(method, path, body, who, prefix);
            expect([res.status, await res.json()]).toEqual([403, { error: "User is not an admin." }]);
          }
          const anon = await call(method, path, body, null, prefix);
          expect([anon.status, await anon.json()]).toEqual([403, { error: "Invalid credentials." }]);
          expect((await call(method, path, body, "adaNoAdminScope", prefix)).status).toBe(403);
        }
      }
      expect(await rows()).toEqual([]);
    });

    test("GraphQL: config, configDescriptions, needReboot, updateConfig and restart (admins only)", async () => {
      const gql = async (query: string, variables: Record<string, unknown> = {}, who = "ada") =>
        (await server.fetch("/graphql", { json: { query, variables }, headers: auth(token[who]!) })).json();
      const update = await gql("mutation($c: [ConfigChangeInput!]!) { updateConfig(configs: $c) { needReboot configs { group key valueJson db } } }", {
        c: [{ group: ":ext", key: ":instance", valueJson: JSON.stringify(kw(["name", "Via GraphQL"], ["upload_limit", 5])) }],
      });
      expect(update.errors).toBeUndefined();
      expect(update.data.updateConfig).toEqual({ needReboot: true, configs: [{ group: ":ext", key: ":instance", valueJson: JSON.stringify(kw(["name", "Via GraphQL"], ["upload_limit", 5])), db: [":name", ":upload_limit"] }] });
      expect(server.services.config.get("instance", "name")).toBe("Via GraphQL");

      const read = await gql("{ config(onlyDb: true) { needReboot configs { key valueJson } } needReboot configDescriptions { group key childrenJson } }");
      expect(read.errors).toBeUndefined();
      expect(read.data.config).toEqual({ needReboot: true, configs: [{ key: ":instance", valueJson: JSON.stringify(kw(["name", "Via GraphQL"], ["upload_limit", 5])) }] });
      expect(read.data.needReboot).toBe(true);
      expect(read.data.configDescriptions.map((d: { key: string }) => d.key)).toEqual(expect.arrayContaining([":instance", "Pleroma.Emails.Mailer"]));
      expect(JSON.parse(read.data.configDescriptions[0].childrenJson).length).toBeGreaterThan(0);

      const full = await gql("{ config { configs { key valueJson } } }");
      expect(JSON.parse(full.data.config.configs.find((c: { key: string }) => c.key === ":instance").valueJson)).toEqual(expect.arrayContaining([{ tuple: [":limit", 5000] }]));

      const deleted = await gql("mutation($c: [ConfigChangeInput!]!) { updateConfig(configs: $c) { configs { key } } }", { c: [{ group: ":ext", key: ":instance", delete: true, subkeys: [":name"] }] });
      expect(deleted.data.updateConfig.configs).toEqual([{ key: ":instance" }]);
      expect(server.services.config.get("instance", "name")).toBe("ext");

      expect((await gql("mutation { restart }")).data).toEqual({ restart: true });
      expect((await gql("{ needReboot }")).data).toEqual({ needReboot: false });

      for (const who of ["mo", "joe", "adaNoAdminScope"]) {
        const refused = await gql("{ needReboot config { needReboot } }", {}, who);
        expect(refused.data).toBeNull();
        expect(refused.errors.length).toBeGreaterThan(0);
        const mutation = await gql('mutation { updateConfig(configs: [{group: ":ext", key: ":x", valueJson: "1"}]) { needReboot } }', {}, who);
        expect(mutation.errors.length).toBeGreaterThan(0);
      }
      expect((await rows()).map((r) => r.key)).toEqual([":instance"]);
    });
  });

  describe("without CONFIGURABLE_FROM_DATABASE", () => {
    let server: TestServer;
    let token: Record<string, string>;

    beforeAll(async () => {
      server = await startTestServer(kind);
      token = await users(server);
    });
    afterAll(() => server?.close());

    test("every endpoint answers 400 with the family's message (after the admin check), under both prefixes", async () => {
      for (const prefix of PREFIXES) {
        for (const [method, path, body] of ENDPOINTS) {
          const res = await server.fetch(prefix + path, { method, ...(body !== undefined ? { json: body } : {}), headers: auth(token.ada!) });
          expect([res.status, await res.json()]).toEqual([400, DISABLED]);
          const user = await server.fetch(prefix + path, { method, ...(body !== undefined ? { json: body } : {}), headers: auth(token.joe!) });
          expect(user.status).toBe(403);
        }
      }
      const posted = await server.fetch(`${PREFIXES[0]}/config`, { json: { configs: [{ group: ":ext", key: ":instance", value: kw(["name", "Nope"]) }] }, headers: auth(token.ada!) });
      expect(posted.status).toBe(400);
      expect(await server.services.db.configEntry.count()).toBe(0);
      const gql = await (await server.fetch("/graphql", { json: { query: "{ needReboot }" }, headers: auth(token.ada!) })).json();
      expect(gql.errors[0].message).toBe(DISABLED.error);
    });

    test("stored family values are ignored while the feature is off", async () => {
      await server.services.db.configEntry.create({ data: { group: ":ext", key: ":instance", value: kw(["name", "Ignored"]) } });
      await server.services.config.reload();
      expect(server.services.config.get("instance", "name")).toBe("ext");
      await server.services.db.configEntry.deleteMany({});
    });
  });
});

describe("admin runtime configuration in the pleroma profile (API_NAMESPACE=pleroma)", () => {
  let server: TestServer;
  let token: Record<string, string>;
  const call = (method: string, path: string, body?: unknown) =>
    server.fetch(`/api/v1/pleroma/admin${path}`, { method, ...(body !== undefined ? { json: body } : {}), headers: auth(token.ada!) });

  beforeAll(async () => {
    server = await startTestServer("pglite", { CONFIGURABLE_FROM_DATABASE: "true", API_NAMESPACE: "pleroma", API_FAMILY: "pleroma" });
    token = await users(server);
  });
  afterAll(() => server?.close());

  test("descriptions and settings are under :pleroma; :instance has the children the family's admin front end shows", async () => {
    const described = (await (await call("GET", "/config/descriptions")).json()) as { group: string; key: string; children: { key: string; type: unknown }[] }[];
    expect(new Set(described.map((d) => d.group))).toEqual(new Set([":pleroma"]));
    const instance = described.find((d) => d.key === ":instance")!;
    expect(instance.children.map((c) => c.key)).toEqual(expect.arrayContaining([":name", ":email", ":description", ":limit", ":registrations_open", ":invites_enabled", ":upload_limit", ":poll_limits"]));
    expect(instance.children.find((c) => c.key === ":registrations_open")!.type).toBe("boolean");

    const config = (await (await call("GET", "/config")).json()) as { configs: { group: string; key: string }[] };
    expect(config.configs.find((c) => c.key === ":instance")!.group).toBe(":pleroma");
    const posted = await call("POST", "/config", { configs: [{ group: ":pleroma", key: ":instance", value: kw(["name", "Family"]) }] });
    expect((await posted.json()).configs).toEqual([{ group: ":pleroma", key: ":instance", value: kw(["name", "Family"]), db: [":name"] }]);
    expect((await (await server.fetch("/api/v1/instance")).json()).title).toBe("Family");
  });
});
