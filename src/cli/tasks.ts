// Long tasks from ctl: start (or attach to, or resume) the task, then follow its progress until it ends —
// run here when no server runs, otherwise watched while the server's job does the work.
import type { TaskKindName } from "../domain/tasks/kinds.ts";
import type { TaskStart, TaskView } from "../domain/tasks/tasks.ops.ts";
import type { Backend } from "./backend.ts";
import { progressPrinter, type Output } from "./output.ts";

const POLL_MS = 300;

export async function runLongTask(backend: Backend, out: Output, kind: TaskKindName, params: Record<string, unknown>): Promise<TaskView> {
  const start = await backend.call<TaskStart>("tasks.start", { kind, params, enqueue: backend.remote });
  const verb = { started: "started", attached: "attached to running", resumed: "resuming" }[start.how];
  out.note(`${verb} task ${start.task.id} (${kind}) via ${backend.via}${start.how === "resumed" ? ` at ${start.task.done}${start.task.total === null ? "" : `/${start.task.total}`}` : ""}`);
  const bar = progressPrinter();
  bar.update(start.task);
  let task: TaskView;
  if (start.runHere) {
    try {
      task = await backend.runTask(start.task.id, (t) => bar.update(t));
    } catch (error) {
      throw new Error(`task ${start.task.id} failed: ${error instanceof Error ? error.message : String(error)} (run the same command again to resume it)`);
    }
  } else {
    task = start.task;
    while (task.state === "running") {
      await new Promise((r) => setTimeout(r, POLL_MS));
      task = await backend.call<TaskView>("tasks.show", { id: task.id });
      bar.update(task);
    }
  }
  if (task.state === "failed") throw new Error(`task ${task.id} failed: ${task.error} (run the same command again to resume it)`);
  return task;
}
