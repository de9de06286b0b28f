import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { newId } from "../../src/db/ids.ts";
import { escapeXml, jrdToXrd, parseResource } from "../../src/federation/webfinger.ts";
import { suiteKinds } from "../support/databases.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

const BASE = "http://localhost:4000";
const NI20 = "http://nodeinfo.diaspora.software/ns/schema/2.0";
const NI21 = "http://nodeinfo.diaspora.software/ns/schema/2.1";

async function setConfig(server: TestServer, group: string, values: Record<string, unknown>) {
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

describe("webfinger helpers", () => {
  test("resources: acct with or without scheme and @, our domain only, or an ActivityPub id", () => {
    expect(parseResource("acct:alice@localhost:4000", "localhost:4000")).toEqual({ kind: "nickname", nickname: "alice" });
    expect(parseResource("@alice@LOCALHOST:4000", "localhost:4000")).toEqual({ kind: "nickname", nickname: "alice" });
    expect(parseResource("alice@elsewhere.example", "localhost:4000")).toBeNull();
    expect(parseResource("acct:alice", "localhost:4000")).toBeNull();
    expect(parseResource("acct:a%b@localhost:4000", "localhost:4000")).toBeNull();
    expect(parseResource(`${BASE}/users/alice`, "localhost:4000")).toEqual({ kind: "apId", apId: `${BASE}/users/alice` });
  });

  test("XRD output escapes text and attributes", () => {
    expect(escapeXml(`<a href="x">&'`)).toBe("&lt;a href=&quot;x&quot;&gt;&amp;&apos;");
    const xml = jrdToXrd({ subject: "acct:a<b@h", aliases: ["https://h/u?a=1&b=2"], links: [{ rel: "self", href: 'https://h/"q"' }] });
    expect(xml).toContain("<Subject>acct:a&lt;b@h</Subject>");
    expect(xml).toContain("<Alias>https://h/u?a=1&amp;b=2</Alias>");
    expect(xml).toContain('<Link rel="self" href="https://h/&quot;q&quot;"/>');
  });
});

describe.each(suiteKinds(import.meta.url))("well-known documents on %s", (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind, { CONFIGURABLE_FROM_DATABASE: "true" });
    await server.createUser("alice");
    await server.createUser("root", { admin: true });
    await server.createUser("mod", { moderator: true });
    const retired = await server.createUser("retired", { admin: true });
    await server.services.db.account.update({ where: { id: retired.id }, data: { deactivated: true } });
    await server.services.db.account.create({
      data: { id: newId(), nickname: "bob@remote.example", domain: "remote.example", local: false, apId: "https://remote.example/users/bob", isAdmin: true },
    });
  });
  afterAll(() => server?.close());

  test("/.well-known/nodeinfo links the 2.0 and 2.1 documents", async () => {
    const res = await server.fetch("/.well-known/nodeinfo");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await res.json()).toEqual({
      links: [
        { rel: NI20, href: `${BASE}/nodeinfo/2.0.json` },
        { rel: NI21, href: `${BASE}/nodeinfo/2.1.json` },
      ],
    });
  });

  test.each([
    ["/nodeinfo/2.0.json", "2.0"],
    ["/nodeinfo/2.0", "2.0"],
    ["/nodeinfo/2.1.json", "2.1"],
    ["/nodeinfo/2.1", "2.1"],
  ])("%s is the NodeInfo %s document", async (path, version) => {
    const res = await server.fetch(path);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(new RegExp(`^application/json; profile="http://nodeinfo\\.diaspora\\.software/ns/schema/${version.replace(".", "\\.")}#"`));
    const body = await res.json();
    const cfg = server.services.config.group("instance");
    expect(body).toMatchObject({
      version,
      software: { name: "pleroma", version: expect.stringMatching(/^\d+\.\d+\.\d+$/) },
      protocols: ["activitypub"],
      services: { inbound: [], outbound: [] },
      openRegistrations: cfg.registrations_open,
      usage: { users: { total: 3, activeMonth: 0, activeHalfyear: 0 }, localPosts: 0 },
      metadata: {
        nodeName: cfg.name,
        nodeDescription: cfg.description,
        private: false,
        staffAccounts: [`${BASE}/users/root`, `${BASE}/users/mod`],
        federation: { enabled: true, exclusions: false, mrf_policies: ["SimplePolicy", "HashtagPolicy"], mrf_hashtag: { reject: [], federated_timeline_removal: [], sensitive: ["nsfw"] }, mrf_simple_info: {}, quarantined_instances: [] },
        pollLimits: cfg.poll_limits,
        postFormats: ["text/plain", "text/html", "text/markdown"],
        uploadLimits: { general: cfg.upload_limit, avatar: cfg.avatar_upload_limit, banner: cfg.banner_upload_limit, background: cfg.background_upload_limit },
        fieldsLimits: { maxFields: cfg.max_account_fields, maxRemoteFields: 20, nameLength: cfg.account_field_name_length, valueLength: cfg.account_field_value_length },
        accountActivationRequired: false,
        invitesEnabled: false,
        mailerEnabled: false,
        localBubbleInstances: [],
      },
    });
    expect(body.metadata.features).toEqual((await (await server.fetch("/api/v1/instance")).json()).ext.metadata.features);
  });

  test("an unknown NodeInfo version is a 404", async () => {
    const res = await server.fetch("/nodeinfo/1.0.json");
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: "Nodeinfo schema version not handled" });
  });

  test("NodeInfo follows the runtime settings", async () => {
    try {
      await setConfig(server, "instance", {
        software_name: "akkoma",
        name: "Renamed",
        short_description: "Short and plain",
        registrations_open: false,
        invites_enabled: true,
        account_activation_required: true,
        federating: false,
        local_bubble: ["friend.example"],
        upload_limit: 1000,
      });
      await setConfig(server, "mailer", { transport: "smtp" });
      const body = await (await server.fetch("/nodeinfo/2.1.json")).json();
      expect(body).toMatchObject({
        software: { name: "akkoma" },
        openRegistrations: false,
        metadata: {
          nodeName: "Renamed",
          nodeDescription: "Short and plain",
          invitesEnabled: true,
          accountActivationRequired: true,
          mailerEnabled: true,
          federation: { enabled: false },
          localBubbleInstances: ["friend.example"],
          uploadLimits: { general: 1000 },
        },
      });
      expect(body.metadata.features).toContain("bubble_timeline");
    } finally {
      await resetConfig(server);
    }
  });

  const jrd = {
    subject: "acct:alice@localhost:4000",
    aliases: [`${BASE}/users/alice`],
    links: [
      { rel: "self", type: "application/activity+json", href: `${BASE}/users/alice` },
      { rel: "self", type: 'application/ld+json; profile="https://www.w3.org/ns/activitystreams"', href: `${BASE}/users/alice` },
      { rel: "http://webfinger.net/rel/profile-page", type: "text/html", href: `${BASE}/users/alice` },
      { rel: "http://ostatus.org/schema/1.0/subscribe", template: `${BASE}/ostatus_subscribe?acct={uri}` },
    ],
  };

  test.each(["acct:alice@localhost:4000", "acct:ALICE@localhost:4000", "alice@localhost:4000", `${BASE}/users/alice`])(
    "WebFinger for %s answers a JRD",
    async (resource) => {
      const res = await server.fetch(`/.well-known/webfinger?resource=${encodeURIComponent(resource)}`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^application\/jrd\+json/);
      expect(await res.json()).toEqual(jrd);
    },
  );

  const xrd =
    '<?xml version="1.0" encoding="UTF-8"?>\n<XRD xmlns="http://docs.oasis-open.org/ns/xri/xrd-1.0">' +
    "<Subject>acct:alice@localhost:4000</Subject>" +
    `<Alias>${BASE}/users/alice</Alias>` +
    `<Link rel="self" type="application/activity+json" href="${BASE}/users/alice"/>` +
    `<Link rel="self" type="application/ld+json; profile=&quot;https://www.w3.org/ns/activitystreams&quot;" href="${BASE}/users/alice"/>` +
    `<Link rel="http://webfinger.net/rel/profile-page" type="text/html" href="${BASE}/users/alice"/>` +
    `<Link rel="http://ostatus.org/schema/1.0/subscribe" template="${BASE}/ostatus_subscribe?acct={uri}"/>` +
    "</XRD>\n";

  test("WebFinger answers XRD to Accept: application/xrd+xml and to format=xml", async () => {
    const byAccept = await server.fetch("/.well-known/webfinger?resource=acct:alice@localhost:4000", { headers: { accept: "application/xrd+xml" } });
    expect(byAccept.status).toBe(200);
    expect(byAccept.headers.get("content-type")).toMatch(/^application\/xrd\+xml/);
    expect(await byAccept.text()).toBe(xrd);

    const byFormat = await server.fetch(`/.well-known/webfinger?format=xml&resource=${encodeURIComponent(`${BASE}/users/alice`)}`);
    expect(byFormat.status).toBe(200);
    expect(byFormat.headers.get("content-type")).toMatch(/^application\/xrd\+xml/);
    expect(await byFormat.text()).toBe(xrd);

    const jsonPreferred = await server.fetch("/.well-known/webfinger?resource=acct:alice@localhost:4000", {
      headers: { accept: "application/jrd+json, application/xrd+xml;q=0.5" },
    });
    expect(jsonPreferred.headers.get("content-type")).toMatch(/^application\/jrd\+json/);
  });

  test.each([
    "acct:nobody@localhost:4000",
    "acct:alice@elsewhere.example",
    "acct:retired@localhost:4000",
    "acct:bob@remote.example",
    "https://remote.example/users/bob",
    `${BASE}/users/nobody`,
  ])("WebFinger for %s is a 404", async (resource) => {
    const res = await server.fetch(`/.well-known/webfinger?resource=${encodeURIComponent(resource)}`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: "Couldn't find user" });
    const xml = await server.fetch(`/.well-known/webfinger?resource=${encodeURIComponent(resource)}`, { headers: { accept: "application/xrd+xml" } });
    expect(xml.status).toBe(404);
  });

  test("WebFinger without a resource is a 400", async () => {
    const res = await server.fetch("/.well-known/webfinger");
    expect(res.status).toBe(400);
    expect((await res.json()).error).toBe("Missing field: resource.");
  });

  test("host-meta gives the LRDD template as XRD", async () => {
    const res = await server.fetch("/.well-known/host-meta");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/xrd\+xml/);
    expect(await res.text()).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n<XRD xmlns="http://docs.oasis-open.org/ns/xri/xrd-1.0">' +
        `<Link rel="lrdd" type="application/xrd+xml" template="${BASE}/.well-known/webfinger?resource={uri}"/>` +
        "</XRD>\n",
    );
  });

  test("host-meta.json gives the same template as JRD", async () => {
    const res = await server.fetch("/.well-known/host-meta.json");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/jrd\+json/);
    expect(await res.json()).toEqual({ links: [{ rel: "lrdd", type: "application/jrd+json", template: `${BASE}/.well-known/webfinger?resource={uri}` }] });
  });

  test.each([
    ["acct:internal.fetch@localhost:4000", `${BASE}/internal/fetch`],
    [`${BASE}/internal/fetch`, `${BASE}/internal/fetch`],
    ["acct:internal.relay@localhost:4000", `${BASE}/relay`],
  ])("WebFinger for the service actor %s names %s", async (resource, id) => {
    const res = await server.fetch(`/.well-known/webfinger?resource=${encodeURIComponent(resource)}`);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.aliases).toEqual([id]);
    expect(body.links[0]).toEqual({ rel: "self", type: "application/activity+json", href: id });
  });

  test("NodeInfo localPosts counts the local posts", async () => {
    const alice = await server.services.db.account.findUniqueOrThrow({ where: { nickname: "alice" } });
    const before = (await (await server.fetch("/nodeinfo/2.1.json")).json()).usage.localPosts;
    const id = newId();
    await server.services.db.status.create({ data: { id, uri: `${BASE}/objects/${id}`, accountId: alice.id, context: `${BASE}/contexts/${id}`, content: "counted" } });
    try {
      expect((await (await server.fetch("/nodeinfo/2.1.json")).json()).usage.localPosts).toBe(before + 1);
    } finally {
      await server.services.db.status.delete({ where: { id } });
    }
  });

  test("a server that does not federate hides WebFinger and host-meta but still describes itself", async () => {
    try {
      await setConfig(server, "instance", { federating: false });
      expect((await server.fetch("/.well-known/webfinger?resource=acct:alice@localhost:4000")).status).toBe(404);
      expect((await server.fetch("/.well-known/host-meta")).status).toBe(404);
      expect((await server.fetch("/.well-known/host-meta.json")).status).toBe(404);
      expect((await server.fetch("/.well-known/webfinger?resource=acct:internal.fetch@localhost:4000")).status).toBe(404);
      const ni = await server.fetch("/nodeinfo/2.0.json");
      expect(ni.status).toBe(200);
      expect((await ni.json()).metadata.federation.enabled).toBe(false);
    } finally {
      await resetConfig(server);
    }
    expect((await server.fetch("/.well-known/host-meta")).status).toBe(200);
  });
});
