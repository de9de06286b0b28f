// Admin API: a moderation log entry.
import type { ModerationLogEntry } from "../../src/generated/prisma/client.ts";

export function renderLogEntry(e: ModerationLogEntry) {
  return { id: e.id, data: e.data, time: Math.floor(e.createdAt.getTime() / 1000), message: e.message };
}
