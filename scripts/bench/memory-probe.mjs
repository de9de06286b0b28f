// Loaded into a benchmarked server with --import (scripts/bench/startup.ts): on SIGUSR2 it appends one
// JSON line to MEMORY_PROBE_FILE with the process's memory by kind, so a benchmark can say what holds
// the resident memory (V8 heap, code, buffers outside the heap, WebAssembly memories) and not only how
// much. With MEMORY_PROBE_GC=1, or when `<MEMORY_PROBE_FILE>.gc` exists (and node's --expose-gc), a full
// collection runs first: live memory, not garbage waiting for the next collection. With MEMORY_PROBE_SNAPSHOT=<file> it also writes a V8
// heap snapshot there (open it in Chrome DevTools' Memory tab).
import fs from "node:fs";
import v8 from "node:v8";

const file = process.env.MEMORY_PROBE_FILE;
process.on("SIGUSR2", () => {
  // a collection first when asked: always (MEMORY_PROBE_GC=1) or this time (a file `<MEMORY_PROBE_FILE>.gc` exists)
  if (process.env.MEMORY_PROBE_GC === "1" || (file && fs.existsSync(`${file}.gc`))) globalThis.gc?.();
  const m = process.memoryUsage();
  const stats = v8.getHeapSpaceStatistics();
  const spaces = Object.fromEntries(stats.map((s) => [s.space_name, s.space_used_size]));
  // committed (what the heap holds from the system, used or not): new space is the young generation's semi-spaces
  const spaceSizes = Object.fromEntries(stats.map((s) => [s.space_name, s.space_size]));
  const status = fs.readFileSync("/proc/self/status", "utf8");
  const kb = (key) => Number(status.match(new RegExp(`^${key}:\\s+(\\d+)`, "m"))?.[1] ?? 0) * 1024;
  const line = { at: Date.now(), rss: m.rss, rssAnon: kb("RssAnon"), rssFile: kb("RssFile"), heapTotal: m.heapTotal, heapUsed: m.heapUsed, external: m.external, arrayBuffers: m.arrayBuffers, code: (spaces.code_space ?? 0) + (spaces.code_large_object_space ?? 0), spaces, spaceSizes };
  if (file) fs.appendFileSync(file, `${JSON.stringify(line)}\n`);
  if (process.env.MEMORY_PROBE_SNAPSHOT) v8.writeHeapSnapshot(process.env.MEMORY_PROBE_SNAPSHOT);
  // or this time, to the path a file `<MEMORY_PROBE_FILE>.snap` names
  if (file && fs.existsSync(`${file}.snap`)) {
    const to = fs.readFileSync(`${file}.snap`, "utf8").trim();
    fs.rmSync(`${file}.snap`);
    v8.writeHeapSnapshot(to);
  }
});
