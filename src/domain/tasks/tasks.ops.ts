// Long operator tasks (instance purge and refetch, pruning old remote statuses): a row in `tasks` records
// what was asked, how far it got (done/total) and where it stopped (cursor). A running server runs a task
// as a durable job (TASK_JOB), so it survives a restart; `ctl` without a server runs it in its own process.
// Asking again for a task whose key has an unfinished one attaches to it (still running) or resumes it
// from its cursor (failed, or abandoned by a process that died): nothing is done twice.
import { z } from "zod";
import { newId } from "../../db/ids.ts";
import type { Task } from "../../generated/prisma/client.ts";
import { requireAdmin } from "../auth/policy.ts";
import type { Services } from "../context.ts";
import { NotFound } from "../../kernel/errors.ts";
import { operation, parseInput } from "../operation.ts";
import { taskKinds, type TaskKindName } from "./kinds.ts";

export const TASK_JOB = "tasks.run";
/** A running task not heard from for this long was abandoned (its process died): asking again resumes it. */
export const TASK_STALE_MS = 60_000;

export interface TaskView {
  id: string;
  kind: string;
  key: string;
  params: unknown;
  state: Task["state"];
  done: number;
  total: number | null;
  result: unknown;
  error: string | null;
  createdAt: string;
  updatedAt: string;
}

export const taskView = (t: Task): TaskView => ({
  id: t.id,
  kind: t.kind,
  key: t.key,
  params: t.params,
  state: t.state,
  done: t.done,
  total: t.total,
  result: t.result ?? null,
  error: t.error,
  createdAt: t.createdAt.toISOString(),
  updatedAt: t.updatedAt.toISOString(),
});

/** How a start answered: a new task, one attached to (running elsewhere) or one resumed from its cursor. */
export type TaskStart = { task: TaskView; how: "started" | "attached" | "resumed"; runHere: boolean };

const kindName = z.enum(Object.keys(taskKinds) as [TaskKindName, ...TaskKindName[]]);

/**
 * Starts (or attaches to, or resumes) a task. `enqueue` (a running server) hands the work to the job
 * queue; otherwise the caller runs it (`runHere`) with runTask.
 */
export const startTask = operation({
  name: "tasks.start",
  input: z.object({ kind: kindName, params: z.record(z.string(), z.unknown()).default({}), enqueue: z.boolean().default(true) }),
  authorize: requireAdmin,
  async run(ctx, input): Promise<TaskStart> {
    const kind = taskKinds[input.kind];
    const params = parseInput(kind.params, input.params);
    const key = `${input.kind}:${kind.key(params as never)}`;
    const open = await ctx.db.task.findFirst({ where: { key, state: { not: "done" } }, orderBy: { createdAt: "desc" } });
    const now = ctx.clock();
    let task: Task;
    let how: TaskStart["how"];
    if (open && open.state === "running" && now.getTime() - open.updatedAt.getTime() < TASK_STALE_MS) {
      return { task: taskView(open), how: "attached", runHere: false };
    } else if (open) {
      task = await ctx.db.task.update({ where: { id: open.id }, data: { state: "running", error: null, updatedAt: now } });
      how = "resumed";
    } else {
      const prepared = await kind.begin(ctx, params as never);
      task = await ctx.db.task.create({ data: { id: newId(now.getTime()), kind: input.kind, key, params: prepared.params as object, total: prepared.total, createdAt: now, updatedAt: now } });
      how = "started";
    }
    if (input.enqueue) await ctx.jobs.enqueue(TASK_JOB, { taskId: task.id }, { attempts: 3 });
    return { task: taskView(task), how, runHere: !input.enqueue };
  },
});

export const showTask = operation({
  name: "tasks.show",
  input: z.object({ id: z.string() }),
  authorize: requireAdmin,
  async run(ctx, input): Promise<TaskView> {
    const task = await ctx.db.task.findUnique({ where: { id: input.id } });
    if (!task) throw NotFound(`No task ${input.id}`);
    return taskView(task);
  },
});

export const listTasks = operation({
  name: "tasks.list",
  input: z.object({}),
  authorize: requireAdmin,
  run: async (ctx): Promise<TaskView[]> => (await ctx.db.task.findMany({ orderBy: { createdAt: "desc" }, take: 50 })).map(taskView),
});

/**
 * Runs a task from where it stopped, recording progress after every batch (which also tells others it
 * is alive). A failure is recorded on the task and rethrown (the job queue retries it).
 */
export async function runTask(services: Services, taskId: string, onProgress?: (task: TaskView) => void): Promise<TaskView> {
  const { db } = services;
  const task = await db.task.findUniqueOrThrow({ where: { id: taskId } });
  if (task.state === "done") return taskView(task);
  if (task.state === "failed") await db.task.update({ where: { id: taskId }, data: { state: "running", error: null } }); // a retry of its job
  const kind = taskKinds[task.kind as TaskKindName];
  let done = task.done;
  const progress = async (delta: number, cursor?: string) => {
    done += delta;
    const row = await db.task.update({ where: { id: taskId }, data: { done, ...(cursor !== undefined ? { cursor } : {}), updatedAt: services.clock() } });
    onProgress?.(taskView(row));
  };
  try {
    const result = await kind.run(services, task.params as never, task.cursor, progress);
    const row = await db.task.update({ where: { id: taskId }, data: { state: "done", result: (result ?? null) as object, updatedAt: services.clock() } });
    onProgress?.(taskView(row));
    return taskView(row);
  } catch (error) {
    await db.task.update({ where: { id: taskId }, data: { state: "failed", error: error instanceof Error ? error.message : String(error), updatedAt: services.clock() } });
    throw error;
  }
}
