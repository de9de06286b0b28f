// The database engine prunes finished jobs: done ones after an hour, failed ones after a week, so the
// table stays small and queued payloads (deliveries carry the sender's private key) do not linger.
import { afterAll, beforeAll, expect, it } from "vitest";
import { openDatabase, type Database } from "../../src/db/client.ts";
import { createDatabaseQueue } from "../../src/jobs/index.ts";
import { waitFor } from "../support/wait.ts";

let db: Database;
beforeAll(async () => {
  db = await openDatabase("pglite:memory://");
  await db.migrate();
});
afterAll(async () => {
  await db?.close();
});

it("deletes done jobs older than an hour and failed ones older than a week, and keeps the rest", async () => {
  const ago = (ms: number) => new Date(Date.now() - ms);
  const HOUR = 3_600_000;
  await db.prisma.job.createMany({
    data: [
      { id: "old-done", name: "t", state: "done", finishedAt: ago(2 * HOUR) },
      { id: "new-done", name: "t", state: "done", finishedAt: ago(60_000) },
      { id: "old-failed", name: "t", state: "failed", finishedAt: ago(8 * 24 * HOUR) },
      { id: "new-failed", name: "t", state: "failed", finishedAt: ago(2 * 24 * HOUR) },
      { id: "waiting", name: "t", state: "pending", runAt: ago(-HOUR) },
    ],
  });
  const queue = createDatabaseQueue(db.prisma, { pollIntervalMs: 50 });
  queue.register("t", async () => {});
  await queue.start();
  try {
    const left = await waitFor(async () => {
      const ids = (await db.prisma.job.findMany({ select: { id: true }, orderBy: { id: "asc" } })).map((j) => j.id);
      return ids.length === 3 ? ids : null;
    }, "the prune", { timeoutMs: 10_000 });
    expect(left).toEqual(["new-done", "new-failed", "waiting"]);
  } finally {
    await queue.stop();
  }
});
