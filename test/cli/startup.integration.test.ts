// Starting the server as an operator does (node dist/main.js, what `npm start` runs), with the mistakes
// operators make: each ends at once with one line that says what to fix, no stack trace, exit code 1, and
// before slow work. And one process per DATA_DIR: a second server or `ctl --offline` on a data directory a
// server holds refuses, naming it, and loses nothing (src/kernel/data-dir.ts, src/kernel/startup-error.ts).
import { spawn, execFileSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, test, vi } from "vitest";
import { ROOT, serverEntry } from "../support/built.ts";
import { runCtl } from "../support/ctl.ts";
import { freshDatabase, PG_ADMIN_URL } from "../support/databases.ts";
import { spawnServer } from "../support/processes.ts";

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const { BASE_URL: _vite, ...parentEnv } = process.env;
const temp = fs.mkdtempSync(path.join(os.tmpdir(), "ext-startup-"));
afterAll(() => fs.rmSync(temp, { recursive: true, force: true }));

/** Runs `node <entry>` in `cwd` until it exits (a server that starts is a failure of the test). */
function runToExit(env: Record<string, string>, options: { entry?: string; cwd?: string; timeoutMs?: number } = {}): Promise<{ code: number | null; output: string; ms: number }> {
  const started = Date.now();
  const child = spawn(process.execPath, [options.entry ?? serverEntry], { cwd: options.cwd ?? temp, env: { ...parentEnv, PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "info", ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`still running after ${options.timeoutMs ?? 60_000} ms:\n${output}`));
    }, options.timeoutMs ?? 60_000);
    child.once("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, output, ms: Date.now() - started });
    });
  });
}

/** One or two lines, the first `error: …` matching `message`, no stack frame, exit code 1. */
function expectOneLine(result: { code: number | null; output: string }, message: RegExp) {
  const lines = result.output.split("\n").filter((l) => l.trim());
  expect(result.code, result.output).toBe(1);
  expect(lines.length, result.output).toBeLessThanOrEqual(2);
  expect(lines[0]).toMatch(/^error: /);
  expect(lines[0]).toMatch(message);
  expect(result.output).not.toMatch(/^\s+at /m);
}

const migrationsTable = async (url: string) => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query("SELECT to_regclass('_prisma_migrations') AS t")).rows[0].t;
  } finally {
    await client.end();
  }
};

describe("start-up mistakes: one line with the fix", () => {
  test("a busy port is found before the database is migrated", async () => {
    const db = await freshDatabase("postgres", { migrated: false });
    const busy = net.createServer();
    await new Promise<void>((r) => busy.listen(0, "127.0.0.1", () => r()));
    const port = (busy.address() as net.AddressInfo).port;
    try {
      const result = await runToExit({ PORT: String(port), DATA_DIR: path.join(temp, "busy"), DATABASE_URL: db.url });
      expectOneLine(result, new RegExp(`port ${port} is already in use.*set PORT`));
      // nothing was migrated: the check came first
      expect(await migrationsTable(db.url)).toBeNull();
    } finally {
      busy.close();
      await db.drop();
    }
  });

  test("a DATABASE_URL that is not one creates nothing", async () => {
    const cwd = path.join(temp, "typo");
    fs.mkdirSync(cwd);
    const result = await runToExit({ DATABASE_URL: "notaurl", DATA_DIR: path.join(cwd, "data") }, { cwd });
    expectOneLine(result, /DATABASE_URL: must be a postgresql:\/\/ URL/);
    expect(fs.readdirSync(cwd)).toEqual([]); // no ./notaurl, no data directory
  });

  test("a refused, an unknown and a nonexistent database", async () => {
    const refused = await runToExit({ DATABASE_URL: "postgresql://postgres@127.0.0.1:1/x", DATA_DIR: path.join(temp, "refused") });
    expectOneLine(refused, /cannot use the database postgresql:\/\/postgres@127\.0\.0\.1:1\/x: nothing listens there/);
    const unknownHost = await runToExit({ DATABASE_URL: "postgresql://postgres@no-such-host.invalid:5432/x", DATA_DIR: path.join(temp, "unknown") });
    expectOneLine(unknownHost, /does not resolve; check DATABASE_URL's host/);
    const admin = new URL(PG_ADMIN_URL);
    admin.pathname = "/ext_no_such_database";
    admin.password = "s3cret";
    const missing = await runToExit({ DATABASE_URL: admin.toString(), DATA_DIR: path.join(temp, "missing") });
    expectOneLine(missing, /the database does not exist; create it/);
    expect(missing.output).not.toContain("s3cret"); // the password is never printed
  });

  test("a DATA_DIR that is a file, or not writable", async () => {
    const file = path.join(temp, "a-file");
    fs.writeFileSync(file, "x");
    expectOneLine(await runToExit({ DATA_DIR: file }), /DATA_DIR .*a-file is a file, not a directory/);
    expectOneLine(await runToExit({ DATA_DIR: path.join(file, "below") }), /DATA_DIR .* cannot be created: a path in it is a file/);

    // not writable: root writes anywhere, so a read-only mount stands in for a directory without the right
    const readOnly = path.join(temp, "read-only");
    fs.mkdirSync(readOnly);
    const root = process.getuid?.() === 0;
    if (root) execFileSync("mount", ["-t", "tmpfs", "-o", "ro,size=64k", "tmpfs", readOnly]);
    else fs.chmodSync(readOnly, 0o500);
    try {
      expectOneLine(await runToExit({ DATA_DIR: readOnly }), /DATA_DIR .*read-only is not writable by this user/);
      expectOneLine(await runToExit({ DATA_DIR: path.join(readOnly, "data") }), /DATA_DIR .* cannot be created/);
    } finally {
      if (root) execFileSync("umount", ["-l", readOnly]);
      else fs.chmodSync(readOnly, 0o700);
    }
  });

  test("missing migrations: a copy of the server without prisma/migrations", async () => {
    const copy = path.join(temp, "incomplete");
    fs.mkdirSync(path.join(copy, "prisma"), { recursive: true });
    fs.cpSync(path.join(ROOT, "dist"), path.join(copy, "dist"), { recursive: true });
    fs.copyFileSync(path.join(ROOT, "package.json"), path.join(copy, "package.json"));
    fs.copyFileSync(path.join(ROOT, "prisma/schema.prisma"), path.join(copy, "prisma/schema.prisma"));
    fs.symlinkSync(path.join(ROOT, "node_modules"), path.join(copy, "node_modules"));
    const result = await runToExit({ DATA_DIR: path.join(copy, "data") }, { entry: path.join(copy, "dist/main.js"), cwd: copy });
    expectOneLine(result, /no database migrations in .*incomplete\/prisma\/migrations/);
  });

  test("LOG_LEVEL=debug prints the trace too", async () => {
    const result = await runToExit({ DATABASE_URL: "postgresql://postgres@127.0.0.1:1/x", DATA_DIR: path.join(temp, "debug"), LOG_LEVEL: "debug" });
    expect(result.code).toBe(1);
    expect(result.output).toMatch(/^error: cannot use the database/m);
    expect(result.output).toMatch(/^\s+at /m);
  });
});

describe("one process per DATA_DIR", () => {
  test("a second server and ctl --offline refuse, naming the server; nothing is lost; a killed server's lock is recovered", async () => {
    // the embedded database in DATA_DIR: the case that lost a user
    const a = await spawnServer({});
    try {
      const serverJson = fs.readFileSync(path.join(a.dataDir, "server.json"), "utf8");
      const pid = a.child.pid!;

      const second = await runToExit({ DATA_DIR: a.dataDir });
      expectOneLine(second, new RegExp(`DATA_DIR .* is in use by a server \\(pid ${pid}, since .*\\): stop it first`));
      expect(second.ms).toBeLessThan(10_000); // at once, before the database or the server's modules
      // the running server's handle is untouched by the refused one
      expect(fs.readFileSync(path.join(a.dataDir, "server.json"), "utf8")).toBe(serverJson);

      const env = { DATA_DIR: a.dataDir };
      const offline = await runCtl(env, "user", "new", "yan", "yan@example.test", "--password", "pw-yan-12345", "--offline");
      expect(offline.code).toBe(1);
      expect(offline.out.trim()).toMatch(new RegExp(`^error: DATA_DIR .* is in use by a server \\(pid ${pid}.*ctl without --offline goes through the running server`));
      const through = await runCtl(env, "user", "new", "yan", "yan@example.test", "--password", "pw-yan-12345");
      expect(through.out).toContain(`created user yan (no roles) via server at ${a.url}`);

      // stopped cleanly: the lock goes with it; started again: yan is there
      expect(await a.signal("SIGTERM")).toBe(0);
      expect(fs.existsSync(path.join(a.dataDir, "process.lock"))).toBe(false);
      await a.start();
      expect((await fetch(`${a.url}/api/v1/accounts/lookup?acct=yan`)).status).toBe(200);

      // killed with -9: the lock stays, and the next start takes it over
      await a.signal("SIGKILL");
      expect(JSON.parse(fs.readFileSync(path.join(a.dataDir, "process.lock"), "utf8")).pid).toBe(a.child.pid);
      await a.start();
      expect((await fetch(`${a.url}/api/v1/accounts/lookup?acct=yan`)).status).toBe(200);
      expect(JSON.parse(fs.readFileSync(path.join(a.dataDir, "process.lock"), "utf8")).pid).toBe(a.child.pid);
    } finally {
      await a.close();
    }
  });

  test("a start that fails after taking the directory lets go of it", async () => {
    const busy = net.createServer();
    await new Promise<void>((r) => busy.listen(0, "127.0.0.1", () => r()));
    const dataDir = path.join(temp, "failed-start");
    try {
      const result = await runToExit({ PORT: String((busy.address() as net.AddressInfo).port), DATA_DIR: dataDir });
      expectOneLine(result, /is already in use/);
      expect(fs.existsSync(path.join(dataDir, "process.lock"))).toBe(false);
    } finally {
      busy.close();
    }
  });

  test("ctl --offline holds the directory while it works, and lets go after", async () => {
    const dataDir = path.join(temp, "ctl-only");
    const created = await runCtl({ DATA_DIR: dataDir }, "user", "new", "zed", "zed@example.test", "--password", "pw-zed-12345", "--offline");
    expect(created.out).toContain("created user zed (no roles) via database pglite");
    expect(fs.existsSync(path.join(dataDir, "process.lock"))).toBe(false);
  });
});
