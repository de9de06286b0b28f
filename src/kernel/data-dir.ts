// The data directory: checked before any slow start-up work, and held by one process at a time.
//
// The embedded database admits one process; two on one data directory lost data (a second server replaced
// the first's server.json and removed it on stopping, and ctl then wrote to the embedded database behind
// the running server). With the embedded database, a server, and ctl when it opens the database itself,
// hold `<DATA_DIR>/process.lock` (with PostgreSQL, processes may share DATA_DIR's files: docs/deployment.md,
// and each removes only its own server.json): a file created
// exclusively (O_EXCL) holding the owner's pid. Another process finding it refuses with one line naming the
// owner. A lock whose process is gone (killed with -9) is taken over: the owner's pid no longer runs, or
// runs a program that is not Node (the pid was reused).
import fs from "node:fs";
import path from "node:path";
import { StartupError } from "./startup-error.ts";

const LOCK_FILE = "process.lock";

interface LockContent {
  pid: number;
  /** "server" or "ctl" */
  role: string;
  since: string;
}

/** Creates the directory if needed; a file in its place, or no right to write in it, is a StartupError. */
export function prepareDataDir(dir: string): void {
  if (fs.existsSync(dir) && !fs.statSync(dir).isDirectory()) throw new StartupError(`DATA_DIR ${dir} is a file, not a directory; set DATA_DIR to a directory`);
  try {
    fs.mkdirSync(dir, { recursive: true });
  } catch (error: any) {
    const what = error?.code === "EEXIST" || error?.code === "ENOTDIR" ? "a path in it is a file, not a directory" : error?.code === "EACCES" || error?.code === "EPERM" ? "no permission to create it" : error?.message;
    throw new StartupError(`DATA_DIR ${dir} cannot be created: ${what}; set DATA_DIR to a directory this user can write`);
  }
  try {
    fs.accessSync(dir, fs.constants.W_OK | fs.constants.X_OK);
  } catch {
    throw new StartupError(`DATA_DIR ${dir} is not writable by this user; fix its permissions or set DATA_DIR to another directory`);
  }
}

const held = new Map<string, { content: string; holders: number }>();

/**
 * Holds `dir` for this process (`role` names it in the refusal others get); resolves with the release.
 * Holding it again from the same process (npm start, then the server it starts) counts, and the file goes
 * with the last release.
 */
export function holdDataDir(dir: string, role: "server" | "ctl"): () => void {
  const file = path.join(dir, LOCK_FILE);
  const mine = held.get(file);
  if (mine) mine.holders++;
  else {
    held.set(file, { content: acquire(file, role), holders: 1 });
    // a process that exits without releasing (a start-up failure, the shutdown's deadline) lets go too
    if (held.size === 1) process.once("exit", releaseAll);
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const entry = held.get(file);
    if (!entry || --entry.holders > 0) return;
    held.delete(file);
    if (held.size === 0) process.removeListener("exit", releaseAll);
    removeOwn(file, entry.content);
  };
}

/** Removes the lock only while it is still ours (never one another process took over). */
function removeOwn(file: string, content: string) {
  try {
    if (fs.readFileSync(file, "utf8") === content) fs.rmSync(file);
  } catch {
    /* already gone */
  }
}

function releaseAll() {
  for (const [file, entry] of held) removeOwn(file, entry.content);
  held.clear();
}

function acquire(file: string, role: string): string {
  const content = JSON.stringify({ pid: process.pid, role, since: new Date().toISOString() } satisfies LockContent);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      fs.writeFileSync(file, content, { flag: "wx", mode: 0o600 });
      return content;
    } catch (error: any) {
      if (error?.code !== "EEXIST") throw new StartupError(`DATA_DIR ${path.dirname(file)}: cannot write ${LOCK_FILE} (${error?.code ?? error?.message}); fix its permissions or set DATA_DIR to another directory`);
    }
    const owner = readOwner(file);
    if (owner && owner.pid !== process.pid && running(owner.pid)) {
      throw new StartupError(
        `DATA_DIR ${path.dirname(file)} is in use by a ${owner.role} (pid ${owner.pid}, since ${owner.since}): stop it first, or use another DATA_DIR` +
          (role === "ctl" ? " (ctl without --offline goes through the running server)" : ""),
      );
    }
    // the owner is gone (killed with -9, or the file is unreadable half-written debris): take it over
    fs.rmSync(file, { force: true });
  }
  throw new StartupError(`DATA_DIR ${path.dirname(file)}: another process keeps taking ${LOCK_FILE}; is a second server starting on it?`);
}

function readOwner(file: string): LockContent | undefined {
  try {
    const owner = JSON.parse(fs.readFileSync(file, "utf8"));
    return Number.isInteger(owner?.pid) ? owner : undefined;
  } catch {
    return undefined;
  }
}

/** Whether `pid` is a live Node process (a reused pid running something else is not our owner). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error: any) {
    if (error?.code !== "EPERM") return false; // ESRCH: no such process
  }
  try {
    // Linux: a zombie (killed, not yet reaped) has state Z, and a reused pid another command line
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    if (stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z")) return false; // (the command name may hold ")")
    const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8");
    return /node/i.test(cmdline);
  } catch {
    return true; // no /proc (not Linux): the pid answering is all we know
  }
}
