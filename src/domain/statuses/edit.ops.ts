// Editing a status (PUT /api/v1/statuses/:id), its edit history and its source text. The status row
// always holds the current version; each edit first copies the version it replaces into StatusEdit.
import { z } from "zod";
import { newId } from "../../db/ids.ts";
import type { Account, MediaAttachment, Poll, Prisma, Status } from "../../generated/prisma/client.ts";
import { requireAccount } from "../auth/policy.ts";
import { customEmojiIn } from "../emoji/emojify.ts";
import { Forbidden, NotFound, Unprocessable } from "../../kernel/errors.ts";
import type { Ctx } from "../context.ts";
import { array, bool, int } from "../inputs.ts";
import { attachableMedia } from "../media/media.ops.ts";
import { notify } from "../notifications/notify.ts";
import { federateStatus } from "../federation/outbox.ts";
import { operation } from "../operation.ts";
import { actionTarget } from "./actions.ops.ts";
import { formatStatus } from "./formatter.ts";
import { checkContent } from "./statuses.ops.ts";
import { getVisibleStatus } from "./statuses.read.ts";
import { text } from "../input-limits.ts";
import { statusUpdated } from "./status-cache.ts";
import { upsertTags } from "../tags/upsert-tags.ts";

/** Absent fields keep their current value. */
export const editInput = z.object({
  id: z.string(),
  status: text().optional(),
  spoiler_text: text().optional(),
  sensitive: bool().optional(),
  media_ids: array(z.string()).optional(),
  content_type: z.string().optional(),
  language: z.string().max(35).optional().nullable(),
  /** accepted when it repeats the current poll (clients send it back); polls cannot be changed */
  poll: z
    .object({
      options: array(z.string()),
      expires_in: int().optional(),
      multiple: bool().optional(),
      hide_totals: bool().optional(),
    })
    .optional()
    .nullable(),
});

function sameSet(a: readonly string[], b: readonly string[]) {
  return a.length === b.length && [...a].sort().join("\n") === [...b].sort().join("\n");
}

function checkPoll(asked: z.output<typeof editInput>["poll"], current: Poll | null) {
  if (!asked) return;
  const same = !!current && asked.options.length === current.options.length && asked.options.every((o, i) => o === current.options[i]) && (asked.multiple ?? false) === current.multiple;
  if (!same) throw Unprocessable("Validation failed: Polls cannot be changed by editing", { poll: "cannot be changed" });
}

/** Copies the version an edit replaces into the history (local and remote edits alike). */
export function keepVersion(tx: Prisma.TransactionClient, status: Status, mediaIds: string[]) {
  return tx.statusEdit.create({
    data: {
      id: newId(),
      statusId: status.id,
      content: status.content,
      source: status.source,
      spoilerText: status.spoilerText,
      sensitive: status.sensitive,
      mediaIds,
      createdAt: status.editedAt ?? status.createdAt,
    },
  });
}

/** What an edit sets off: `status_updated` for the streams, `mention` for the newly addressed, `update` for those who reblogged it. */
export async function statusEdited(ctx: Ctx, status: Status, newlyAddressed: readonly string[]): Promise<void> {
  statusUpdated(ctx, status.id);
  const rebloggers = await ctx.db.status.findMany({ where: { reblogOfId: status.id }, select: { accountId: true }, distinct: ["accountId"] });
  await notify(ctx, [
    ...newlyAddressed.map((accountId) => ({ accountId, type: "mention" as const, fromAccountId: status.accountId, statusId: status.id })),
    ...rebloggers.map((r) => ({ accountId: r.accountId, type: "update" as const, fromAccountId: status.accountId, statusId: status.id })),
  ]);
}

export const editStatus = operation({
  name: "statuses.edit",
  access: { scopes: ["write:statuses"] },
  input: editInput,
  authorize: requireAccount,
  async run(ctx, input): Promise<Status> {
    const me = requireAccount(ctx);
    const status = await getVisibleStatus(ctx, input.id);
    if (status.reblogOfId) throw NotFound("Record not found");
    if (status.accountId !== me.id) throw Forbidden("Access denied");

    const [currentMedia, poll] = await Promise.all([
      ctx.db.mediaAttachment.findMany({ where: { statusId: status.id }, orderBy: { id: "asc" }, select: { id: true } }),
      ctx.db.poll.findUnique({ where: { statusId: status.id } }),
    ]);
    const currentMediaIds = currentMedia.map((m) => m.id);
    checkPoll(input.poll, poll);
    const text = input.status ?? status.source;
    const wantedMedia = input.media_ids ?? currentMediaIds;
    checkContent(ctx, text, { media: wantedMedia.length, poll: !!poll });
    const media = await attachableMedia(ctx, me.id, wantedMedia, { statusId: status.id });
    const mediaIds = media.map((m) => m.id);
    const contentType = input.content_type ?? status.contentType;
    const formatted = await formatStatus(ctx, text, contentType);

    const next = {
      content: formatted.html,
      source: text,
      contentType,
      spoilerText: input.spoiler_text ?? status.spoilerText,
      sensitive: input.sensitive ?? status.sensitive,
      language: input.language === undefined ? status.language : input.language,
    };
    const changed = (Object.keys(next) as (keyof typeof next)[]).some((k) => next[k] !== status[k]) || !sameSet(mediaIds, currentMediaIds);
    if (!changed) return status;

    // mentions follow the new text (plus the replied-to author, as when posting); nobody addressed
    // before loses access: recipients only grow
    const mentionIds = [...new Set([...formatted.mentions.map((a) => a.id), ...(status.inReplyToAccountId && status.inReplyToAccountId !== me.id ? [status.inReplyToAccountId] : [])])];
    const newlyAddressed = mentionIds.filter((id) => !status.recipientIds.includes(id));
    const tags = await upsertTags(ctx, formatted.tags);
    const now = ctx.clock();

    const updated = await ctx.db.$transaction(async (tx) => {
      await keepVersion(tx, status, currentMediaIds);
      await tx.mention.deleteMany({ where: { statusId: status.id } });
      if (mentionIds.length) await tx.mention.createMany({ data: mentionIds.map((accountId) => ({ statusId: status.id, accountId })) });
      await tx.statusTag.deleteMany({ where: { statusId: status.id } });
      if (tags.length) await tx.statusTag.createMany({ data: tags.map((t) => ({ statusId: status.id, tagId: t.id })) });
      await tx.mediaAttachment.updateMany({ where: { statusId: status.id, id: { notIn: mediaIds } }, data: { statusId: null } });
      if (mediaIds.length) await tx.mediaAttachment.updateMany({ where: { id: { in: mediaIds } }, data: { statusId: status.id } });
      const emojis = customEmojiIn(ctx, next.source, next.spoilerText) as unknown as Prisma.InputJsonValue;
      return tx.status.update({ where: { id: status.id }, data: { ...next, emojis, recipientIds: [...status.recipientIds, ...newlyAddressed], editedAt: now } });
    });

    await statusEdited(ctx, updated, newlyAddressed);
    // federation: an Update goes out here
    if (updated.local) await federateStatus(ctx, "status.updated", updated);
    return updated;
  },
});

/** One version of a status, as the history lists it. */
export interface StatusVersion {
  content: string;
  spoilerText: string;
  sensitive: boolean;
  media: MediaAttachment[];
  createdAt: Date;
}

export interface StatusHistory {
  status: Status;
  account: Account;
  poll: Poll | null;
  /** oldest first, the current version last */
  versions: StatusVersion[];
}

/** Every version of a visible status, oldest first, including the current one (an unedited status has one). */
export const statusHistory = operation({
  name: "statuses.history",
  access: { scopes: ["read:statuses"], optional: true },
  input: z.object({ id: z.string() }),
  async run(ctx, input): Promise<StatusHistory> {
    const status = await actionTarget(ctx, input.id);
    const [edits, account, poll, current] = await Promise.all([
      ctx.db.statusEdit.findMany({ where: { statusId: status.id }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] }),
      ctx.db.account.findUniqueOrThrow({ where: { id: status.accountId } }),
      ctx.db.poll.findUnique({ where: { statusId: status.id } }),
      ctx.db.mediaAttachment.findMany({ where: { statusId: status.id }, orderBy: { id: "asc" } }),
    ]);
    const oldIds = [...new Set(edits.flatMap((e) => e.mediaIds))];
    const old = oldIds.length ? await ctx.db.mediaAttachment.findMany({ where: { id: { in: oldIds } } }) : [];
    const byId = new Map(old.map((m) => [m.id, m]));
    const versions: StatusVersion[] = [
      ...edits.map((e) => ({
        content: e.content,
        spoilerText: e.spoilerText,
        sensitive: e.sensitive,
        media: e.mediaIds.map((id) => byId.get(id)).filter((m): m is MediaAttachment => !!m),
        createdAt: e.createdAt,
      })),
      { content: status.content, spoilerText: status.spoilerText, sensitive: status.sensitive, media: current, createdAt: status.editedAt ?? status.createdAt },
    ];
    return { status, account, poll, versions };
  },
});

export interface StatusSource {
  id: string;
  text: string;
  spoilerText: string;
  contentType: string;
}

/** What the author typed, for editing; anyone who can see the status may read it, as in the family. */
export const statusSource = operation({
  name: "statuses.source",
  access: { scopes: ["read:statuses"], optional: true },
  input: z.object({ id: z.string() }),
  async run(ctx, input): Promise<StatusSource> {
    const status = await actionTarget(ctx, input.id);
    return { id: status.id, text: status.source, spoilerText: status.spoilerText, contentType: status.contentType };
  },
});

export const TRANSLATION_UNAVAILABLE = "Translation is not available on this server";

/**
 * Machine translation (the reference API's translate). No translation backend can be configured, so a
 * visible status answers "not found" for its translation, as the reference server does when none is set
 * up (and `configuration.translation.enabled` is false); an invisible one is simply not found.
 */
export const translateStatus = operation({
  name: "statuses.translate",
  access: { scopes: ["read:statuses"], optional: true },
  input: z.object({ id: z.string(), lang: z.string().max(35).optional().nullable() }),
  async run(ctx, input): Promise<never> {
    await actionTarget(ctx, input.id);
    throw NotFound(TRANSLATION_UNAVAILABLE);
  },
});
