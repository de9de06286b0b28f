// Runs the built `ctl` (what `npm run ctl -- …` runs) as the operator would, capturing its output.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { ctlEntry } from "./built.ts";

const run = promisify(execFile);
// vitest puts Vite's BASE_URL ("/") into process.env; the child must see the operator's environment
const { BASE_URL: _vite, ...parentEnv } = process.env;

export interface CtlRun {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout and stderr together */
  out: string;
}

/** Resolves when ctl exits; `soFar()` is what it has printed until now (to wait for a line while it runs). */
export function runCtl(env: Record<string, string>, ...args: string[]): Promise<CtlRun> & { soFar(): string } {
  const running = run(process.execPath, [ctlEntry, ...args], { env: { ...parentEnv, LOG_LEVEL: "error", ...env } });
  let printed = "";
  running.child.stdout?.on("data", (d) => (printed += d));
  running.child.stderr?.on("data", (d) => (printed += d));
  const done = running.then(
    (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr, out: r.stdout + r.stderr }),
    (e) => ({ code: e.code as number, stdout: `${e.stdout}`, stderr: `${e.stderr}`, out: `${e.stdout}${e.stderr}` }),
  );
  return Object.assign(done, { soFar: () => printed });
}

/** The --json document a command printed on stdout. */
export const json = (r: CtlRun) => JSON.parse(r.stdout);
