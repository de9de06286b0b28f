// Gives the memory that a burst of load left behind back to the system once the process is idle
// (issue 17: idle RSS after load; docs/performance.md, "Idle memory after load").
//
// Under load V8 lets the old generation grow to several times what is live before its next major GC
// (up to 4× on a machine with a large heap limit): 90 MB live, 260–330 MB of heap, 400–460 MB of RSS.
// When the load stops, nothing shrinks that heap until V8's memory reducer decides the process is idle,
// which took 30–60 s in the benchmark, sometimes longer. Here the process checks its event-loop
// utilisation every few seconds; after two quiet periods, and only when the heap has grown well past
// what it was after the last compaction, it runs one full collection that compacts every fragmented
// page, so that the pages are returned at once. A trickle of requests never pays for it: the heap must
// have grown by GROWTH_BYTES first, and under load the loop is never quiet.
//
// Before that collection, what registered with `onMemoryRelease` drops what it can rebuild on demand
// (the per-process caches of src/kernel/generational-lru.ts — statuses, accounts, tokens: a few MB after
// a burst of reads, their entries read again by the request that next needs them), so that the
// compaction gives that memory back too.
//
// The collector is reached without `--expose-gc` (which would put `gc` on the global object of every
// dependency): the flag is set for the time of one `vm` evaluation that picks the function up, then
// unset. Compaction of every page is a V8 flag read at collection time, set around that one call.
// Without either (another engine, flags frozen) this does nothing and V8's memory reducer remains.
import { performance } from "node:perf_hooks";
import v8 from "node:v8";
import vm from "node:vm";

const CHECK_MS = 4_000;
/** event-loop utilisation under which a period counts as quiet */
const QUIET_ELU = 0.05;
/** quiet periods in a row before compacting */
const QUIET_PERIODS = 2;
/** heap growth since the last compaction that is worth one */
const GROWTH_BYTES = 32 * 1024 * 1024;

type Collect = () => void;

/**
 * V8's memory-reducing ("last-resort") collection where `gc` takes options that work (Node 22 and later): it
 * also shrinks the young generation back to its first size, which a plain collection leaves grown to its
 * maximum after load. Node 20's `gc` accepts the same options but then does not collect at all (measured:
 * nothing freed), so it keeps the plain collection, and V8's own memory reducer shrinks the young
 * generation later (~45 s of quiet).
 */
const LAST_RESORT = Number(process.versions.node.split(".")[0]) >= 24;

function collector(): Collect | undefined {
  try {
    v8.setFlagsFromString("--expose-gc");
    const gc = vm.runInNewContext("gc") as unknown;
    v8.setFlagsFromString("--no-expose-gc");
    if (typeof gc !== "function") return undefined;
    return () => {
      v8.setFlagsFromString("--compact-on-every-full-gc");
      try {
        if (LAST_RESORT) (gc as (options: object) => void)({ type: "major", execution: "sync", flavor: "last-resort" });
        else (gc as () => void)();
      } finally {
        v8.setFlagsFromString("--no-compact-on-every-full-gc");
      }
    };
  } catch {
    return undefined;
  }
}

/** What drops rebuildable memory (caches) just before an idle compaction. */
const trims = new Set<() => void>();

/**
 * Registers `trim`, run before each idle compaction (after a burst of load, once the process is quiet);
 * returns the function that unregisters it.
 */
export function onMemoryRelease(trim: () => void): () => void {
  trims.add(trim);
  return () => void trims.delete(trim);
}

function runTrims() {
  for (const trim of trims) {
    try {
      trim();
    } catch (error) {
      console.error("idle memory: a trim failed:", error);
    }
  }
}

export interface IdleMemory {
  /** compactions run so far (for tests and the benchmark) */
  readonly compactions: number;
  stop(): void;
}

/** Starts the idle check (its timer does not keep the process alive); with `now`, compacts once first. */
export function releaseMemoryWhenIdle(options: { checkMs?: number; growthBytes?: number; now?: boolean } = {}): IdleMemory {
  const collect = collector();
  const checkMs = options.checkMs ?? CHECK_MS;
  const growthBytes = options.growthBytes ?? GROWTH_BYTES;
  const heapSize = () => v8.getHeapStatistics().total_heap_size;
  const state = { compactions: 0, stop: () => clearInterval(timer) };
  // `now`: one compaction at once, e.g. of what the start-up left (compiling, migrations check, config)
  if (options.now && collect) {
    collect();
    state.compactions++;
  }
  let baseline = heapSize();
  let quiet = 0;
  let last = performance.eventLoopUtilization();
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    const elu = performance.eventLoopUtilization(now, last).utilization;
    last = now;
    quiet = elu < QUIET_ELU ? quiet + 1 : 0;
    if (!collect || quiet < QUIET_PERIODS) return;
    const size = heapSize();
    // V8 shrank the heap itself (its own memory reducer): that is the new baseline
    if (size < baseline) baseline = size;
    if (size - baseline < growthBytes) return;
    runTrims();
    collect();
    state.compactions++;
    baseline = heapSize();
    last = performance.eventLoopUtilization(); // the collection's own time is not load
  }, checkMs);
  timer.unref();
  return state;
}
