// Web push: /api/v1/push/subscription (the exact entity, one subscription per token, 404 when none,
// the `push` scope) and deliveries to a push-service fixture on 127.0.0.1, which the test decrypts
// (RFC 8291 aes128gcm with its own P-256 key and auth secret) and whose VAPID signature it verifies;
// alerts and policies filter, hidden contents stay hidden, 410 removes the subscription, 500 retries.
import crypto from "node:crypto";
import http from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { suiteKinds } from "../support/databases.ts";
import { passwordToken, startTestServer, type TestServer } from "../support/server.ts";
import { call, user, type User } from "./relationships-helpers.ts";
import { waitFor } from "../support/wait.ts";

// http_ece (the RFC 8188 implementation web-push itself uses) ships no types
const ece = createRequire(import.meta.url)("http_ece") as {
  decrypt(body: Buffer, params: { version: "aes128gcm"; privateKey: crypto.ECDH; authSecret: string }): Buffer;
};

interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A push service: records every request; answers 201 unless `answers` holds statuses for the path. */
async function pushService() {
  const received: Received[] = [];
  const answers = new Map<string, number[]>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ path: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(answers.get(req.url ?? "")?.shift() ?? 201).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, received, answers, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** A browser's side of a subscription: its ECDH key pair and auth secret, and decryption. */
function pushClient() {
  const ecdh = crypto.createECDH("prime256v1");
  ecdh.generateKeys();
  const auth = crypto.randomBytes(16).toString("base64url");
  return {
    keys: { p256dh: ecdh.getPublicKey().toString("base64url"), auth },
    decrypt: (body: Buffer) => JSON.parse(ece.decrypt(body, { version: "aes128gcm", privateKey: ecdh, authSecret: auth }).toString("utf8")),
  };
}

/** `vapid t=<ES256 JWT>, k=<key>`: the key is the server's and the JWT is signed by it for this audience. */
function checkVapid(header: string | undefined, serverKey: string, audience: string) {
  const m = /^vapid t=([^,]+), k=(.+)$/.exec(header ?? "");
  expect(m, header).not.toBeNull();
  expect(m![2]).toBe(serverKey);
  const [head, claims, signature] = m![1].split(".");
  const point = Buffer.from(serverKey, "base64url");
  const key = crypto.createPublicKey({ key: { kty: "EC", crv: "P-256", x: point.subarray(1, 33).toString("base64url"), y: point.subarray(33).toString("base64url") }, format: "jwk" });
  expect(crypto.verify("sha256", Buffer.from(`${head}.${claims}`), { key, dsaEncoding: "ieee-p1363" }, Buffer.from(signature, "base64url"))).toBe(true);
  expect(JSON.parse(Buffer.from(head, "base64url").toString())).toMatchObject({ alg: "ES256" });
  const body = JSON.parse(Buffer.from(claims, "base64url").toString());
  expect(body).toMatchObject({ aud: audience, sub: expect.stringMatching(/^mailto:/) });
  expect(body.exp).toBeGreaterThan(Date.now() / 1000);
}

const ALL_OFF = {
  mention: false,
  status: false,
  reblog: false,
  follow: false,
  follow_request: false,
  favourite: false,
  poll: false,
  update: false,
  move: false,
  "admin.sign_up": false,
  "admin.report": false,
  "ext:emoji_reaction": false,
  "ext:chat_mention": false,
};

describe.each(suiteKinds(import.meta.url))("web push on %s", (kind) => {
  let server: TestServer;
  let push: Awaited<ReturnType<typeof pushService>>;
  let ben: User; // does things to the subscribers
  let serverKey: string;
  const db = () => server.services.db;
  const PATH = "/api/v1/push/subscription";

  const subscribe = (who: User, path: string, keys: { p256dh: string; auth: string }, alerts: string[], extra: Record<string, string> = {}) =>
    call(server, who, "POST", PATH, {
      "subscription[endpoint]": `${push.origin}${path}`,
      "subscription[keys][p256dh]": keys.p256dh,
      "subscription[keys][auth]": keys.auth,
      ...Object.fromEntries(alerts.map((a) => [`data[alerts][${a}]`, "true"])),
      ...extra,
    });
  const mention = async (from: User, to: User, text = "") => {
    const res = await server.fetch("/api/v1/statuses", { json: { status: `@${to.nickname} ${text}`.trim() }, headers: from.auth });
    expect(res.status).toBe(200);
    const statusId = (await res.json()).id as string;
    return (await db().notification.findFirstOrThrow({ where: { accountId: to.id, type: "mention", statusId } })).id;
  };
  /** the push jobs queued for a notification */
  const jobsOf = async (notificationId: string) =>
    (await db().job.findMany({ where: { name: "push.deliver" } })).filter((j) => (j.payload as { notificationId: string }).notificationId === notificationId);
  const settled = (notificationId: string) =>
    waitFor(async () => {
      const js = await jobsOf(notificationId);
      return js.length === 1 && js[0].state === "done" && js;
    }, `the push job of notification ${notificationId} to be done`);
  const deliveries = (path: string) => waitFor(() => sentTo(path).length > 0 && sentTo(path), `a push delivery to ${path}`);
  const sentTo = (path: string) => push.received.filter((r) => r.path === path);

  beforeAll(async () => {
    push = await pushService();
    // the fixture listens on 127.0.0.1, which the guarded fetcher refuses unless told otherwise
    server = await startTestServer(kind, { ALLOW_PRIVATE_FETCH: "true" });
    ben = await user(server, "ben");
    serverKey = (await call(server, null, "GET", "/api/v1/instance")).body.vapid_public_key;
  });
  afterAll(async () => {
    await server?.close();
    await push?.close();
  });

  test("the VAPID key is generated once, stored, and announced by the instance", async () => {
    const instance = (await call(server, null, "GET", "/api/v1/instance")).body;
    expect(Buffer.from(serverKey, "base64url")).toHaveLength(65);
    expect(instance.ext.vapid_public_key).toBe(serverKey);
    const stored = await db().instanceSecret.findUniqueOrThrow({ where: { name: "vapid_keys" } });
    expect(JSON.parse(stored.value).publicKey).toBe(serverKey);
  });

  test("subscribe, show, update and delete with the exact entity; one subscription per token", async () => {
    const ana = await user(server, "ana");
    const client = pushClient();
    expect(await call(server, ana, "GET", PATH)).toMatchObject({ status: 404, body: { error: "Record not found" } });
    expect(await call(server, ana, "PUT", PATH, { "data[alerts][mention]": "true" })).toMatchObject({ status: 404, body: { error: "Record not found" } });

    const created = await subscribe(ana, "/ana", client.keys, ["mention", "ext:emoji_reaction", "admin.report", "unknown"], { "data[alerts][follow]": "false", "data[policy]": "followed" });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^\d+$/),
      endpoint: `${push.origin}/ana`,
      alerts: { ...ALL_OFF, mention: true, "ext:emoji_reaction": true, "admin.report": true },
      server_key: serverKey,
      policy: "followed",
    });
    expect((await call(server, ana, "GET", PATH)).body).toEqual(created.body);
    const row = await db().pushSubscription.findFirstOrThrow({ where: { accountId: ana.id } });
    expect(row).toMatchObject({ keyP256dh: client.keys.p256dh, keyAuth: client.keys.auth, alerts: { mention: true, emoji_reaction: true, report: true, follow: false } });

    // given alerts replace the set; an omitted policy stays; the policy also comes top-level
    const updated = await call(server, ana, "PUT", PATH, { "data[alerts][follow]": "true", "data[alerts][ext:chat_mention]": "1" });
    expect(updated.body).toEqual({ ...created.body, alerts: { ...ALL_OFF, follow: true, "ext:chat_mention": true } });
    expect((await call(server, ana, "PUT", PATH, { policy: "none" })).body).toMatchObject({ id: created.body.id, alerts: updated.body.alerts, policy: "none" });
    expect((await call(server, ana, "PUT", PATH, { "data[policy]": "sometimes" })).status).toBe(400);

    // subscribing again replaces the token's subscription (JSON, as masto.js sends it)
    const other = pushClient();
    const again = await server.fetch(PATH, { json: { subscription: { endpoint: `${push.origin}/ana2`, keys: other.keys }, data: { alerts: { status: true } }, policy: "follower" }, headers: ana.auth });
    const replaced = await again.json();
    expect(replaced).toEqual({ id: expect.any(String), endpoint: `${push.origin}/ana2`, alerts: { ...ALL_OFF, status: true }, server_key: serverKey, policy: "follower" });
    expect(replaced.id).not.toBe(created.body.id);
    expect(await db().pushSubscription.count({ where: { accountId: ana.id } })).toBe(1);

    // another token of the same account has its own
    const second = await passwordToken(server, "ana");
    const anaAgain: User = { ...ana, token: second.access_token, auth: { authorization: `Bearer ${second.access_token}` } };
    expect((await call(server, anaAgain, "GET", PATH)).status).toBe(404);
    expect((await subscribe(anaAgain, "/ana3", pushClient().keys, [])).body).toMatchObject({ endpoint: `${push.origin}/ana3`, alerts: ALL_OFF, policy: "all" });
    expect(await db().pushSubscription.count({ where: { accountId: ana.id } })).toBe(2);

    expect(await call(server, ana, "DELETE", PATH)).toMatchObject({ status: 200, body: {} });
    expect((await call(server, ana, "GET", PATH)).status).toBe(404);
    expect(await call(server, ana, "DELETE", PATH)).toMatchObject({ status: 200, body: {} });
    expect((await call(server, anaAgain, "GET", PATH)).body.endpoint).toBe(`${push.origin}/ana3`);

    // refusals: bad keys, a non-http endpoint, missing fields
    const badKey = await call(server, ana, "POST", PATH, { "subscription[endpoint]": `${push.origin}/x`, "subscription[keys][p256dh]": "AAAA", "subscription[keys][auth]": client.keys.auth });
    expect(badKey.status).toBe(400);
    const badUrl = await call(server, ana, "POST", PATH, { "subscription[endpoint]": "ftp://example.com/x", "subscription[keys][p256dh]": client.keys.p256dh, "subscription[keys][auth]": client.keys.auth });
    expect(badUrl.status).toBe(400);
    expect((await call(server, ana, "POST", PATH, { "subscription[endpoint]": `${push.origin}/x` })).status).toBe(400);
    expect(await db().pushSubscription.count({ where: { accountId: ana.id } })).toBe(1);
  });

  test("the push scope is required", async () => {
    const gus = await user(server, "gus", "read write follow");
    expect(await call(server, gus, "GET", PATH)).toMatchObject({ status: 403, body: { error: "Insufficient permissions: push." } });
    expect((await subscribe(gus, "/gus", pushClient().keys, ["mention"])).status).toBe(403);
    expect((await call(server, gus, "DELETE", PATH)).status).toBe(403);
    expect((await call(server, null, "GET", PATH)).status).toBe(403);
    const pushOnly = await passwordToken(server, "gus", "push");
    const gusPush: User = { ...gus, auth: { authorization: `Bearer ${pushOnly.access_token}` } };
    expect((await subscribe(gusPush, "/gus", pushClient().keys, ["mention"])).status).toBe(200);
    expect(await db().pushSubscription.count({ where: { accountId: gus.id } })).toBe(1);
  });

  test("a mention and a reaction are delivered encrypted and signed; types without an alert queue nothing", async () => {
    const dee = await user(server, "dee");
    const client = pushClient();
    await subscribe(dee, "/dee", client.keys, ["mention", "ext:emoji_reaction"]);

    const notificationId = await mention(ben, dee, "look at <this> & that");
    const [request] = await deliveries("/dee");
    expect(request.headers).toMatchObject({ "content-encoding": "aes128gcm", ttl: "172800", urgency: "normal", "content-type": "application/octet-stream" });
    checkVapid(request.headers.authorization, serverKey, push.origin);
    expect(client.decrypt(request.body)).toEqual({
      access_token: null,
      preferred_locale: "en",
      notification_id: notificationId,
      notification_type: "mention",
      icon: "http://localhost:4000/images/avi.png",
      title: "@ben mentioned you",
      body: "@dee look at <this> & that",
    });
    // the payload is not readable without the subscriber's keys
    expect(() => pushClient().decrypt(request.body)).toThrow();

    const own = await server.fetch("/api/v1/statuses", { json: { status: "my post" }, headers: dee.auth });
    const statusId = (await own.json()).id;
    await call(server, ben, "PUT", `/api/v1/ext/statuses/${statusId}/reactions/${encodeURIComponent("👍")}`);
    const reaction = await waitFor(() => sentTo("/dee").length === 2 && sentTo("/dee"), "the second push to /dee");
    expect(client.decrypt(reaction[1].body)).toMatchObject({ notification_type: "ext:emoji_reaction", title: "@ben reacted with 👍", body: "my post" });

    // follow and favourite notifications are stored, but dee's alerts leave them out: no job at all
    await call(server, ben, "POST", `/api/v1/accounts/${dee.id}/follow`);
    await call(server, ben, "POST", `/api/v1/statuses/${statusId}/favourite`);
    const unalerted = await db().notification.findMany({ where: { accountId: dee.id, type: { in: ["follow", "favourite"] } } });
    expect(unalerted).toHaveLength(2);
    for (const n of unalerted) expect(await jobsOf(n.id)).toEqual([]);
    expect(sentTo("/dee")).toHaveLength(2);
  });

  test("policies: followed, follower and none decide by the sender", async () => {
    const pol = await user(server, "pol");
    const cat = await user(server, "cat");
    const client = pushClient();
    await subscribe(pol, "/pol", client.keys, ["mention"], { "data[policy]": "followed" });

    // pol does not follow ben: the job runs and sends nothing
    await settled(await mention(ben, pol, "one"));
    expect(sentTo("/pol")).toEqual([]);
    await call(server, pol, "POST", `/api/v1/accounts/${ben.id}/follow`);
    const followed = await mention(ben, pol, "two");
    const [first] = await deliveries("/pol");
    expect(client.decrypt(first.body)).toMatchObject({ notification_id: followed, body: "@pol two" });

    await call(server, pol, "PUT", PATH, { "data[policy]": "follower" });
    await settled(await mention(cat, pol, "three"));
    expect(sentTo("/pol")).toHaveLength(1);
    await call(server, cat, "POST", `/api/v1/accounts/${pol.id}/follow`);
    const follower = await mention(cat, pol, "four");
    const both = await waitFor(() => sentTo("/pol").length === 2 && sentTo("/pol"), "the second push to /pol");
    expect(client.decrypt(both[1].body)).toMatchObject({ notification_id: follower, title: "@cat mentioned you" });

    await call(server, pol, "PUT", PATH, { "data[policy]": "none" });
    await settled(await mention(cat, pol, "five"));
    expect(sentTo("/pol")).toHaveLength(2);
  });

  test("hidden notification contents send no name, words or avatar", async () => {
    const hid = await user(server, "hid");
    const client = pushClient();
    await subscribe(hid, "/hid", client.keys, ["mention"]);
    await db().account.update({ where: { id: hid.id }, data: { notificationSettings: { block_from_strangers: false, hide_notification_contents: true } } });
    const notificationId = await mention(ben, hid, "a secret");
    const [request] = await deliveries("/hid");
    const payload = client.decrypt(request.body);
    expect(payload).toMatchObject({ notification_id: notificationId, notification_type: "mention", title: server.services.config.get("instance", "name"), body: "New Mention" });
    expect(JSON.stringify(payload)).not.toMatch(/ben|secret/);
  });

  test("a 410 answer removes the subscription", async () => {
    const eve = await user(server, "eve");
    push.answers.set("/gone", [410]);
    await subscribe(eve, "/gone", pushClient().keys, ["mention"]);
    const notificationId = await mention(ben, eve);
    await waitFor(async () => (await db().pushSubscription.count({ where: { accountId: eve.id } })) === 0, "eve's gone subscription deleted");
    expect(sentTo("/gone")).toHaveLength(1);
    expect((await settled(notificationId))[0].attempts).toBe(1);
    expect((await call(server, eve, "GET", PATH)).status).toBe(404);
  });

  test("a 500 answer is retried", async () => {
    const fay = await user(server, "fay");
    const client = pushClient();
    push.answers.set("/flaky", [500]);
    await subscribe(fay, "/flaky", client.keys, ["mention"]);
    const notificationId = await mention(ben, fay, "again");
    const tries = await waitFor(() => sentTo("/flaky").length === 2 && sentTo("/flaky"), "the retried push to /flaky");
    expect(tries.map((t) => client.decrypt(t.body).notification_id)).toEqual([notificationId, notificationId]);
    const [job] = await settled(notificationId);
    expect(job.attempts).toBe(2);
    expect(await db().pushSubscription.count({ where: { accountId: fay.id } })).toBe(1);
  });
});
