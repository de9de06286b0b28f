// The job that runs a task in a server (src/domain/tasks/tasks.ops.ts).
import type { JobDefinition } from "../../jobs/registry.ts";
import { runTask, TASK_JOB } from "./tasks.ops.ts";

export const taskJobs: JobDefinition[] = [{ name: TASK_JOB, handler: (services) => async (payload: { taskId: string }) => void (await runTask(services, payload.taskId)) }];
