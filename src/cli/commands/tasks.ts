// ctl task …: the long tasks (instance purge/refetch, db prune) and how far they got.
import { need, type Command } from "../command.ts";
import type { TaskView } from "../../domain/tasks/tasks.ops.ts";

const line = (t: TaskView) => `${t.id}  ${t.kind}  ${t.key.split(":").slice(1).join(":")}  ${t.state}  ${t.done}${t.total === null ? "" : `/${t.total}`}  ${t.updatedAt}${t.error ? `  ${t.error}` : ""}`;

export const taskCommands: Record<string, Command> = {
  list: {
    usage: "",
    summary: "the 50 latest tasks, newest first (an unfinished one resumes when its command is run again)",
    async run(inv) {
      const tasks = await (await inv.backend()).call<TaskView[]>("tasks.list");
      inv.out.result(tasks, () => (tasks.length ? tasks.map(line) : "no tasks"));
    },
  },
  show: {
    usage: "<id>",
    summary: "one task: state, progress, result or error",
    async run(inv) {
      const [id] = need(inv, 1, "<id>");
      const t = await (await inv.backend()).call<TaskView>("tasks.show", { id });
      inv.out.result(t, () => [line(t), ...(t.result ? [`result: ${JSON.stringify(t.result)}`] : [])]);
    },
  },
};
