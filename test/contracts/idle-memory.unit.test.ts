// src/kernel/idle-memory.ts: once the process is quiet and its heap has grown, one compacting collection runs and
// the heap shrinks; while the heap has not grown, none runs. What registered with onMemoryRelease (the status
// cache) is trimmed just before that collection, and only then.
import v8 from "node:v8";
import { describe, expect, it } from "vitest";
import { onMemoryRelease, releaseMemoryWhenIdle } from "../../src/kernel/idle-memory.ts";
import { statusCache, type SharedStatusData } from "../../src/domain/statuses/status-cache.ts";
import { createBus } from "../../src/realtime/bus.ts";
import { waitFor } from "../support/wait.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const heap = () => v8.getHeapStatistics().total_heap_size;

describe("releaseMemoryWhenIdle", () => {
  it("compacts once after the heap grew and the loop went quiet, not before", async () => {
    const idle = releaseMemoryWhenIdle({ checkMs: 100, growthBytes: 16 * 1024 * 1024 });
    let trims = 0;
    const off = onMemoryRelease(() => trims++);
    // a server's status cache, as the first page read creates it, with one entry
    const cache = statusCache({ bus: createBus(), settings: { statusCacheEntries: 10 } });
    cache.store(cache.begin(), "a", { row: { id: "a" } } as unknown as SharedStatusData);
    try {
      await sleep(400); // time is the behaviour: four idle checks (100 ms apart) pass
      expect(idle.compactions).toBe(0); // quiet, but nothing grew
      expect(trims).toBe(0);
      expect(cache.size).toBe(1);
      // fragmented old space: keep one object in ten of ~40 MB allocated, so the heap grows and stays grown
      let keep: object[] = [];
      for (let round = 0; round < 4; round++) {
        let tmp: object[] = [];
        for (let i = 0; i < 200_000; i++) {
          const o = { i, s: `item ${i} of round ${round}` };
          tmp.push(o);
          if (i % 10 === 0) keep.push(o);
        }
        tmp = [];
        void tmp;
      }
      const grown = heap();
      await waitFor(() => idle.compactions > 0, "the idle compaction", { timeoutMs: 5_000 });
      expect(idle.compactions).toBe(1);
      expect(trims).toBe(1);
      expect(cache.size).toBe(0); // the cache gave its entries up before the collection
      expect(heap()).toBeLessThan(grown);
      await sleep(500); // time is the behaviour: five idle checks pass
      expect(idle.compactions).toBe(1); // nothing grew since
      expect(trims).toBe(1);
      expect(keep.length).toBe(80_000);
      keep = [];
    } finally {
      off();
      idle.stop();
    }
  });

  it("with `now`, compacts once at once (what the start-up left), then only after growth", async () => {
    let garbage: object[] | null = Array.from({ length: 300_000 }, (_, i) => ({ i, s: `start-up garbage ${i}` }));
    void garbage;
    garbage = null;
    const before = heap();
    const idle = releaseMemoryWhenIdle({ now: true, checkMs: 100 });
    try {
      expect(idle.compactions).toBe(1);
      expect(heap()).toBeLessThan(before);
      await sleep(400); // time is the behaviour: four idle checks pass
      expect(idle.compactions).toBe(1); // quiet, but nothing grew since
    } finally {
      idle.stop();
    }
  });

  // `npm start` lets the young generation grow to 2 × 16 MB under load (--max-semi-space-size=16: a fifth less CPU
  // per timeline request than 4 MB); the idle compaction is V8's memory-reducing one, which gives it back. Node 20's
  // V8 leaves that to its own memory reducer, later (src/kernel/idle-memory.ts).
  const youngCommitted = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === "new_space")!.physical_space_size;
  it.runIf(Number(process.versions.node.split(".")[0]) >= 24)("gives the young generation's growth back (Node 24)", async () => {
    // survivors of many scavenges make V8 grow the young generation
    let keep: object[][] = [];
    for (let round = 0; round < 150; round++) {
      keep.push(Array.from({ length: 20_000 }, (_, i) => ({ i, s: `young ${i}` })));
      if (keep.length > 20) keep.shift();
    }
    const grown = youngCommitted();
    expect(grown).toBeGreaterThan(4 * 1024 * 1024);
    keep = [];
    void keep;
    const idle = releaseMemoryWhenIdle({ now: true, checkMs: 100 });
    try {
      expect(idle.compactions).toBe(1);
      expect(youngCommitted()).toBeLessThan(grown / 4);
    } finally {
      idle.stop();
    }
  });
});

