// Delivery when peers fail: retries with backoff that survive a restart of the sending server,
// per-instance health in the admin API, no new deliveries to an instance unreachable for days,
// and no retries for a gone actor (410). The first retry delay is shortened to 2 s for the test.
import { afterAll, beforeAll, expect, it } from "vitest";
import { ADMIN_TOKEN, queueIdle, startFederationNet, type FederationNet, type TestInstance } from "../support/federation/network.ts";
import { waitFor } from "../support/wait.ts";
import { post, seedFollow, seedRemoteAccount, startSink, type Sink } from "./outbound-support.ts";

let net: FederationNet;
let a: TestInstance;
let sink: Sink;
let alice: { id: string; token: string };

const admin = (path: string) => a.api(`/api/v1/ext/admin${path}`, { headers: { "x-admin-token": ADMIN_TOKEN } });
const instanceRow = async (domain: string) =>
  (await a.sql<{ unreachable_since: Date | null; last_success_at: Date | null; last_failure_at: Date | null; failure_count: number }>(`SELECT * FROM instances WHERE domain = $1`, [domain]))[0];

beforeAll(async () => {
  net = await startFederationNet();
  sink = await startSink(net);
  a = await net.start("a", { FEDERATION_RETRY_INITIAL_SECONDS: "2" });
  alice = await a.createUser("alice");
}, 60_000);

afterAll(async () => {
  await net?.close();
  await sink?.close();
});

async function followerOn(name: string) {
  const host = sink.host(name);
  const f = await seedRemoteAccount(a, host, `f-${name}`);
  await seedFollow(a, f.id, alice.id);
  return host;
}

it("a failing instance is retried with backoff, across a restart of the sender, and is reachable again once it answers", async () => {
  const flaky = await followerOn("flaky");
  sink.behave(flaky, { status: 503 });
  const status = await post(a, alice.token, { status: "will arrive eventually", visibility: "public" });
  const uri = `${a.baseUrl}/objects/${status.id}`;
  const failing = await waitFor(async () => {
    const row = await instanceRow(flaky);
    return row?.unreachable_since && row.failure_count >= 1 ? row : null;
  }, "the failure recorded");
  expect(failing.last_failure_at).toBeTruthy();
  const shown = await (await admin(`/instances/${flaky}`)).json();
  expect(shown).toMatchObject({ domain: flaky, reachable: false, delivery_suspended: false });
  expect(shown.unreachable_since).toBeTruthy();
  expect(shown.failure_count).toBeGreaterThanOrEqual(1);

  // the retry is a durable job: it survives the sender's restart
  const pending = await a.sql<{ n: number }>(`SELECT count(*)::int AS n FROM jobs WHERE name = 'federation.task' AND state = 'pending' AND payload->>'inbox' = $1`, [`https://${flaky}/inbox`]);
  expect(pending[0].n).toBe(1);
  await a.restart();
  sink.behave(flaky, {});
  await waitFor(async () => sink.to(flaky).find((d) => d.activity?.object?.id === uri), "the retried delivery", { timeoutMs: 40_000 });
  const attempts = sink.deliveries.filter((d) => d.host === flaky && d.activity?.object?.id === uri);
  expect(attempts.filter((d) => d.status === 503).length).toBeGreaterThanOrEqual(1);
  const healthy = await waitFor(async () => {
    const row = await instanceRow(flaky);
    return row && row.unreachable_since === null && row.last_success_at ? row : null;
  }, "reachable again");
  expect(healthy.failure_count).toBe(0);
  expect(await (await admin(`/instances/${flaky}`)).json()).toMatchObject({ reachable: true, unreachable_since: null, failure_count: 0 });
}, 90_000);

it("an instance unreachable for days gets no new deliveries, and the admin API says so", async () => {
  const dead = await followerOn("dead");
  const fine = await followerOn("fine");
  sink.behave(dead, { status: 503 });
  await post(a, alice.token, { status: "first try", visibility: "public" });
  await waitFor(async () => (await instanceRow(dead))?.unreachable_since, "dead marked unreachable");
  // days pass
  await a.sql(`UPDATE instances SET unreachable_since = now() - interval '8 days' WHERE domain = $1`, [dead]);
  const list = await (await admin("/instances?unreachable=true")).json();
  expect(list.instances.find((i: any) => i.domain === dead)).toMatchObject({ reachable: false, delivery_suspended: true });
  expect(list.instances.some((i: any) => i.domain === fine)).toBe(false);

  const before = sink.deliveries.length;
  const status = await post(a, alice.token, { status: "not for the dead", visibility: "public" });
  const uri = `${a.baseUrl}/objects/${status.id}`;
  await waitFor(async () => sink.to(fine).some((d) => d.activity?.object?.id === uri), "delivery to the healthy instance");
  await queueIdle(a); // every due job of a has run, so an attempt at dead would have reached the sink
  expect(sink.deliveries.slice(before).filter((d) => d.host === dead && d.activity?.object?.id === uri)).toHaveLength(0);
}, 60_000);

it("a gone actor (410) is not retried", async () => {
  const gone = await followerOn("gone");
  sink.behave(gone, { status: 410 });
  const status = await post(a, alice.token, { status: "to the departed", visibility: "public" });
  const uri = `${a.baseUrl}/objects/${status.id}`;
  await waitFor(async () => sink.deliveries.some((d) => d.host === gone && d.activity?.object?.id === uri), "the 410");
  // every due job of a has run: a retry would now wait as a pending job (checked below), not be lost
  await queueIdle(a);
  const tries = sink.deliveries.filter((d) => d.host === gone && d.activity?.object?.id === uri);
  expect(tries.length).toBeLessThanOrEqual(2); // one delivery (both signature drafts tried once)
  const pending = await a.sql<{ n: number }>(`SELECT count(*)::int AS n FROM jobs WHERE name = 'federation.task' AND state = 'pending' AND payload->>'inbox' = $1`, [`https://${gone}/inbox`]);
  expect(pending[0].n).toBe(0);
  // the instance answered: reachable, if unwilling
  expect((await instanceRow(gone))?.unreachable_since).toBeNull();
}, 60_000);
