// src/kernel/idle-memory.ts: once the process is quiet and its heap has grown, one compacting collection runs and
// the heap shrinks; while the heap has not grown, none runs.
import v8 from "node:v8";
import { describe, expect, it } from "vitest";
import { releaseMemoryWhenIdle } from "../../src/kernel/idle-memory.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const heap = () => v8.getHeapStatistics().total_heap_size;

describe("releaseMemoryWhenIdle", () => {
  it("compacts once after the heap grew and the loop went quiet, not before", async () => {
    const idle = releaseMemoryWhenIdle({ checkMs: 100, growthBytes: 16 * 1024 * 1024 });
    try {
      await sleep(400);
      expect(idle.compactions).toBe(0); // quiet, but nothing grew
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
      for (let i = 0; i < 50 && idle.compactions === 0; i++) await sleep(100);
      expect(idle.compactions).toBe(1);
      expect(heap()).toBeLessThan(grown);
      await sleep(500);
      expect(idle.compactions).toBe(1); // nothing grew since
      expect(keep.length).toBe(80_000);
      keep = [];
    } finally {
      idle.stop();
    }
  });
});
