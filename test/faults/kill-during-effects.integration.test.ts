// kill -9 of the server while clients post, favourite, reblog and follow, a few times over: every
// stored action has its durable effects after the restart, and those run to completion. The effects
// are jobs: the federation delivery of a post (a remote account follows the posters) and of a reblog
// (an Announce), and a push delivery for every notification of an account with a push subscription.
// Before, they were queued after the action's commit, and a process dying between the two lost them for
// good; now they are rows written in the action's transaction (src/domain/transaction.ts). Real server
// processes on PostgreSQL; the push service and the remote inbox are a local sink answering 201/202.
import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { serverPerSuite, usersOn } from "../support/processes.ts";
import { waitFor } from "../support/wait.ts";

vi.setConfig({ testTimeout: 600_000, hookTimeout: 120_000 });

const ROUNDS = 5;
const CLIENTS = 8;

/** Stored actions without their job, by kind, read straight from the database. */
const MISSING = `
  SELECT 'create' AS kind, s.id FROM statuses s
  WHERE s.local AND s.reblog_of_id IS NULL AND s.visibility = 'public'
    AND EXISTS (SELECT 1 FROM follows f JOIN accounts a ON a.id = f.follower_id WHERE f.following_id = s.account_id AND f.state = 'accept' AND NOT a.local)
    AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.name = 'federation.outbox' AND j.payload->>'type' = 'status.created' AND j.payload->>'statusId' = s.id)
  UNION ALL
  SELECT 'announce', r.id FROM statuses r
  WHERE r.local AND r.reblog_of_id IS NOT NULL
    AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.name = 'federation.outbox' AND j.payload->>'type' = 'announce' AND j.payload->>'reblogId' = r.id)
  UNION ALL
  SELECT 'push', n.id FROM notifications n
  WHERE NOT n.seen AND EXISTS (SELECT 1 FROM push_subscriptions p WHERE p.account_id = n.account_id)
    AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.name = 'push.deliver' AND j.payload->>'notificationId' = n.id)`;

const COUNTS = `SELECT (SELECT count(*) FROM statuses WHERE reblog_of_id IS NULL AND content LIKE '%hey%')::int AS posts,
  (SELECT count(*) FROM statuses WHERE reblog_of_id IS NOT NULL)::int AS reblogs,
  (SELECT count(*) FROM notifications n WHERE EXISTS (SELECT 1 FROM push_subscriptions p WHERE p.account_id = n.account_id))::int AS pushed`;

/** What the effects' jobs have left to do: none may stay pending, running or failed. */
const UNFINISHED = `SELECT name, state::text AS state, count(*)::int AS n FROM jobs
  WHERE name IN ('federation.outbox', 'push.deliver') AND state <> 'done' GROUP BY name, state`;

/** A push service and a remote inbox in one: answers every POST, counts them. */
let sink: http.Server;
let sinkUrl: string;
let received = 0;
beforeAll(async () => {
  sink = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      received++;
      res.writeHead(req.url?.startsWith("/push") ? 201 : 202).end();
    });
  });
  await new Promise<void>((resolve) => sink.listen(0, "127.0.0.1", resolve));
  sinkUrl = `http://127.0.0.1:${(sink.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => (sink ? sink.close(() => resolve()) : resolve())));

describe("kill -9 while actions with durable effects arrive", () => {
  // the sink is on the loopback address
  const suite = serverPerSuite({ env: { ALLOW_PRIVATE_FETCH: "true" } });

  test(`after ${ROUNDS} kills, every stored post, reblog and notification has its delivery job, and every job finishes`, async () => {
    const { db, server } = suite;
    const authors = Array.from({ length: 4 }, (_, i) => `author${i}`);
    const actors = Array.from({ length: 24 }, (_, i) => `actor${i}`);
    const users = await usersOn(server.url, [...authors, ...actors]);
    const send = (who: string, path: string, body?: unknown) =>
      fetch(server.url + path, { method: "POST", headers: { ...users[who].auth, "content-type": "application/json" }, ...(body ? { body: JSON.stringify(body) } : {}) });

    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      // a remote account follows every actor (so each of their public posts federates), and every author
      // has a push subscription wanting every alert (so each of their notifications is pushed)
      const remote = "remote-fan";
      await client.query(
        `INSERT INTO accounts (id, nickname, domain, local, ap_id, inbox, shared_inbox, updated_at)
        VALUES ($1, 'fan@remote.test', 'remote.test', false, 'https://remote.test/users/fan', $2, $2, now())`,
        [remote, `${sinkUrl}/inbox`],
      );
      await client.query(
        `INSERT INTO follows (id, follower_id, following_id, state, updated_at)
        SELECT 'remote-follow-' || a.id, $1, a.id, 'accept', now() FROM accounts a WHERE a.nickname = ANY($2::text[])`,
        [remote, actors],
      );
      const alerts = { mention: true, status: true, reblog: true, follow: true, follow_request: true, favourite: true, poll: true, update: true };
      for (const author of authors) {
        const ecdh = crypto.createECDH("prime256v1");
        ecdh.generateKeys();
        await client.query(
          `INSERT INTO push_subscriptions (account_id, token_id, endpoint, key_p256dh, key_auth, alerts, updated_at)
          SELECT account_id, id, $2, $3, $4, $5::jsonb, now() FROM oauth_tokens WHERE account_id = $1 ORDER BY id LIMIT 1`,
          [users[author].id, `${sinkUrl}/push/${author}`, ecdh.getPublicKey("base64url"), crypto.randomBytes(16).toString("base64url"), JSON.stringify(alerts)],
        );
      }

      // what the actors act on: a few public statuses per author
      const statuses: string[] = [];
      for (const author of authors)
        for (let i = 0; i < 6; i++) {
          const res = await send(author, "/api/v1/statuses", { status: `target ${author} ${i}` });
          expect(res.status).toBe(200);
          statuses.push((await res.json()).id);
        }
      // every (actor, target) pair is acted on once: each request is a new action with new effects
      const work: (() => Promise<Response>)[] = [];
      for (const actor of actors) {
        for (const id of statuses) work.push(() => send(actor, `/api/v1/statuses/${id}/favourite`), () => send(actor, `/api/v1/statuses/${id}/reblog`));
        for (const author of authors) work.push(() => send(actor, `/api/v1/accounts/${users[author].id}/follow`), () => send(actor, "/api/v1/statuses", { status: `hey @${author}` }));
      }
      for (let i = work.length - 1; i > 0; i--) {
        const j = Math.floor(Math.random() * (i + 1));
        [work[i], work[j]] = [work[j], work[i]];
      }

      let next = 0;
      let acknowledged = 0;
      for (let round = 0; round < ROUNDS; round++) {
        let dead = false;
        const worker = async () => {
          while (!dead && next < work.length) {
            try {
              if ((await work[next++]()).status === 200) acknowledged++;
            } catch {
              return; // the connection died with the process
            }
          }
        };
        const workers = Array.from({ length: CLIENTS }, worker);
        // a random moment once the burst is under way: after 20 to 120 more acknowledged actions
        const target = acknowledged + 20 + Math.floor(Math.random() * 100);
        await waitFor(async () => acknowledged >= target, `${target} acknowledged actions`, { timeoutMs: 120_000 });
        expect(await server.signal("SIGKILL")).toBe(null);
        dead = true;
        await Promise.all(workers);
        await server.start();
      }
      expect(next).toBeLessThan(work.length); // every round was killed mid-burst, not after it

      const counts = (await client.query(COUNTS)).rows[0];
      for (const [kind, n] of Object.entries(counts)) expect(n, kind).toBeGreaterThan(10);
      // the jobs are rows committed with their actions: none is missing, now or later
      const missing = (await client.query<{ kind: string; id: string }>(MISSING)).rows;
      expect(missing).toEqual([]);
      // and the restarted server runs them all to the end (jobs the dead process held: once their lease expires)
      const unfinished = await waitFor(
        async () => {
          const rows = (await client.query(UNFINISHED)).rows;
          return rows.length === 0 ? rows : null;
        },
        "every delivery job done",
        { timeoutMs: 180_000 },
      ).catch(async () => (await client.query(UNFINISHED)).rows);
      expect(unfinished).toEqual([]);
      expect(received).toBeGreaterThan(0); // the pushes (and deliveries) reached the sink
    } finally {
      await client.end();
    }
  });
});
