// `npm start` is the README's runtime contract: this runs it as an operator does (npm, then scripts/start.mjs: the build checks and the
// built server) and checks what the script adds to a plain `node dist/main.js`: the young-generation flag and glibc's
// malloc trim threshold (issue 17, idle memory: without it glibc keeps 30–40 MB of freed memory in its per-thread
// arenas; docs/performance.md, "Eleventh round"), and that an operator's own GLIBC_TUNABLES wins.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { StopWaiting, waitFor } from "../support/wait.ts";

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");
const running: { child: ChildProcess; dataDir: string }[] = [];

async function npmStart(extraEnv: Record<string, string>) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "ext-npm-start-"));
  const { BASE_URL: _vitest, DATABASE_URL: _db, GLIBC_TUNABLES: _tunables, ...inherited } = process.env;
  const child = spawn("npm", ["start", "--silent"], {
    cwd: ROOT,
    env: { ...inherited, PORT: "0", HOST: "127.0.0.1", DATA_DIR: dataDir, LOG_LEVEL: "warn", ...extraEnv },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true, // its own process group: npm, sh and node stop together
  });
  running.push({ child, dataDir });
  let output = "";
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  return waitFor(
    () => {
      if (child.exitCode !== null) throw new StopWaiting(`npm start exited with ${child.exitCode}:\n${output}`);
      return JSON.parse(fs.readFileSync(path.join(dataDir, "server.json"), "utf8")) as { url: string; pid: number }; // absent until it listens
    },
    () => `npm start to listen:\n${output}`,
    { timeoutMs: 120_000 },
  );
}

/** the server process's environment and command line, as the kernel has them */
function processOf(pid: number) {
  // glibc parses GLIBC_TUNABLES in place, ending each tunable with a NUL: its later tunables read as entries of their own
  const environ = fs
    .readFileSync(`/proc/${pid}/environ`, "utf8")
    .split("\0")
    .filter(Boolean)
    .reduce<string[]>((all, kv) => (kv.startsWith("glibc.") && all.at(-1)?.startsWith("GLIBC_TUNABLES=") ? [...all.slice(0, -1), `${all.at(-1)}:${kv}`] : [...all, kv]), []);
  const env = Object.fromEntries(environ.map((kv) => [kv.slice(0, kv.indexOf("=")), kv.slice(kv.indexOf("=") + 1)]));
  const argv = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean);
  return { env, argv };
}

afterEach(async () => {
  for (const { child, dataDir } of running.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once("exit", r));
      process.kill(-child.pid!, "SIGTERM");
      await exited;
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

describe.skipIf(process.platform !== "linux")("npm start", () => {
  it("runs the built server with the young-generation flag and glibc's trim and mmap thresholds, and it answers", async () => {
    const { url, pid } = await npmStart({});
    const { env, argv } = processOf(pid);
    expect(argv.slice(1)).toEqual(["--max-semi-space-size=4", "scripts/start.mjs"]); // the build checks, then dist/main.js in the same process
    expect(env.GLIBC_TUNABLES).toBe("glibc.malloc.trim_threshold=2097152:glibc.malloc.mmap_threshold=32768");
    const res = await fetch(`${url}/api/v1/instance`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { uri: string }).uri).toBeTruthy();
  }, 120_000); // npm, the build checks and a PGlite start: 8–9 s on a quiet machine, several times that on a loaded one

  it("keeps the operator's own GLIBC_TUNABLES", async () => {
    const { pid } = await npmStart({ GLIBC_TUNABLES: "glibc.malloc.arena_max=2" });
    expect(processOf(pid).env.GLIBC_TUNABLES).toBe("glibc.malloc.arena_max=2");
  }, 120_000);
});
