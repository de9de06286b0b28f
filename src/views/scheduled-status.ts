// The ScheduledStatus entity.
import type { MediaAttachment, ScheduledStatus } from "../../src/generated/prisma/client.ts";
import type { Ctx } from "../../src/domain/context.ts";
import { renderMedia } from "./media.ts";

export function renderScheduledStatus(ctx: Ctx, s: ScheduledStatus, media: MediaAttachment[] = []) {
  const params = s.params as Record<string, unknown>;
  return {
    id: s.id,
    scheduled_at: s.scheduledAt.toISOString(),
    params: {
      text: params.status ?? null,
      media_ids: s.mediaIds.length ? s.mediaIds : null,
      sensitive: params.sensitive ?? null,
      spoiler_text: params.spoiler_text ?? null,
      visibility: params.visibility ?? null,
      scheduled_at: null,
      poll: params.poll ?? null,
      idempotency: null,
      in_reply_to_id: params.in_reply_to_id ?? null,
      application_id: null,
      language: params.language ?? null,
      expires_in: params.expires_in ?? null,
    },
    media_attachments: media.map((m) => renderMedia(ctx, m)),
  };
}
