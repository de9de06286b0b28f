// The remote-follow flow between two of our servers over the TLS test network: on a's `/main/ostatus`
// bob gives his handle (bob@b.fed.test) and is sent, through WebFinger, to b's `/ostatus_subscribe` with
// alice's ActivityPub id; there he signs in with the form and follows, and a receives the Follow.
import { afterAll, beforeAll, expect, test } from "vitest";
import { startFederationNet, type FederationNet, type TestInstance } from "../support/federation/network.ts";
import { waitFor } from "../support/wait.ts";

let net: FederationNet;
let a: TestInstance;
let b: TestInstance;
let alice: { id: string; token: string };
let bob: { id: string; token: string };

beforeAll(async () => {
  net = await startFederationNet();
  [a, b] = await Promise.all([net.start("a"), net.start("b")]);
  [alice, bob] = await Promise.all([a.createUser("alice"), b.createUser("bob")]);
}, 120_000);

afterAll(async () => {
  await net?.close();
});

test("a's /main/ostatus → b's subscribe page (WebFinger template) → sign in and follow on b → a has the follow", async () => {
  const form = await a.api("/main/ostatus?nickname=alice");
  expect(form.status).toBe(200);
  const sent = await a.api("/main/ostatus", { body: new URLSearchParams({ "user[nickname]": "alice", "user[profile]": "bob@b.fed.test" }) });
  expect(sent.status).toBe(302);
  const location = new URL(sent.headers.get("location")!);
  expect(location.origin).toBe("https://b.fed.test");
  expect(location.pathname).toBe("/ostatus_subscribe");
  expect(location.searchParams.get("acct")).toBe("https://a.fed.test/users/alice");

  // on b: the page resolves alice from a and shows the follow form
  const page = await b.api(`${location.pathname}${location.search}`);
  expect(page.status).toBe(200);
  const html = await page.text();
  const remoteId = /name="authorization\[id\]" value="([^"]+)"/.exec(html)?.[1];
  expect(remoteId).toBeTruthy();
  const [row] = await b.sql<{ id: string; ap_id: string }>("SELECT id, ap_id FROM accounts WHERE nickname = 'alice@a.fed.test'");
  expect(row).toEqual({ id: remoteId, ap_id: "https://a.fed.test/users/alice" });

  const followed = await b.api("/ostatus_subscribe", {
    body: new URLSearchParams({ "authorization[id]": remoteId!, "authorization[name]": "bob", "authorization[password]": "pw-bob-long-enough" }),
  });
  expect(followed.status).toBe(302);
  expect(followed.headers.get("location")).toMatch(/^https:\/\/a\.fed\.test\//);
  expect(await b.sql("SELECT 1 FROM follows WHERE follower_id = $1 AND following_id = $2", [bob.id, remoteId])).toHaveLength(1);
  await waitFor(
    async () =>
      (await a.sql("SELECT 1 FROM follows f JOIN accounts s ON s.id = f.follower_id WHERE s.nickname = 'bob@b.fed.test' AND f.following_id = $1", [alice.id])).length === 1, "a's follows to hold bob@b.fed.test → alice", { timeoutMs: 20_000 });
});
