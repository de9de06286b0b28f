// jsonld's bundled core-js replaces JSON.stringify and Array.prototype.push with JavaScript polyfills on
// Node 20 (src/kernel/native-builtins.ts): every door through which the server loads Fedify must leave
// the engine's own functions in place. Each case runs in a fresh process, as the server loads Fedify once.
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";

function loadThrough(door: string): { loaded: boolean; replaced: string[] } {
  const out = execFileSync(process.execPath, ["--import", "tsx", "test/contracts/fixtures/load-federation.ts", door], { encoding: "utf8", env: { ...process.env, LOG_LEVEL: "silent" } });
  return JSON.parse(out.trim().split("\n").at(-1)!);
}

const node20 = Number(process.versions.node.split(".")[0]) < 21;

describe("the engine's built-ins survive loading Fedify", () => {
  it.runIf(node20)("unguarded, jsonld replaces JSON.stringify and Array.prototype.push on Node 20 (the hazard)", () => {
    const r = loadThrough("unguarded");
    expect(r.replaced).toEqual(expect.arrayContaining(["JSON.stringify", "Array.prototype.push"]));
  }, 60_000);

  for (const door of ["port", "jobs", "middleware"]) {
    it(`through the lazy ${door} door, nothing the server calls is replaced`, () => {
      const r = loadThrough(door);
      expect(r).toEqual({ loaded: true, replaced: [] }); // jsonld was loaded, and put nothing of its own in place
    }, 60_000);
  }
});
