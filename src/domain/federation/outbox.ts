// What peers must learn about, as the domain says it: `federate(ctx, intent)` stores ONE durable job
// describing what happened; the federation adapter's job handler (src/federation/outbox/) renders the
// activity, picks the recipients and hands it to Fedify's delivery queue. Nothing is delivered inside
// a request, and the domain knows nothing of ActivityPub vocabulary.
//
// Intents carry ids, except where the row is gone by the time the job runs (deletes, undos): those
// carry a snapshot of what the activity needs.
import type { Visibility } from "../../generated/prisma/client.ts";
import type { Ctx } from "../context.ts";
import { sqlFor } from "../../db/sql.ts";

export const FEDERATE_JOB = "federation.outbox";

/** What a deleted status's Delete needs once the row is gone. */
export interface DeletedStatusSnapshot {
  statusId: string;
  uri: string;
  authorId: string;
  visibility: Visibility;
  /** ActivityPub ids of the actors it was addressed to (mentions) */
  addressed: string[];
  /** a reblog: its Delete is an Undo of the Announce */
  reblogOfUri?: string | null;
}

export type FederationIntent =
  | { type: "status.created"; statusId: string }
  | { type: "status.updated"; statusId: string }
  | { type: "status.deleted"; status: DeletedStatusSnapshot }
  | { type: "announce"; reblogId: string }
  | { type: "announce.undo"; reblogId: string; reblogUri: string; actorId: string; originalUri: string; originalAuthorId: string; visibility: Visibility }
  | { type: "like"; favouriteId: string }
  | { type: "like.undo"; favouriteId: string; actorId: string; statusId: string }
  | { type: "react"; reactionId: string }
  | { type: "react.undo"; reactionId: string; actorId: string; statusId: string; emoji: string; emojiUrl: string | null }
  | { type: "follow"; followId: string }
  | { type: "follow.undo"; followId: string; followApId: string | null; followerId: string; followingId: string }
  | { type: "follow.accept"; followId: string }
  | { type: "follow.reject"; followId: string; followApId: string | null; followerId: string; followingId: string }
  | { type: "block"; blockId: string }
  | { type: "block.undo"; blockId: string; sourceId: string; targetId: string }
  | { type: "actor.updated"; accountId: string }
  /** carries the inboxes, because the account's follows are purged by the time the job runs */
  | { type: "actor.deleted"; accountId: string; inboxes: string[] }
  | { type: "move"; accountId: string; targetId: string }
  | { type: "poll.vote"; pollId: string; voterId: string; choices: number[] }
  /** the relay actor follows / unfollows a relay (`actor` as the admin gave it); accepts a relay's follow-back */
  | { type: "relay.follow"; relayId: string; actor: string }
  | { type: "relay.undo"; relayId: string; actor: string }
  | { type: "relay.accept"; actor: string; followApId: string }
  /** a report forwarded to the reported account's server (a Flag from the instance actor) */
  | { type: "flag"; reportId: string }
  /** a chat message to a remote account */
  | { type: "chat.message"; messageId: string; recipientId: string };

/**
 * Queues the delivery of `intent`. Five tries for the job itself (crashes); Fedify retries each delivery.
 * Called with the context of the action's transaction (src/domain/transaction.ts), the job commits with
 * the action: a process dying after the commit cannot lose the delivery.
 */
export async function federate(ctx: Pick<Ctx, "jobs">, intent: FederationIntent): Promise<void> {
  await ctx.jobs.enqueue(FEDERATE_JOB, intent, { attempts: 5, backoff: { type: "exponential", delay: 10_000 } });
}

/** True when the account is remote: most person-to-person activities only go out then. */
export const isRemote = (a: { local: boolean }) => !a.local;

/**
 * "A remote account follows $1 (accepted)", in SQL. The follower's locality is a correlated subquery, not
 * a join: with a join under EXISTS/LIMIT 1 PostgreSQL expects a remote follower within the first rows and
 * scans the whole follows table (12–15 ms with 42,000 follows, for an author with 1,000 local followers
 * and no remote one); this walks the author's follows by index and stops at the first remote follower.
 */
const REMOTE_FOLLOWER_SQL = `EXISTS (SELECT 1 FROM follows f WHERE f.following_id = $1 AND f.state = 'accept'
  AND NOT (SELECT a.local FROM accounts a WHERE a.id = f.follower_id))`;

/** Whether any remote account follows `accountId` (accepted): an actor's Update/Move concern only them. */
export async function hasRemoteFollowers(ctx: Pick<Ctx, "db">, accountId: string): Promise<boolean> {
  const [row] = await sqlFor(ctx.db).query<{ remote: boolean }>(`SELECT ${REMOTE_FOLLOWER_SQL} AS remote`, [accountId]);
  return !!row?.remote;
}

/** Visibilities that leave the instance: everything but the family's local-only posts. */
export const federatedVisibility = (v: Visibility) => v !== "local";

/** Remote accounts among `ids`, in one statement. */
export async function anyRemote(ctx: Pick<Ctx, "db">, ids: readonly string[]): Promise<boolean> {
  if (ids.length === 0) return false;
  return (await ctx.db.account.count({ where: { id: { in: [...ids] }, local: false } })) > 0;
}

/**
 * The intent for a new or edited status, or nothing: local-only statuses never leave; others only when a
 * remote account can be concerned (a remote addressee, a remote parent author, a remote follower — for
 * public and unlisted ones also a followed relay). A server nobody remote follows queues no job per post.
 */
export async function federateStatus(
  ctx: Pick<Ctx, "db" | "jobs">,
  type: "status.created" | "status.updated",
  status: { id: string; accountId: string; visibility: Visibility; recipientIds: string[]; inReplyToAccountId: string | null },
): Promise<void> {
  if (!federatedVisibility(status.visibility)) return;
  const open = status.visibility === "public" || status.visibility === "unlisted";
  const concerned = [...status.recipientIds, ...(status.inReplyToAccountId ? [status.inReplyToAccountId] : [])];
  // the three questions in one statement (once per post): a remote addressee or parent author, a remote
  // follower (public, unlisted, private), a followed relay (public only: as Mastodon and the family's
  // relay publish them)
  const [row] = await sqlFor(ctx.db).query<{ remote: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM accounts WHERE id = ANY($2::text[]) AND NOT local)
      OR ($3 AND ${REMOTE_FOLLOWER_SQL})
      OR ($4 AND EXISTS (SELECT 1 FROM relays WHERE state = 'accepted')) AS remote`,
    [status.accountId, concerned, open || status.visibility === "private", status.visibility === "public"],
  );
  if (!row?.remote) return;
  await federate(ctx, { type, statusId: status.id });
}

/** The snapshot a status's Delete needs, taken before the row goes (mentions' ids, the reblogged original). */
export async function deletedStatusSnapshot(
  ctx: Pick<Ctx, "db">,
  status: { id: string; uri: string; accountId: string; visibility: Visibility; reblogOfId: string | null },
): Promise<DeletedStatusSnapshot> {
  const [mentions, original] = await Promise.all([
    ctx.db.mention.findMany({ where: { statusId: status.id }, select: { account: { select: { apId: true } } } }),
    status.reblogOfId ? ctx.db.status.findUnique({ where: { id: status.reblogOfId }, select: { uri: true } }) : null,
  ]);
  return {
    statusId: status.id,
    uri: status.uri,
    authorId: status.accountId,
    visibility: status.visibility,
    addressed: mentions.map((m) => m.account.apId),
    reblogOfUri: original?.uri ?? null,
  };
}

/** Inboxes (shared when known) of the remote accounts that follow or are followed by `accountId`. */
export async function remoteInboxesAround(ctx: Pick<Ctx, "db">, accountId: string): Promise<string[]> {
  const rows = await ctx.db.account.findMany({
    where: {
      local: false,
      OR: [{ following: { some: { followingId: accountId } } }, { followers: { some: { followerId: accountId } } }],
    },
    select: { inbox: true, sharedInbox: true },
  });
  return [...new Set(rows.flatMap((r) => (r.sharedInbox ?? r.inbox ? [(r.sharedInbox ?? r.inbox)!] : [])))];
}

/** The Undo of `account`'s Like of `status`, read before the favourite row goes; null when there is none. */
export async function likeUndoIntent(ctx: Pick<Ctx, "db">, account: { id: string }, status: { id: string }): Promise<FederationIntent | null> {
  const row = await ctx.db.favourite.findUnique({ where: { accountId_statusId: { accountId: account.id, statusId: status.id } }, select: { id: true } });
  return row ? { type: "like.undo", favouriteId: row.id, actorId: account.id, statusId: status.id } : null;
}

/** Queues the EmojiReact of `account` on `status` with the stored reaction name `emoji`. */
export async function federateReaction(ctx: Pick<Ctx, "db" | "jobs">, account: { id: string }, status: { id: string }, emoji: string): Promise<void> {
  const row = await ctx.db.reaction.findUnique({ where: { accountId_statusId_emoji: { accountId: account.id, statusId: status.id, emoji } }, select: { id: true } });
  if (row) await federate(ctx, { type: "react", reactionId: row.id });
}

/** The Undo of a reaction, read before its row goes; null when there is none. */
export async function reactionUndoIntent(ctx: Pick<Ctx, "db">, account: { id: string }, status: { id: string }, emoji: string): Promise<FederationIntent | null> {
  const row = await ctx.db.reaction.findUnique({ where: { accountId_statusId_emoji: { accountId: account.id, statusId: status.id, emoji } } });
  return row ? { type: "react.undo", reactionId: row.id, actorId: account.id, statusId: status.id, emoji: row.emoji, emojiUrl: row.emojiUrl } : null;
}
