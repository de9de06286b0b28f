// Shared plumbing for the job-queue integration tests: throwaway PostgreSQL databases and Redis
// prefixes, sleep (for Promise.race timeouts), and child worker processes (test/jobs/fixtures/worker.ts).
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { Queue } from "bullmq";
import { Redis } from "ioredis";
import { StopWaiting, waitFor } from "../support/wait.ts";
import type { WorkerConfig } from "./fixtures/worker.ts";

export const PG_ADMIN_URL = process.env.TEST_PG_ADMIN_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
export const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

export const randomSuffix = () => Math.random().toString(36).slice(2, 10);

/** A fresh, empty PostgreSQL database; drop() removes it even if connections are still open. */
export async function createPgDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `jobs_test_${randomSuffix()}`;
  await adminQuery(`CREATE DATABASE ${name}`);
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Removes every key of a BullMQ queue (and anything else under the prefix). */
export async function obliterateRedisQueue(prefix: string, queueName: string): Promise<void> {
  const queue = new Queue(queueName, { connection: { url: REDIS_URL }, prefix });
  const client = new Redis(REDIS_URL);
  try {
    await queue.obliterate({ force: true });
    let cursor = "0";
    do {
      const [next, keys] = (await client.scan(cursor, "MATCH", `${prefix}:*`, "COUNT", 500)) as [string, string[]];
      if (keys.length) await client.del(...keys);
      cursor = next;
    } while (cursor !== "0");
  } finally {
    await queue.close();
    client.disconnect();
  }
}


export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function readLines(file: string): string[] {
  return fs.existsSync(file) ? fs.readFileSync(file, "utf8").split("\n").filter(Boolean) : [];
}

const live = new Set<ChildProcess>();

/** SIGKILLs workers a failed test left running (call from afterEach). */
export async function killWorkers(): Promise<void> {
  await Promise.all(
    [...live].map((child) => {
      const closed = new Promise((resolve) => child.once("close", resolve));
      child.kill("SIGKILL");
      return closed;
    }),
  );
}

export interface WorkerProcess {
  child: ChildProcess;
  /** resolves with the first JSON message from stdout that has `key` */
  message<T = unknown>(key: string, timeoutMs?: number): Promise<T>;
  /**
   * Has the worker enqueue a sentinel job now (config.sentinelFile) and waits until it ran: a job still
   * claimable before it has been claimed by then, and stop() waits for the handlers it started.
   */
  sentinel(): Promise<void>;
  /** SIGKILL: no cleanup, no lease release — a crash */
  kill(): Promise<void>;
  /** SIGTERM: the fixture stops its queue gracefully and exits 0 */
  stop(): Promise<number | null>;
}

/**
 * Starts a worker process. `node --import tsx` (not `npx tsx`) so the pid we signal is the worker itself,
 * not a wrapper that would leave an orphan behind.
 */
export function spawnWorker(config: WorkerConfig): WorkerProcess {
  // stdin is a pipe the fixture watches: if this test process dies, its workers exit too
  const child = spawn(process.execPath, ["--import", "tsx", "test/jobs/fixtures/worker.ts", JSON.stringify(config)], {
    cwd: root,
    stdio: ["pipe", "pipe", "pipe"],
  });
  live.add(child);
  const messages: Record<string, unknown>[] = [];
  let stderr = "";
  let buffered = "";
  child.stdout!.on("data", (chunk) => {
    buffered += chunk;
    let nl: number;
    while ((nl = buffered.indexOf("\n")) >= 0) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      try {
        messages.push(JSON.parse(line));
      } catch {
        // not one of ours
      }
    }
  });
  child.stderr!.on("data", (chunk) => (stderr += chunk));
  // "close" rather than "exit": it fires only after stdout has been read to the end
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  exited.then(() => live.delete(child));
  let done = false;
  exited.then(() => (done = true));

  return {
    child,
    async message<T>(key: string, timeoutMs = 40_000) {
      const found = await waitFor(
        () => {
          if (done && !messages.some((m) => key in m)) throw new StopWaiting(`worker exited before "${key}":\n${stderr}`);
          return messages.find((m) => key in m);
        },
        () => `worker message "${key}" (stderr: ${stderr.slice(-2000)})`,
        { timeoutMs, intervalMs: 25 },
      );
      return found[key] as T;
    },
    async sentinel() {
      if (!config.sentinelFile) throw new Error("sentinel() needs config.sentinelFile");
      const file = config.sentinelFile;
      const before = readLines(file).filter((l) => l.startsWith("done")).length;
      child.kill("SIGUSR2");
      await waitFor(() => readLines(file).filter((l) => l.startsWith("done")).length > before, `the sentinel job in ${file}`, { timeoutMs: 30_000, intervalMs: 25 });
    },
    async kill() {
      child.kill("SIGKILL");
      await exited;
    },
    async stop() {
      child.kill("SIGTERM");
      const code = await Promise.race([exited, sleep(10_000).then(() => "timeout" as const)]);
      if (code === "timeout") {
        child.kill("SIGKILL");
        throw new Error(`worker did not stop on SIGTERM:\n${stderr}`);
      }
      return code;
    },
  };
}
