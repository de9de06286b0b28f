// Instance and discovery through an outside client (masto.js): the v2 instance, rules (also changed
// through the admin API), the extended description, moderated servers as the policies publish them,
// weekly activity, the profile directory and the viewer's preferences.
import { createRestAPIClient, type mastodon } from "masto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { suiteKinds } from "../support/databases.ts";
import { passwordToken, startTestServer, type TestServer } from "../support/server.ts";

const ADMIN_TOKEN = "admin-token-for-instance-tests";

describe.each(suiteKinds(import.meta.url))("instance and discovery through masto (%s)", (kind) => {
  let server: TestServer;
  let mia: ReturnType<typeof createRestAPIClient>;
  let anonymous: ReturnType<typeof createRestAPIClient>;
  const ids: Record<string, string> = {};

  const configure = async (key: string, entries: Record<string, unknown>) => {
    const value = Object.entries(entries).map(([k, v]) => ({ tuple: [`:${k}`, v] }));
    const res = await server.fetch("/api/v1/ext/admin/config", { headers: { "x-admin-token": ADMIN_TOKEN }, json: { configs: [{ group: ":pleroma", key, value }] } });
    expect(res.status, await res.clone().text()).toBe(200);
  };

  beforeAll(async () => {
    server = await startTestServer(kind, { CONFIGURABLE_FROM_DATABASE: "true", ADMIN_TOKEN });
    ids.root = (await server.createUser("root", { admin: true })).id;
    ids.mia = (await server.createUser("mia")).id;
    ids.noa = (await server.createUser("noa")).id;
    await server.services.db.account.update({ where: { id: ids.noa }, data: { discoverable: false } });
    mia = createRestAPIClient({ url: server.url, accessToken: (await passwordToken(server, "mia")).access_token });
    anonymous = createRestAPIClient({ url: server.url });
    await mia.v1.statuses.create({ status: "mia posts" });
  });
  afterAll(() => server?.close());

  test("v2 instance: configuration limits, registrations, contact account, rules, thumbnail, api_versions", async () => {
    const rule = await server.fetch("/api/v1/ext/admin/rules", { headers: { "x-admin-token": ADMIN_TOKEN }, json: { text: "Be kind", hint: "to everyone" } });
    expect(rule.status).toBe(200);
    const instance = await anonymous.v2.instance.fetch();
    const expected: mastodon.v2.Instance = {
      domain: "localhost:4000",
      title: expect.any(String),
      version: expect.stringContaining("compatible;"),
      sourceUrl: expect.any(String),
      description: expect.any(String),
      usage: { users: { activeMonth: expect.any(Number) } },
      // masto camel-cases the keys `@1x` and `@2x` into `1x` and `2x`
      thumbnail: { url: "http://localhost:4000/instance/thumbnail.jpeg", blurhash: null as unknown as string, versions: { "1x": expect.any(String), "2x": expect.any(String) } as never, description: "" },
      icon: [],
      languages: ["en"],
      configuration: {
        urls: { streaming: "ws://localhost:4000", status: null as unknown as string },
        vapid: { publicKey: expect.any(String) },
        accounts: {
          maxFeaturedTags: 0,
          maxPinnedStatuses: 5,
          maxDisplayNameLength: expect.any(Number),
          maxNoteLength: expect.any(Number),
          maxAvatarDescriptionLength: expect.any(Number),
          maxHeaderDescriptionLength: expect.any(Number),
          maxProfileFields: 10,
          profileFieldNameLimit: 512,
          profileFieldValueLimit: 2048,
        },
        statuses: { maxCharacters: 5000, maxMediaAttachments: expect.any(Number), charactersReservedPerUrl: 0 },
        mediaAttachments: {
          supportedMimeTypes: expect.arrayContaining(["image/png", "image/jpeg"]),
          imageSizeLimit: 16 * 1024 * 1024,
          imageMatrixLimit: expect.any(Number),
          videoSizeLimit: expect.any(Number),
          videoFrameRateLimit: expect.any(Number),
          videoMatrixLimit: expect.any(Number),
          descriptionLimit: 5000,
        } as mastodon.v2.InstanceMediaAttachmentsConfiguration,
        polls: { maxOptions: 20, maxCharactersPerOption: 200, minExpiration: 0, maxExpiration: 365 * 24 * 3600 },
        translation: { enabled: false },
      },
      registrations: expect.objectContaining({ enabled: expect.any(Boolean), approvalRequired: false, message: null }),
      apiVersions: { mastodon: 0 as unknown as string },
      contact: { email: expect.any(String), account: expect.objectContaining({ id: ids.root, acct: "root" }) },
      // the reference added `translations` to rules in 4.4; we publish none
      rules: [{ id: expect.any(String), text: "Be kind", hint: "to everyone" }] as mastodon.v1.Rule[],
    };
    expect(instance).toMatchObject(expected);
    expect(Object.keys(instance).sort()).toEqual([...Object.keys(expected), "ext"].sort());
  });

  test("rules: read publicly, changed through the admin API and GraphQL", async () => {
    const rules = async () => (await server.fetch("/api/v1/instance/rules")).json();
    const first: Omit<mastodon.v1.Rule, "translations"> = { id: expect.any(String), text: "Be kind", hint: "to everyone" };
    expect(await rules()).toEqual([first]);
    const gql = await server.fetch("/graphql", { json: { query: 'mutation { createRule(text: "No spam", priority: 5) { id text } }' }, headers: { "x-admin-token": ADMIN_TOKEN } });
    expect((await gql.json()).data.createRule).toMatchObject({ text: "No spam" });
    expect((await rules()).map((r: { text: string }) => r.text)).toEqual(["Be kind", "No spam"]);
    expect((await anonymous.v2.instance.fetch()).rules.map((r) => r.text)).toEqual(["Be kind", "No spam"]);
  });

  test("extended description, activity, peers", async () => {
    const description: mastodon.v1.ExtendedDescription = { updatedAt: null, content: expect.any(String) };
    expect(await anonymous.v1.instance.extendedDescription.fetch()).toEqual(description);
    const weeks = await anonymous.v1.instance.activity.list();
    expect(weeks).toHaveLength(12);
    const activity: mastodon.v1.Activity = { week: expect.stringMatching(/^\d+$/), statuses: "1", logins: expect.stringMatching(/^\d+$/), registrations: "3" };
    expect(weeks[0]).toEqual(activity);
    expect(Number(weeks[0].week)).toBeGreaterThan(Number(weeks[1].week));
    expect(Date.now() / 1000 - Number(weeks[0].week)).toBeLessThan(7 * 24 * 3600);
    expect(weeks.slice(1).every((w) => w.statuses === "0" && w.registrations === "0")).toBe(true);
    expect(await anonymous.v1.instance.peers.list()).toEqual([]);

    // terms of service: the built-in text, then the admin's upload (REST and GraphQL)
    const terms = async () => (await server.fetch("/api/v1/instance/terms_of_service")).json();
    expect(await terms()).toEqual({ effective_date: "1970-01-01", effective: true, content: expect.stringContaining("Terms of service"), succeeded_by: null });
    const form = new FormData();
    form.append("file", new Blob(["<p>Our rules</p>"], { type: "text/html" }), "tos.html");
    expect((await server.fetch("/api/v1/ext/admin/instance_document/terms-of-service", { method: "PATCH", body: form, headers: { "x-admin-token": ADMIN_TOKEN } })).status).toBe(200);
    expect(await terms()).toEqual({ effective_date: new Date().toISOString().slice(0, 10), effective: true, content: "<p>Our rules</p>", succeeded_by: null });
    expect((await (await server.fetch("/graphql", { json: { query: "{ termsOfService }" } })).json()).data.termsOfService).toBe("<p>Our rules</p>");
  });

  test("domain blocks follow the published policies and their exclusions; 404 when unpublished", async () => {
    await configure(":mrf_simple", {
      reject: [{ tuple: ["evil.example", "spam"] }],
      media_removal: [{ tuple: ["pics.example", ""] }, { tuple: ["evil.example", ""] }],
      federated_timeline_removal: [{ tuple: ["secret.example", "hidden"] }],
    });
    await configure(":mrf", { policies: ["Pleroma.Web.ActivityPub.MRF.SimplePolicy"], transparency: true, transparency_exclusions: [{ tuple: ["secret.example", ""] }] });
    const blocks = await anonymous.v1.instance.domainBlocks.fetch();
    const evil: mastodon.v1.DomainBlock = { domain: "evil.example", digest: expect.stringMatching(/^[0-9a-f]{64}$/), severity: "suspend", comment: "spam" };
    expect(blocks).toEqual([evil, { domain: "pics.example", digest: expect.any(String), severity: "silence", comment: null }]);
    await configure(":mrf", { transparency: false });
    await expect(anonymous.v1.instance.domainBlocks.fetch()).rejects.toMatchObject({ statusCode: 404 });
  });

  test("directory: discoverable accounts by activity or age, local only on request", async () => {
    const active = await anonymous.v1.directory.list({ order: "active" });
    expect(active.map((a) => a.acct)).toEqual(["mia", "root"]);
    expect(active[0]).toMatchObject({ id: ids.mia, username: "mia", followersCount: 0 });
    expect((await anonymous.v1.directory.list({ order: "new", local: true })).map((a) => a.acct)).toEqual(["mia", "root"]);
    expect((await anonymous.v1.directory.list({ order: "new", offset: 1, limit: 1 })).map((a) => a.acct)).toEqual(["root"]);
  });

  test("preferences of the viewer", async () => {
    await mia.v1.accounts.updateCredentials({ source: { privacy: "unlisted" } });
    const prefs = (await (await server.fetch("/api/v1/preferences", { headers: { authorization: `Bearer ${(await passwordToken(server, "mia")).access_token}` } })).json()) as Record<string, unknown>;
    const expected: Record<keyof mastodon.v1.Preference, unknown> = {
      "posting:default:visibility": "unlisted",
      "posting:default:sensitive": false,
      "posting:default:language": null,
      "reading:expand:media": "default",
      "reading:expand:spoilers": false,
      "reading:autoplay:gifs": false,
    };
    expect(prefs).toMatchObject(expected);
    expect(await mia.v1.preferences.fetch()).toBeTruthy();
    expect([401, 403]).toContain((await server.fetch("/api/v1/preferences")).status);
  });
});
