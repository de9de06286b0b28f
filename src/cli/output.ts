// What ctl prints: results for people (short lines) or, with --json, one JSON document on stdout for
// scripts; progress of long tasks on stderr (a bar redrawn in place on a terminal, plain lines otherwise).
import type { TaskView } from "../domain/tasks/tasks.ops.ts";

export interface Output {
  json: boolean;
  /** the result: `human` renders it as lines unless --json */
  result(value: unknown, human: () => string | string[]): void;
  /** a remark about what happens (stderr, so --json output stays one document) */
  note(line: string): void;
}

export function createOutput(json: boolean): Output {
  return {
    json,
    result(value, human) {
      if (json) console.log(JSON.stringify(value, null, 2));
      else {
        const lines = human();
        console.log(Array.isArray(lines) ? lines.join("\n") : lines);
      }
    },
    note: (line) => console.error(line),
  };
}

const WIDTH = 30;

/** Renders task progress; on a TTY one bar redrawn in place, otherwise one line per change. */
export function progressPrinter(stream: NodeJS.WriteStream = process.stderr) {
  let last = "";
  return {
    update(task: TaskView) {
      const total = task.total ?? 0;
      const ratio = total > 0 ? Math.min(1, task.done / total) : task.state === "done" ? 1 : 0;
      const count = task.total === null ? `${task.done}` : `${task.done}/${task.total}`;
      const text = `${count} (${Math.round(ratio * 100)}%) ${task.state}`;
      if (text === last) return;
      last = text;
      if (stream.isTTY) {
        const filled = Math.round(ratio * WIDTH);
        stream.write(`\r[${"#".repeat(filled)}${"-".repeat(WIDTH - filled)}] ${text}\x1b[K`);
        if (task.state !== "running") stream.write("\n");
      } else stream.write(`progress: ${text}\n`);
    },
  };
}

export const roles = (u: { isAdmin: boolean; isModerator: boolean }) => [u.isAdmin && "admin", u.isModerator && "moderator"].filter(Boolean).join(", ") || "no roles";
