// Fedify is loaded on first use (src/federation/lazy.ts): no static import path may lead from the
// server's entry to it, or every process would carry its ~50 MB from the start (issue 17: idle memory).
// The same holds, smaller, for the audio/video probes, file-type, web-push and ioredis (1–3 MB of heap each),
// imported where an upload, a proxied file or a push first needs them.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import * as esbuild from "esbuild";
import { describe, expect, it } from "vitest";
import { federationAdapterJobs } from "../../src/federation/lazy.ts";
import { federationJobs } from "../../src/federation/federation.jobs.ts";
import { outboxJobs } from "../../src/federation/outbox/outbox.jobs.ts";
import { resolveJobs } from "../../src/federation/resolve.jobs.ts";

const HEAVY = /^(@fedify\/|@js-temporal\/|jsonld$)/;
const ON_FIRST_USE = /^(music-metadata|mp4box|file-type|web-push|ioredis)$/;

/** The static import chains from `entry` to a heavy package, as "a > b > c :: package". */
async function staticChainsToHeavy(entry: string, heavy = HEAVY): Promise<string[]> {
  const { metafile } = await esbuild.build({ entryPoints: [entry], bundle: true, write: false, metafile: true, format: "esm", platform: "node", packages: "external", logLevel: "silent" });
  const parent = new Map<string, string | null>([[entry, null]]);
  const queue = [entry];
  const chains: string[] = [];
  const chain = (file: string | null) => {
    const out: string[] = [];
    for (let f = file; f; f = parent.get(f) ?? null) out.unshift(f);
    return out.join(" > ");
  };
  while (queue.length) {
    const file = queue.shift()!;
    for (const imp of metafile.inputs[file]?.imports ?? []) {
      if (imp.kind !== "import-statement") continue; // dynamic import() is the lazy door
      if (imp.external) {
        if (heavy.test(imp.path)) chains.push(`${chain(file)} :: ${imp.path}`);
      } else if (!parent.has(imp.path)) {
        parent.set(imp.path, file);
        queue.push(imp.path);
      }
    }
  }
  return chains;
}

describe("Fedify is loaded lazily", () => {
  it("no static import path leads from src/server.ts to Fedify, JSON-LD or the Temporal polyfill", async () => {
    expect(await staticChainsToHeavy("src/server.ts")).toEqual([]);
  }, 60_000);

  it("in the built server (dist/, what `npm start` runs), no chunk the server loads at start imports them", () => {
    execFileSync(process.execPath, ["scripts/build-server.mjs"], { stdio: "ignore" }); // a no-op when dist/ is fresh
    const dir = path.resolve("dist");
    const server = /import\("\.\/(chunks\/server-[\w-]+\.js)"\)/.exec(fs.readFileSync(path.join(dir, "main.js"), "utf8"))?.[1];
    expect(server).toBeDefined();
    // esbuild groups modules into chunks by who reaches them: a chunk shared with the federation code
    // could carry its package imports, so the bundle is checked as well as the sources
    const seen = new Set<string>();
    const offenders: string[] = [];
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const code = fs.readFileSync(file, "utf8");
      for (const m of code.matchAll(/^(?:import|export)\b[^;]*?from\s*"([^"]+)"|^import\s*"([^"]+)"/gms)) {
        const spec = m[1] ?? m[2];
        if (spec.startsWith(".")) visit(path.resolve(path.dirname(file), spec));
        else if (HEAVY.test(spec)) offenders.push(`${path.relative(dir, file)} :: ${spec}`);
      }
    };
    visit(path.join(dir, server!));
    expect(offenders).toEqual([]);
  }, 60_000);

  it("no static import path leads from src/server.ts to the media probes, file-type, web-push or ioredis", async () => {
    expect(await staticChainsToHeavy("src/server.ts", ON_FIRST_USE)).toEqual([]);
  }, 60_000);

  it("the lazy job list names every federation job", () => {
    const real = [...outboxJobs, ...federationJobs, ...resolveJobs].map((j) => j.name).sort();
    expect(federationAdapterJobs.map((j) => j.name).sort()).toEqual(real);
  });
});
