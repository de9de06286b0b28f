// Picks the job engine: BullMQ when a Redis URL is configured, else the database the server already has.
import type { Settings } from "../config/env.ts";
import { instanceKey } from "../config/instance-key.ts";
import type { PrismaClient } from "../generated/prisma/client.ts";
import { createDatabaseQueue, type DatabaseQueueOptions } from "./db-queue.ts";
import { createRedisQueue, type RedisQueueOptions } from "./redis-queue.ts";
import type { JobQueue } from "./queue.ts";

export type { Backoff, JobHandler, JobInfo, JobOptions, JobQueue } from "./queue.ts";
export type { DatabaseQueueOptions } from "./db-queue.ts";
export type { RedisQueueOptions } from "./redis-queue.ts";
export { createDatabaseQueue, createRedisQueue };

export interface JobQueueConfig {
  prisma: PrismaClient;
  /** e.g. process.env.REDIS_URL; empty or absent selects the database engine */
  redisUrl?: string;
  database?: DatabaseQueueOptions;
  redis?: RedisQueueOptions;
}

/** BullMQ's key prefix for one instance, so instances (and test runs) sharing a Redis never take each other's jobs. */
export function jobsPrefix(settings: Pick<Settings, "domain" | "databaseUrl">): string {
  return `bull:${instanceKey(settings)}`;
}

export function createJobQueue(config: JobQueueConfig): JobQueue {
  return config.redisUrl ? createRedisQueue(config.redisUrl, { outbox: config.prisma, ...config.redis }) : createDatabaseQueue(config.prisma, config.database);
}
