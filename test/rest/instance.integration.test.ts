import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { newId } from "../../src/db/ids.ts";
import { suiteKinds } from "../support/databases.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

/** Writes runtime settings the way the admin config API does, then reloads them. */
async function setConfig(server: TestServer, values: Record<string, unknown>, group = "instance") {
  for (const [key, value] of Object.entries(values)) {
    await server.services.db.configEntry.upsert({
      where: { group_key: { group, key } },
      create: { group, key, value: value as any },
      update: { value: value as any },
    });
  }
  await server.services.config.reload();
}

async function resetConfig(server: TestServer) {
  await server.services.db.configEntry.deleteMany({});
  await server.services.config.reload();
}

function remoteAccount(server: TestServer, nickname: string, domain: string) {
  return server.services.db.account.create({
    data: { id: newId(), nickname: `${nickname}@${domain}`, domain, local: false, apId: `https://${domain}/users/${nickname}` },
  });
}

describe.each(suiteKinds(import.meta.url))("instance and migrations on %s", (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind, { CONFIGURABLE_FROM_DATABASE: "true" });
  });
  afterAll(() => server?.close());

  test("migrations were applied at start and recorded like prisma migrate does", async () => {
    const rows = await server.services.db.$queryRawUnsafe<{ migration_name: string; finished_at: Date | null }[]>(
      "SELECT migration_name, finished_at FROM _prisma_migrations ORDER BY migration_name",
    );
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.finished_at !== null)).toBe(true);
    expect(await server.database.migrate()).toEqual([]); // idempotent: nothing pending on a second run
  });

  test("GET /api/v1/instance answers with the family marker and live counts", async () => {
    await server.createUser("alice");
    const res = await server.fetch("/api/v1/instance");
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.uri).toBe("localhost:4000");
    expect(body.version).toMatch(/^2\.7\.2 \(compatible; Ext \d+\.\d+\.\d+\)$/);
    expect(body.stats.user_count).toBe(1);
    expect(body.ext.metadata).toBeDefined();
  });

  test("every reference field and every family extra, read from the runtime settings", async () => {
    const res = await server.fetch("/api/v1/instance");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    const body = await res.json();
    const cfg = server.services.config.group("instance");
    expect(body).toMatchObject({
      uri: "localhost:4000",
      title: cfg.name,
      short_description: cfg.short_description,
      description: cfg.description,
      email: cfg.email,
      urls: { streaming_api: "ws://localhost:4000" },
      stats: { user_count: 1, status_count: 0, domain_count: 0 },
      thumbnail: "http://localhost:4000/instance/thumbnail.jpeg",
      languages: ["en"],
      registrations: cfg.registrations_open,
      approval_required: cfg.account_approval_required,
      invites_enabled: cfg.invites_enabled,
      contact_account: null,
      rules: [],
      max_toot_chars: cfg.limit,
      description_limit: cfg.description_limit,
      chat_limit: cfg.chat_limit,
      poll_limits: cfg.poll_limits,
      upload_limit: cfg.upload_limit,
      avatar_upload_limit: cfg.avatar_upload_limit,
      background_upload_limit: cfg.background_upload_limit,
      banner_upload_limit: cfg.banner_upload_limit,
      background_image: `http://localhost:4000${cfg.background_image}`,
      vapid_public_key: expect.stringMatching(/^[A-Za-z0-9_-]{87}$/),
    });
    expect(Object.keys(body.poll_limits).sort()).toEqual(["max_expiration", "max_option_chars", "max_options", "min_expiration"]);
    expect(body.ext).toEqual({
      metadata: {
        account_activation_required: cfg.account_activation_required,
        features: [
          "ext_api",
          "own_api",
          "mastodon_api",
          "mastodon_api_streaming",
          "polls",
          "ext_explicit_addressing",
          "shareable_emoji_packs",
          "multifetch",
          "ext:api/v1/notifications:include_types_filter",
          "editing",
          "ext_emoji_reactions",
          "ext_chat_messages",
          "quote_posting",
        ],
        federation: { enabled: true, exclusions: false, mrf_policies: ["SimplePolicy", "HashtagPolicy"], mrf_hashtag: { reject: [], federated_timeline_removal: [], sensitive: ["nsfw"] }, mrf_simple: expect.objectContaining({ reject: [], accept: [], media_removal: [] }), mrf_simple_info: {}, quarantined_instances: [], quarantined_instances_info: { quarantined_instances: {} } },
        fields_limits: { max_fields: cfg.max_account_fields, max_remote_fields: 20, name_length: cfg.account_field_name_length, value_length: cfg.account_field_value_length },
        post_formats: ["text/plain", "text/html", "text/markdown"],
      },
      stats: { mau: 0 },
      vapid_public_key: expect.stringMatching(/^[A-Za-z0-9_-]{87}$/),
    });
  });

  test("stats count active local users and remote domains; peers lists the domains", async () => {
    await remoteAccount(server, "bob", "b.example");
    await remoteAccount(server, "carol", "a.example");
    await remoteAccount(server, "dave", "b.example");
    const gone = await server.createUser("gone");
    await server.services.db.account.update({ where: { id: gone.id }, data: { deactivated: true } });

    const body = await (await server.fetch("/api/v1/instance")).json();
    expect(body.stats).toEqual({ user_count: 1, status_count: 0, domain_count: 2 });

    const peers = await server.fetch("/api/v1/instance/peers");
    expect(peers.status).toBe(200);
    expect(peers.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await peers.json()).toEqual(["a.example", "b.example"]);
  });

  test("GET /api/v1/instance reads its counts in one statement: a constant few in all, however many accounts and servers", async () => {
    const { queries } = await server.countQueries(() => server.fetch("/api/v1/instance").then((r) => r.json()));
    for (let i = 0; i < 5; i++) await remoteAccount(server, `more${i}`, `s${i}.example`);
    const again = await server.countQueries(() => server.fetch("/api/v1/instance").then((r) => r.json()));
    expect(again.result.stats.domain_count).toBe(5 + 2);
    expect(again.queries).toBe(queries);
    expect(queries).toBeLessThanOrEqual(3);
  });

  test("a change of the runtime settings shows at once", async () => {
    try {
      await setConfig(server, {
        name: "Renamed",
        email: "admin@renamed.test",
        description: "<p>new</p>",
        short_description: "short",
        limit: 1234,
        description_limit: 321,
        chat_limit: 99,
        upload_limit: 1000,
        avatar_upload_limit: 100,
        background_upload_limit: 200,
        banner_upload_limit: 300,
        poll_limits: { max_options: 4, max_option_chars: 50, min_expiration: 60, max_expiration: 3600 },
        background_image: "https://cdn.example/bg.png",
        registrations_open: false,
        invites_enabled: true,
        account_approval_required: true,
        account_activation_required: true,
        federating: false,
        max_account_fields: 3,
        account_field_name_length: 16,
        account_field_value_length: 32,
        local_bubble: ["friend.example"],
      });
      const body = await (await server.fetch("/api/v1/instance")).json();
      expect(body).toMatchObject({
        title: "Renamed",
        email: "admin@renamed.test",
        description: "<p>new</p>",
        short_description: "short",
        max_toot_chars: 1234,
        description_limit: 321,
        chat_limit: 99,
        upload_limit: 1000,
        avatar_upload_limit: 100,
        background_upload_limit: 200,
        banner_upload_limit: 300,
        poll_limits: { max_options: 4, max_option_chars: 50, min_expiration: 60, max_expiration: 3600 },
        background_image: "https://cdn.example/bg.png",
        registrations: false,
        invites_enabled: true,
        approval_required: true,
      });
      expect(body.ext.metadata).toMatchObject({
        account_activation_required: true,
        federation: { enabled: false },
        fields_limits: { max_fields: 3, name_length: 16, value_length: 32 },
      });
      expect(body.ext.metadata.features).toContain("bubble_timeline");
    } finally {
      await resetConfig(server);
    }
    const back = await (await server.fetch("/api/v1/instance")).json();
    expect(back.max_toot_chars).toBe(server.services.config.get("instance", "limit"));
    expect(back.ext.metadata.features).not.toContain("bubble_timeline");
  });

  test("the instance answers anonymous and authenticated callers alike, even with a dead token", async () => {
    const res = await server.fetch("/api/v1/instance/peers", { headers: { authorization: "Bearer nope" } });
    expect(res.status).toBe(200);
  });

  test("unknown paths get a JSON 404", async () => {
    const res = await server.fetch("/api/v1/nope");
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: "Not found" });
  });
});
