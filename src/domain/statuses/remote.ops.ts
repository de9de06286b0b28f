// Statuses received from other servers: stored, edited and deleted with the same side effects as local
// posting (statuses.ops.ts `statusStored`), editing (edit.ops.ts) and deleting (`removeStatus`), so
// timelines, notifications, streams and subscriptions show them as they show local ones. Remote polls
// keep the counts their server reports; a remote vote on a local poll is a PollVote of the remote account.
import { newId } from "../../db/ids.ts";
import { insertModelRow, isUniqueViolation } from "../../db/model-rows.ts";
import type { Account, Poll, Prisma, Status, Visibility } from "../../generated/prisma/client.ts";
import type { Ctx } from "../context.ts";
import { rememberRemoteEmojis, type RemoteEmoji } from "../emoji/remote-emoji.ts";
import { keepVersion, statusEdited } from "./edit.ops.ts";
import { removeStatus, statusNotifications, statusStored } from "./statuses.ops.ts";
import { upsertTags } from "../tags/upsert-tags.ts";
import { notify } from "../notifications/notify.ts";
import { inTransaction } from "../transaction.ts";
import { CLOSE_POLL_JOB } from "./statuses.job-names.ts";
import { statusUpdated } from "./status-cache.ts";

export interface RemoteMedia {
  url: string;
  mimeType: string;
  /** image, video, audio, gifv or unknown */
  type: string;
  description: string | null;
  blurhash: string | null;
  focus: { x: number; y: number } | null;
}

export interface RemotePoll {
  options: string[];
  multiple: boolean;
  expiresAt: Date | null;
  closedAt: Date | null;
  /** votes per option, as the poll's server counts them */
  counts: number[];
  votersCount: number | null;
}

export interface RemoteStatusData {
  uri: string;
  url: string | null;
  accountId: string;
  /** Note, Article, Page, Question */
  objectType: string;
  /** sanitized HTML */
  content: string;
  /** the source the author wrote (`source.content`, `_misskey_content`), when the server sends it */
  source: string;
  contentType: string;
  spoilerText: string;
  sensitive: boolean;
  visibility: Visibility;
  /** local (and known remote) accounts addressed: who may see a private or direct status */
  recipientIds: string[];
  /** accounts mentioned (tagged) and known here */
  mentionIds: string[];
  /** lower-case hashtag names */
  tags: string[];
  emojis: RemoteEmoji[];
  /** the parent, when stored here */
  inReplyTo: Pick<Status, "id" | "accountId" | "context"> | null;
  /** the quoted status, when stored here */
  quoteId: string | null;
  /** the thread id the remote server gave (`context` / `conversation`), used when the parent is unknown */
  context: string | null;
  language: string | null;
  createdAt: Date;
  editedAt: Date | null;
  media: RemoteMedia[];
  poll: RemotePoll | null;
  /** the author's `last_status_at` as read with its row, when the caller has it (saves re-writing it) */
  authorLastStatusAt?: Date | null;
}

function emojiColumn(emojis: RemoteEmoji[]) {
  return emojis.map((e) => ({ shortcode: e.shortcode, url: e.url })) as unknown as Prisma.InputJsonValue;
}

async function authorDomain(ctx: Ctx, accountId: string) {
  return (await ctx.db.account.findUniqueOrThrow({ where: { id: accountId }, select: { domain: true } })).domain ?? ctx.settings.domain;
}

/**
 * Stores a remote status once (by its `uri`: a second delivery answers the stored one unchanged) and
 * sets off what a local post does: mentions' notifications, subscribers' `status` notifications, the
 * direct conversation, `status_created` for streams and subscriptions.
 */
export async function storeRemoteStatus(ctx: Ctx, data: RemoteStatusData): Promise<Status> {
  // no look-up first: callers have looked (rememberObject), and a repeated delivery hits the unique `uri` below
  const id = newId();
  const tags = await upsertTags(ctx, data.tags);
  const mentionIds = [...new Set(data.mentionIds)];
  const poll = data.poll ? pollRow(data.poll) : null;
  const row: Prisma.StatusUncheckedCreateInput = {
    id,
    uri: data.uri,
    url: data.url,
    accountId: data.accountId,
    local: false,
    inReplyToId: data.inReplyTo?.id ?? null,
    inReplyToAccountId: data.inReplyTo?.accountId ?? null,
    quoteId: data.quoteId,
    content: data.content,
    source: data.source,
    contentType: data.contentType,
    objectType: data.objectType,
    spoilerText: data.spoilerText,
    sensitive: data.sensitive,
    visibility: data.visibility,
    language: data.language,
    context: data.inReplyTo?.context ?? data.context ?? data.uri,
    recipientIds: [...new Set([...data.recipientIds, ...mentionIds])],
    emojis: emojiColumn(data.emojis),
    editedAt: data.editedAt,
    createdAt: data.createdAt,
    // nested writes only when there is something to write (Prisma makes a nested create atomic itself)
    ...(mentionIds.length ? { mentions: { create: mentionIds.map((accountId) => ({ accountId })) } } : {}),
    ...(tags.length ? { tags: { create: tags.map((t) => ({ tagId: t.id })) } } : {}),
    ...(poll ? { poll: { create: poll } } : {}),
  };
  let created: Status;
  // a post that mentions someone stores their notifications (and a poll its closing job) in its own
  // transaction: a repeated delivery after a crash finds the status stored and notifies no one
  // (src/domain/transaction.ts)
  const closes = poll?.expiresAt && !poll.closedAt ? poll.expiresAt : null;
  const notified = data.media.length > 0 || mentionIds.length > 0 || !!closes;
  try {
    // one statement for a plain post; a transaction only when attachments, mentions or a poll go with it
    created = notified
      ? await inTransaction(ctx, async (tx) => {
          const status = await tx.db.status.create({ data: row });
          if (data.media.length) await tx.db.mediaAttachment.createMany({ data: data.media.map((m) => mediaRow(data.accountId, status.id, m)) });
          await notify(tx, await statusNotifications(tx, status, mentionIds));
          if (closes) await tx.jobs.enqueue(CLOSE_POLL_JOB, { pollId: poll!.id }, { runAt: closes });
          return status;
        })
      : tags.length || data.poll
        ? await ctx.db.status.create({ data: row })
        : // the common case, a post without mentions, tags or poll (once per inbox Create): one INSERT
          // through the driver, the same row Prisma would write (updatedAt is Prisma's @updatedAt)
          ((await insertModelRow(ctx.db, "Status", { ...row, updatedAt: new Date() })) as Status);
  } catch (error) {
    // the same object delivered twice (at once, or again): the stored one answers
    if (isUniqueViolation(error)) {
      const winner = await ctx.db.status.findUnique({ where: { uri: data.uri } });
      if (winner) return winner;
    }
    throw error;
  }
  if (data.emojis.length) await rememberRemoteEmojis(ctx, await authorDomain(ctx, data.accountId), data.emojis);
  return statusStored(ctx, created, mentionIds, data.authorLastStatusAt === undefined ? undefined : { lastStatusAt: data.authorLastStatusAt }, notified);
}

function pollRow(p: RemotePoll) {
  return { id: newId(), options: p.options, multiple: p.multiple, expiresAt: p.expiresAt, closedAt: p.closedAt, remoteCounts: p.counts, remoteVotersCount: p.votersCount };
}

function mediaRow(accountId: string, statusId: string, m: RemoteMedia): Prisma.MediaAttachmentCreateManyInput {
  return {
    id: newId(),
    accountId,
    statusId,
    type: m.type,
    mimeType: m.mimeType,
    url: m.url,
    remoteUrl: m.url,
    description: m.description,
    blurhash: m.blurhash,
    focusX: m.focus?.x ?? null,
    focusY: m.focus?.y ?? null,
  };
}

/**
 * An Update of a remote status: the replaced version goes to the edit history (as a local edit does),
 * the poll takes the reported counts, and the edit's side effects follow. An Update that changes
 * nothing visible (a poll count update, a repeated delivery) records no version.
 */
export async function updateRemoteStatus(ctx: Ctx, status: Status, data: RemoteStatusData): Promise<Status> {
  const [currentMedia, poll] = await Promise.all([
    ctx.db.mediaAttachment.findMany({ where: { statusId: status.id }, orderBy: { id: "asc" } }),
    ctx.db.poll.findUnique({ where: { statusId: status.id } }),
  ]);
  const next = { content: data.content, source: data.source, spoilerText: data.spoilerText, sensitive: data.sensitive, language: data.language };
  const sameMedia = currentMedia.length === data.media.length && currentMedia.every((m, i) => m.remoteUrl === data.media[i].url && m.description === data.media[i].description);
  const changed = (Object.keys(next) as (keyof typeof next)[]).some((k) => next[k] !== status[k]) || !sameMedia;
  if (poll && data.poll) await updateRemotePoll(ctx, poll, data.poll);
  if (!changed) return status;

  const mentionIds = [...new Set(data.mentionIds)];
  const newlyAddressed = mentionIds.filter((id) => !status.recipientIds.includes(id));
  const tags = await upsertTags(ctx, data.tags);
  const updated = await ctx.db.$transaction(async (tx) => {
    await keepVersion(tx, status, currentMedia.map((m) => m.id));
    await tx.mention.deleteMany({ where: { statusId: status.id } });
    if (mentionIds.length) await tx.mention.createMany({ data: mentionIds.map((accountId) => ({ statusId: status.id, accountId })) });
    await tx.statusTag.deleteMany({ where: { statusId: status.id } });
    if (tags.length) await tx.statusTag.createMany({ data: tags.map((t) => ({ statusId: status.id, tagId: t.id })) });
    if (!sameMedia) {
      // the old attachments stay (unattached) for the history's versions
      await tx.mediaAttachment.updateMany({ where: { statusId: status.id }, data: { statusId: null } });
      if (data.media.length) await tx.mediaAttachment.createMany({ data: data.media.map((m) => mediaRow(status.accountId, status.id, m)) });
    }
    return tx.status.update({
      where: { id: status.id },
      data: { ...next, emojis: emojiColumn(data.emojis), recipientIds: [...new Set([...status.recipientIds, ...newlyAddressed])], editedAt: data.editedAt ?? ctx.clock() },
    });
  });
  await rememberRemoteEmojis(ctx, await authorDomain(ctx, status.accountId), data.emojis);
  await statusEdited(ctx, updated, newlyAddressed);
  return updated;
}

/** A remote poll's new counts (and closing); the poll's status is announced as updated when they changed. */
async function updateRemotePoll(ctx: Ctx, poll: Poll, p: RemotePoll): Promise<void> {
  const same = poll.remoteCounts.join(",") === p.counts.join(",") && poll.remoteVotersCount === p.votersCount && (poll.closedAt === null) === (p.closedAt === null);
  if (same) return;
  await ctx.db.poll.update({ where: { id: poll.id }, data: { remoteCounts: p.counts, remoteVotersCount: p.votersCount, closedAt: p.closedAt ?? poll.closedAt, expiresAt: p.expiresAt ?? poll.expiresAt } });
  statusUpdated(ctx, poll.statusId);
}

/** A Delete of a remote status by its author: removed as a local deletion is (with its reblogs, `status_deleted` for each). */
export async function deleteRemoteStatus(ctx: Ctx, author: Account, uri: string): Promise<boolean> {
  const status = await ctx.db.status.findUnique({ where: { uri } });
  if (!status || status.accountId !== author.id) return false;
  await removeStatus(ctx, status);
  return true;
}

/**
 * A remote account's vote on a local poll (a `Create` of a Note whose `name` is an option): a PollVote
 * as a local vote is, once per option; single-choice polls keep the first answer. Answers whether it counted.
 */
export async function remotePollVote(ctx: Ctx, voter: Account, poll: Poll, optionName: string): Promise<boolean> {
  const choice = poll.options.indexOf(optionName.trim());
  if (choice < 0) return false;
  if (poll.closedAt || (poll.expiresAt && poll.expiresAt <= ctx.clock())) return false;
  const status = await ctx.db.status.findUnique({ where: { id: poll.statusId }, select: { accountId: true } });
  if (!status || status.accountId === voter.id) return false;
  const counted = await ctx.db.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM polls WHERE id = ${poll.id} FOR UPDATE`;
    const earlier = await tx.pollVote.findMany({ where: { pollId: poll.id, accountId: voter.id }, select: { choice: true } });
    if (earlier.some((v) => v.choice === choice) || (!poll.multiple && earlier.length > 0)) return false;
    await tx.pollVote.create({ data: { id: newId(), pollId: poll.id, accountId: voter.id, choice } });
    return true;
  });
  if (counted) statusUpdated(ctx, poll.statusId);
  // federation: the poll's new counts go out as an Update of the Question here
  return counted;
}
