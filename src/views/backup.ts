// The family's account backups.
import type { Backup } from "../../src/generated/prisma/client.ts";
import type { Ctx } from "../../src/domain/context.ts";

/** The family's Backup entity (both variants: `state` and `processed_number` are the later one's). */
export function renderBackup(ctx: Ctx, b: Backup) {
  return {
    id: b.id,
    content_type: b.contentType,
    file_name: b.fileName,
    file_size: b.fileSize,
    inserted_at: b.createdAt.toISOString(),
    processed: b.processed,
    processed_number: b.processedNumber,
    state: b.state,
    url: `${ctx.settings.baseUrl}/api/v1/${ctx.settings.namespace}/backups/${b.id}/archive`,
  };
}
