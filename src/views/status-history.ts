// Reference API status edit history.
import type { Ctx } from "../../src/domain/context.ts";
import type { StatusHistory } from "../../src/domain/statuses/edit.ops.ts";
import { renderMedia } from "./media.ts";

export function renderStatusHistory(ctx: Ctx, history: StatusHistory, account: unknown) {
  const poll = history.poll ? { options: history.poll.options.map((title) => ({ title })) } : null;
  return history.versions.map((v) => ({
    content: v.content,
    spoiler_text: v.spoilerText,
    sensitive: v.sensitive,
    created_at: v.createdAt.toISOString(),
    account,
    poll,
    media_attachments: v.media.map((m) => renderMedia(ctx, m)),
    emojis: [],
  }));
}
