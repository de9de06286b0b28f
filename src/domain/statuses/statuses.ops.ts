// Posting and deleting statuses. Visibility rules live in visibility.ts, text in formatter.ts.
import { z } from "zod";
import { newId } from "../../db/ids.ts";
import type { Account, Prisma, Status, Visibility } from "../../generated/prisma/client.ts";
import { requireAccount } from "../auth/policy.ts";
import type { Ctx } from "../context.ts";
import { Forbidden, NotFound, Unprocessable } from "../../kernel/errors.ts";
import { array, bool, int } from "../inputs.ts";
import { conversationReplyTarget, recordDirectStatus } from "../conversations/conversations.ops.ts";
import { customEmojiIn } from "../emoji/emojify.ts";
import { listMemberIds } from "../lists/lists.ops.ts";
import { attachableMedia } from "../media/media.ops.ts";
import { notify, subscriberNotifications, type NotificationInput } from "../notifications/notify.ts";
import { afterCommit, inTransaction } from "../transaction.ts";
import { upsertTags } from "../tags/upsert-tags.ts";
import { deletedStatuses } from "../streams/streams.read.ts";
import { deletedStatusSnapshot, federate, federatedVisibility, federateStatus } from "../federation/outbox.ts";
import { operation } from "../operation.ts";
import { filterLocalStatus } from "../federation/policy/index.ts";
import { formatStatus } from "./formatter.ts";
import { CLOSE_POLL_JOB, EXPIRE_STATUS_JOB, PUBLISH_SCHEDULED_JOB } from "./statuses.job-names.ts";
import { canSee, viewerContext } from "./visibility.ts";
import { quoteTarget } from "./quotes.ops.ts";
import { text } from "../input-limits.ts";
import { allStatusesChanged, statusesChanged } from "./status-cache.ts";
import { statusCountsChanged } from "../accounts/account-counts.ts";
import { accountsByName } from "../../db/account-names.ts";

const HOUR_S = 60 * 60;
/** Idempotency keys are honoured this long, as in the reference API. */
const IDEMPOTENCY_MS = 60 * 60 * 1000;
/** A scheduled status must be at least this far in the future. */
const MIN_SCHEDULE_MS = 5 * 60 * 1000;

export const postInput = z.object({
  status: text().optional(),
  media_ids: array(z.string()).optional(),
  poll: z
    .object({
      options: array(z.string()),
      expires_in: int(),
      multiple: bool().optional(),
      hide_totals: bool().optional(),
    })
    .optional(),
  in_reply_to_id: z.string().optional().nullable(),
  sensitive: bool().optional(),
  spoiler_text: text().optional(),
  visibility: z.string().regex(/^(public|unlisted|private|direct|local|list:.+)$/, "is invalid").optional(),
  scheduled_at: z.iso.datetime({ offset: true }).optional(),
  language: z.string().max(35).optional().nullable(),
  content_type: z.string().optional(),
  /** explicit addressing: nicknames replacing the mentions as recipients */
  to: array(z.string()).optional(),
  /** seconds until the status is deleted (must be over an hour) */
  expires_in: int().optional(),
  /** render without storing */
  preview: bool().optional(),
  in_reply_to_conversation_id: z.string().optional(),
  /** the status quoted: the family's name… */
  quote_id: z.string().optional().nullable(),
  /** …and the reference server's */
  quoted_status_id: z.string().optional().nullable(),
  /** the Idempotency-Key header, passed by the surface */
  idempotency_key: z.string().max(256).optional(),
});
export type PostInput = z.input<typeof postInput>;

/** The status as it would be stored (unsaved in a preview); `mentions` are the addressed accounts. */
export interface Draft {
  status: Status;
  mentions: Account[];
  tags: string[];
  mediaIds: string[];
  poll?: Prisma.PollCreateWithoutStatusInput;
}

function parseVisibility(value: string | undefined, fallback: string): { visibility: Visibility; listId: string | null } {
  const v = value ?? fallback;
  if (v.startsWith("list:")) return { visibility: "list", listId: v.slice(5) };
  return { visibility: v as Visibility, listId: null };
}

/** The member ids of the author's own list named by `list:<id>`; 422 "List not found" otherwise. */
async function listAudience(ctx: Ctx, me: Account, listId: string | null): Promise<string[]> {
  const list = listId ? await ctx.db.list.findFirst({ where: { id: listId, accountId: me.id }, select: { id: true } }) : null;
  if (!list) throw Unprocessable("List not found", { visibility: "unknown list" });
  return listMemberIds(ctx, list.id);
}

async function loadParent(ctx: Ctx, id: string | null | undefined) {
  if (!id) return null;
  const parent = await ctx.db.status.findUnique({ where: { id }, include: { account: true } });
  if (!parent || parent.reblogOfId) throw NotFound("Record not found");
  const v = await viewerContext(ctx, [parent.accountId]);
  if (!canSee(v, parent)) throw NotFound("Record not found");
  return parent;
}

/** What every version of a status must satisfy (posting and editing): some content, the length limit, no poll with media. */
export function checkContent(ctx: Ctx, text: string, has: { media: number; poll: boolean }): void {
  const limit = ctx.config.get("instance", "limit");
  if (!text.trim() && has.media === 0 && !has.poll) throw Unprocessable("Validation failed: Text can't be blank", { status: "can't be blank" });
  if ([...text].length > limit) throw Unprocessable(`Validation failed: Text is too long (limit ${limit} characters)`, { status: "is too long" });
  if (has.poll && has.media) throw Unprocessable("Validation failed: A poll cannot have media attached", { poll: "cannot have media" });
}

/** Validates and builds the status; nothing is written. */
async function draft(ctx: Ctx, me: Account, input: z.output<typeof postInput>): Promise<Draft> {
  const limits = ctx.config.group("instance");
  const text = input.status ?? "";
  const mediaIds = input.media_ids ?? [];
  checkContent(ctx, text, { media: mediaIds.length, poll: !!input.poll });
  if (input.expires_in !== undefined && input.expires_in <= HOUR_S)
    throw Unprocessable("Validation failed: Expiry date is too soon, the status must live longer than one hour", { expires_in: "must be longer than an hour" });
  // a reply to a conversation: direct, to the poster's recipients of it, after its newest status
  const convo = input.in_reply_to_conversation_id ? await conversationReplyTarget(ctx, me, input.in_reply_to_conversation_id) : null;

  const parent = convo ? convo.parent : await loadParent(ctx, input.in_reply_to_id);
  const quoted = await quoteTarget(ctx, input.quote_id ?? input.quoted_status_id);
  const { visibility, listId } = convo ? { visibility: "direct" as const, listId: null } : parseVisibility(input.visibility, me.defaultScope);
  // `list:<id>`: one of the author's own lists; its members (and, as in the family, the mentioned accounts) are the recipients
  const listMembers = visibility === "list" ? await listAudience(ctx, me, listId) : null;
  const contentType = input.content_type ?? "text/plain";
  const formatted = await formatStatus(ctx, text, contentType);

  // `to` replaces implicit addressing by mentions; visibility rules still apply to the result
  let recipients = convo ? convo.recipients : formatted.mentions;
  if (input.to && !convo) {
    const nicks = input.to.map((n) => n.replace(/^@/, "").toLowerCase());
    recipients = await accountsByName(ctx.db, { nicknames: nicks, active: true });
  }
  if (parent && !convo && parent.accountId !== me.id && !recipients.some((r) => r.id === parent.accountId) && !input.to) recipients = [...recipients, parent.account];

  const id = newId();
  const now = ctx.clock();
  const status: Status = {
    id,
    uri: `${ctx.settings.baseUrl}/objects/${id}`,
    url: `${ctx.settings.baseUrl}/notice/${id}`,
    accountId: me.id,
    local: true,
    inReplyToId: parent?.id ?? null,
    inReplyToAccountId: parent?.accountId ?? null,
    reblogOfId: null,
    content: formatted.html,
    source: text,
    contentType,
    objectType: "Note",
    spoilerText: input.spoiler_text ?? "",
    emojis: customEmojiIn(ctx, text, input.spoiler_text) as unknown as Prisma.JsonValue,
    sensitive: input.sensitive ?? false,
    visibility,
    listId,
    language: input.language ?? null,
    context: parent?.context ?? `${ctx.settings.baseUrl}/contexts/${id}`,
    applicationId: ctx.viewer.app?.id ?? null,
    recipientIds: listMembers ? [...new Set([...listMembers, ...recipients.map((r) => r.id)])] : recipients.map((r) => r.id),
    expiresAt: input.expires_in !== undefined ? new Date(now.getTime() + input.expires_in * 1000) : null,
    editedAt: null,
    pinnedAt: null,
    directConversationId: convo?.conversationId ?? null,
    idempotencyKey: input.idempotency_key ?? null,
    quoteId: quoted?.id ?? null,
    createdAt: now,
    updatedAt: now,
  };

  let poll: Prisma.PollCreateWithoutStatusInput | undefined;
  if (input.poll) {
    const pl = limits.poll_limits;
    const options = input.poll.options;
    if (options.length < 2 || options.length > pl.max_options) throw Unprocessable(`Validation failed: A poll needs 2 to ${pl.max_options} options`, { poll: "wrong number of options" });
    if (options.some((o) => !o.trim() || [...o].length > pl.max_option_chars)) throw Unprocessable(`Validation failed: Poll options must be 1 to ${pl.max_option_chars} characters`, { poll: "option too long" });
    if (input.poll.expires_in < pl.min_expiration || input.poll.expires_in > pl.max_expiration)
      throw Unprocessable(`Validation failed: Poll expiry must be between ${pl.min_expiration} and ${pl.max_expiration} seconds`, { poll: "expiry out of range" });
    poll = {
      id: newId(),
      options,
      multiple: input.poll.multiple ?? false,
      hideTotals: input.poll.hide_totals ?? false,
      expiresAt: new Date(now.getTime() + input.poll.expires_in * 1000),
    };
  }
  // the content policies (the family's MRF) run on local posts too: KeywordPolicy and HashtagPolicy
  const subject = { content: status.content, source: status.source, spoilerText: status.spoilerText, sensitive: status.sensitive, visibility: status.visibility, tags: formatted.tags, poll: poll ? { options: poll.options as string[] } : null };
  const filtered = filterLocalStatus(ctx.config, subject);
  if (!filtered.ok) throw Unprocessable(filtered.reason);
  const kept = filtered.value;
  return { status: { ...status, content: kept.content, source: kept.source, spoilerText: kept.spoilerText, sensitive: kept.sensitive, visibility: kept.visibility }, mentions: recipients, tags: formatted.tags, mediaIds, poll };
}

/**
 * Whether a new status moves its author's `last_status_at`. The API shows that column as a date (as the
 * reference API does), so when the caller knows the author's current value and it is already that day
 * (or later: a late delivery of an older status), the write is skipped: on a busy account or a busy
 * inbox it is one statement per status saved. Unknown (no author given): always written.
 */
function lastStatusDateMoves(author: { lastStatusAt: Date | null } | undefined, createdAt: Date): boolean {
  const known = author?.lastStatusAt;
  if (!author || !known) return true;
  return known.toISOString().slice(0, 10) < createdAt.toISOString().slice(0, 10);
}

/**
 * What every new status sets off, posted here or received from another server: its direct
 * conversation, the `status_created` event (streams, subscriptions), the author's last status date,
 * the mentioned accounts' notifications and the author's subscribers' `status` notifications.
 */
export async function statusStored(
  ctx: Ctx,
  stored: Status,
  mentionIds: readonly string[],
  author?: { lastStatusAt: Date | null },
  /** the notifications were stored in the status's own transaction (statusNotifications) */
  notified = false,
): Promise<Status> {
  const status = await recordDirectStatus(ctx, stored); // joins or starts the direct conversation
  ctx.bus.publish("status_created", { statusId: status.id, accountId: status.accountId });
  statusesChanged(ctx, [status.inReplyToId]); // the parent's replies_count
  statusCountsChanged(ctx, [status]); // the author's statuses_count
  if (lastStatusDateMoves(author, status.createdAt)) {
    // updateMany: the row is not wanted back (an update would read every column of it)
    await ctx.db.account.updateMany({ where: { id: status.accountId }, data: { lastStatusAt: status.createdAt } });
  }
  if (!notified) await notify(ctx, await statusNotifications(ctx, status, mentionIds));
  return status;
}

/** A new status's notifications: its mentions', and its author's subscribers' `status` ones (also when a scheduled status is published). */
export async function statusNotifications(ctx: Ctx, status: Status, mentionIds: readonly string[]): Promise<NotificationInput[]> {
  const mentions = mentionIds.map((accountId) => ({ accountId, type: "mention" as const, fromAccountId: status.accountId, statusId: status.id }));
  return [...mentions, ...(await subscriberNotifications(ctx, status, mentionIds))];
}

/** Stores a drafted status with its mentions, tags, media and poll; schedules its expiry. */
async function store(ctx: Ctx, d: Draft): Promise<Status> {
  const me = requireAccount(ctx);
  const media = await attachableMedia(ctx, me.id, d.mediaIds, { statusId: d.status.id });
  const tags = await upsertTags(ctx, d.tags);
  // always one transaction, even for a status alone (a single INSERT would do): when the transaction runs
  // out of time the request answers 503 and nothing is stored, whatever the post carries (test/faults/overload;
  // src/db/closed-transactions.ts) — a bare INSERT has no time limit, so a cheaper path for plain posts has to
  // come with its own answer to an overloaded database
  // the status, its notifications and its jobs (expiry, poll closing, federation, push) commit together
  // (src/domain/transaction.ts)
  const stored = await inTransaction(ctx, async (txCtx) => {
    const tx = txCtx.db;
    const created = await tx.status.create({
      data: {
        ...d.status,
        emojis: d.status.emojis as Prisma.InputJsonValue,
        mentions: { create: d.mentions.map((a) => ({ accountId: a.id })) },
        tags: { create: tags.map((t) => ({ tagId: t.id })) },
        ...(d.poll ? { poll: { create: d.poll } } : {}),
      },
    });
    if (media.length) await tx.mediaAttachment.updateMany({ where: { id: { in: media.map((m) => m.id) } }, data: { statusId: created.id } });
    await notify(txCtx, await statusNotifications(txCtx, created, d.mentions.map((a) => a.id)));
    if (created.expiresAt) await txCtx.jobs.enqueue(EXPIRE_STATUS_JOB, { statusId: created.id }, { runAt: created.expiresAt });
    if (d.poll?.expiresAt) await txCtx.jobs.enqueue(CLOSE_POLL_JOB, { pollId: d.poll.id }, { runAt: d.poll.expiresAt as Date });
    // federation: a Create goes out here for visibilities other than local
    await federateStatus(txCtx, "status.created", created);
    return created;
  });
  return statusStored(ctx, stored, d.mentions.map((a) => a.id), me, true);
}

export type PostResult = { kind: "status"; status: Status; preview: boolean } | { kind: "scheduled"; scheduled: Prisma.ScheduledStatusGetPayload<object> };

export const postStatus = operation({
  name: "statuses.post",
  access: { scopes: ["write:statuses"] },
  input: postInput,
  authorize: requireAccount,
  async run(ctx, input): Promise<PostResult> {
    const me = requireAccount(ctx);
    if (input.idempotency_key) {
      const seen = await ctx.db.status.findUnique({ where: { accountId_idempotencyKey: { accountId: me.id, idempotencyKey: input.idempotency_key } } });
      if (seen && ctx.clock().getTime() - seen.createdAt.getTime() < IDEMPOTENCY_MS) return { kind: "status", status: seen, preview: false };
      if (seen) await ctx.db.status.update({ where: { id: seen.id }, data: { idempotencyKey: null } });
    }
    if (input.scheduled_at && !input.preview) {
      const at = new Date(input.scheduled_at);
      if (at.getTime() - ctx.clock().getTime() < MIN_SCHEDULE_MS) throw Unprocessable("Validation failed: Scheduled at must be at least 5 minutes in the future", { scheduled_at: "is too soon" });
      await draft(ctx, me, { ...input, scheduled_at: undefined }); // validate now, publish later
      const { scheduled_at: _at, idempotency_key: _key, ...params } = input;
      // the scheduled status and its publishing job commit together (src/domain/transaction.ts)
      const scheduled = await inTransaction(ctx, async (tx) => {
        const scheduled = await tx.db.scheduledStatus.create({ data: { id: newId(), accountId: me.id, scheduledAt: at, params: params as Prisma.InputJsonValue, mediaIds: input.media_ids ?? [] } });
        await tx.jobs.enqueue(PUBLISH_SCHEDULED_JOB, { id: scheduled.id, scheduledAt: at.toISOString() }, { runAt: at });
        return scheduled;
      });
      return { kind: "scheduled", scheduled };
    }
    const d = await draft(ctx, me, input);
    if (input.preview) return { kind: "status", status: d.status, preview: true };
    try {
      return { kind: "status", status: await store(ctx, d), preview: false };
    } catch (error) {
      // two requests with one idempotency key: the loser answers with the winner's status
      if (input.idempotency_key && (error as { code?: string }).code === "P2002") {
        const winner = await ctx.db.status.findUnique({ where: { accountId_idempotencyKey: { accountId: me.id, idempotencyKey: input.idempotency_key } } });
        if (winner) return { kind: "status", status: winner, preview: false };
      }
      throw error;
    }
  },
});

/** Deletes the viewer's status (or any, for the system's expiry job); answers it as it was, for redrafting. */
export const deleteStatus = operation({
  name: "statuses.delete",
  access: { scopes: ["write:statuses"] },
  input: z.object({ id: z.string() }),
  async run(ctx, input): Promise<Status> {
    const status = await ctx.db.status.findUnique({ where: { id: input.id } });
    const me = ctx.viewer.account;
    if (!status) throw NotFound("Record not found");
    if (ctx.viewer.via !== "admin_token" && status.accountId !== me?.id) throw Forbidden("You can't delete this status");
    // the deletion and its Delete's delivery commit together (src/domain/transaction.ts)
    await inTransaction(ctx, async (tx) => {
      // what the Delete needs once the row is gone (only our own statuses are ours to delete for peers)
      const snapshot = status.local && federatedVisibility(status.visibility) ? await deletedStatusSnapshot(tx, status) : null;
      await removeStatus(tx, status);
      // federation: a Delete goes out here (also when an expiring status is removed)
      if (snapshot) await federate(tx, { type: "status.deleted", status: snapshot });
    });
    return status;
  },
});

/** Replies and quotes of a deleted status named one by one in the cache's event; more drop every entry. */
const MAX_NAMED_DEPENDENTS = 1_000;

/** Deletes a status with its reblogs and tells the streams (`status_deleted` for each); local and remote deletions alike. */
export async function removeStatus(ctx: Ctx, status: Status): Promise<void> {
  const [gone, dependents] = await Promise.all([
    deletedStatuses(ctx, status), // with its reblogs, which go with it
    // the database nulls the `in_reply_to_id` of its replies and the `quote_id` of its quotes: their rows change
    ctx.db.status.findMany({ where: { OR: [{ inReplyToId: status.id }, { quoteId: status.id }] }, select: { id: true }, take: MAX_NAMED_DEPENDENTS + 1 }),
  ]);
  await ctx.db.status.deleteMany({ where: { id: status.id } });
  // itself, its parent's replies_count, its original's reblogs_count, the rows of its replies and quotes
  const changed = [status.id, status.inReplyToId, status.reblogOfId, ...gone.map((d) => d.statusId), ...dependents.map((d) => d.id)];
  statusCountsChanged(ctx, [status]); // its author's statuses_count (its reblogs count for no one); held until a transaction commits
  afterCommit(ctx, () => {
    if (dependents.length > MAX_NAMED_DEPENDENTS) allStatusesChanged(ctx);
    else statusesChanged(ctx, changed);
    for (const d of gone) ctx.bus.publish("status_deleted", d);
  });
}
