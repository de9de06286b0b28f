// kill -9 of the server while clients favourite, reblog, follow and mention at once, a few times over:
// every favourite, reblog, follow and mention the database kept has its notification after the restart.
// Before, the notification was written after the action's commit, and a process dying between the two
// lost it for good; now both commit in one transaction (src/domain/transaction.ts).
// Real server processes on PostgreSQL.
import pg from "pg";
import { describe, expect, test, vi } from "vitest";
import { serverPerSuite, usersOn } from "../support/processes.ts";
import { waitFor } from "../support/wait.ts";

vi.setConfig({ testTimeout: 600_000, hookTimeout: 120_000 });

const ROUNDS = 5;
const CLIENTS = 8;

/** Committed actions without their notification, by kind, read straight from the database. */
const MISSING = `
  SELECT 'favourite' AS kind, f.id FROM favourites f JOIN statuses s ON s.id = f.status_id
  WHERE s.account_id <> f.account_id AND NOT EXISTS (SELECT 1 FROM notifications n
    WHERE n.type = 'favourite' AND n.account_id = s.account_id AND n.from_account_id = f.account_id AND n.status_id = s.id)
  UNION ALL
  SELECT 'reblog', r.id FROM statuses r JOIN statuses o ON o.id = r.reblog_of_id
  WHERE o.account_id <> r.account_id AND NOT EXISTS (SELECT 1 FROM notifications n
    WHERE n.type = 'reblog' AND n.account_id = o.account_id AND n.from_account_id = r.account_id AND n.status_id = o.id)
  UNION ALL
  SELECT 'follow', f.id FROM follows f
  WHERE NOT EXISTS (SELECT 1 FROM notifications n
    WHERE n.type IN ('follow', 'follow_request') AND n.account_id = f.following_id AND n.from_account_id = f.follower_id)
  UNION ALL
  SELECT 'mention', m.status_id FROM mentions m JOIN statuses s ON s.id = m.status_id
  WHERE s.account_id <> m.account_id AND NOT EXISTS (SELECT 1 FROM notifications n
    WHERE n.type = 'mention' AND n.account_id = m.account_id AND n.from_account_id = s.account_id AND n.status_id = s.id)`;

const COUNTS = `SELECT (SELECT count(*) FROM favourites)::int AS favourites, (SELECT count(*) FROM statuses WHERE reblog_of_id IS NOT NULL)::int AS reblogs,
  (SELECT count(*) FROM follows)::int AS follows, (SELECT count(*) FROM mentions)::int AS mentions`;

describe("kill -9 while notifying actions arrive", () => {
  const suite = serverPerSuite();

  test(`after ${ROUNDS} kills, every stored favourite, reblog, follow and mention has its notification`, async () => {
    const { db, server } = suite;
    const authors = Array.from({ length: 4 }, (_, i) => `author${i}`);
    const actors = Array.from({ length: 24 }, (_, i) => `actor${i}`);
    const users = await usersOn(server.url, [...authors, ...actors]);
    const send = (who: string, path: string, body?: unknown) =>
      fetch(server.url + path, { method: "POST", headers: { ...users[who].auth, "content-type": "application/json" }, ...(body ? { body: JSON.stringify(body) } : {}) });

    // what the actors act on: a few public statuses per author
    const statuses: string[] = [];
    for (const author of authors)
      for (let i = 0; i < 6; i++) {
        const res = await send(author, "/api/v1/statuses", { status: `target ${author} ${i}` });
        expect(res.status).toBe(200);
        statuses.push((await res.json()).id);
      }
    // every (actor, target) pair is acted on once: each request is a new action with a new notification
    const work: (() => Promise<Response>)[] = [];
    for (const actor of actors) {
      for (const id of statuses) work.push(() => send(actor, `/api/v1/statuses/${id}/favourite`), () => send(actor, `/api/v1/statuses/${id}/reblog`));
      for (const author of authors) work.push(() => send(actor, `/api/v1/accounts/${users[author].id}/follow`), () => send(actor, "/api/v1/statuses", { status: `hey @${author}` }));
    }
    for (let i = work.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [work[i], work[j]] = [work[j], work[i]];
    }

    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
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
      // the restarted server has nothing left to do for them: what is missing now stays missing
      const missing = await waitFor(
        async () => {
          const rows = (await client.query<{ kind: string; id: string }>(MISSING)).rows;
          return rows.length === 0 ? rows : null;
        }, "a notification for every stored action", { timeoutMs: 10_000 }).catch(async () => (await client.query<{ kind: string; id: string }>(MISSING)).rows);
      expect(missing).toEqual([]);
    } finally {
      await client.end();
    }
  });
});
