// Polls: reading one (through its status's visibility), voting, and closing at expiry (the job in
// polls.jobs.ts). Votes are rows of PollVote, one per chosen option; the poll itself is created
// when its status is posted (statuses.ops.ts).
import { z } from "zod";
import { newId } from "../../db/ids.ts";
import type { Poll } from "../../generated/prisma/client.ts";
import { requireAccount } from "../auth/policy.ts";
import type { Ctx } from "../context.ts";
import { NotFound, Unprocessable } from "../../kernel/errors.ts";
import { array, int } from "../inputs.ts";
import { notify } from "../notifications/notify.ts";
import { federate, federateStatus } from "../federation/outbox.ts";
import { operation } from "../operation.ts";
import type { PollData } from "../statuses/status-data.ts";
import { getVisibleStatus } from "../statuses/statuses.read.ts";
import { statusesChanged } from "../statuses/status-cache.ts";
import { afterCommit, inTransaction } from "../transaction.ts";

/** Closed by the job, or past its expiry while the job has not run yet. */
export function pollExpired(ctx: Ctx, poll: Poll): boolean {
  return !!poll.closedAt || (!!poll.expiresAt && poll.expiresAt <= ctx.clock());
}

/** What renderPoll needs for one poll, in three queries (two without a viewer). */
export async function loadPollData(ctx: Ctx, poll: Poll, authorId: string): Promise<PollData> {
  const viewerId = ctx.viewer.account?.id;
  const [counts, voters, own] = await Promise.all([
    ctx.db.pollVote.groupBy({ by: ["choice"], where: { pollId: poll.id }, _count: { _all: true } }),
    ctx.db.pollVote.groupBy({ by: ["accountId"], where: { pollId: poll.id } }),
    viewerId ? ctx.db.pollVote.findMany({ where: { pollId: poll.id, accountId: viewerId }, orderBy: { choice: "asc" } }) : Promise.resolve(null),
  ]);
  return {
    poll,
    authorId,
    // a remote poll counts what its server reported, and local votes it has not counted yet (as status-data.ts)
    votes: poll.options.map((_, i) => Math.max(counts.find((c) => c.choice === i)?._count._all ?? 0, poll.remoteCounts[i] ?? 0)),
    votersCount: Math.max(voters.length, poll.remoteVotersCount ?? 0),
    ownVotes: own ? own.map((v) => v.choice) : null,
  };
}

/** The poll if its status is visible to the viewer; 404 otherwise (the family hides what you may not see). */
async function visiblePoll(ctx: Ctx, id: string): Promise<{ poll: Poll; authorId: string }> {
  const poll = await ctx.db.poll.findUnique({ where: { id } });
  if (!poll) throw NotFound("Record not found");
  const status = await getVisibleStatus(ctx, poll.statusId);
  return { poll, authorId: status.accountId };
}

export const showPoll = operation({
  name: "polls.show",
  access: { scopes: ["read:statuses"], optional: true },
  input: z.object({ id: z.string() }),
  async run(ctx, input): Promise<PollData> {
    const { poll, authorId } = await visiblePoll(ctx, input.id);
    return loadPollData(ctx, poll, authorId);
  },
});

export const votePoll = operation({
  name: "polls.vote",
  access: { scopes: ["write:statuses"] },
  input: z.object({ id: z.string(), choices: array(int()) }),
  authorize: requireAccount,
  async run(ctx, input): Promise<PollData> {
    const me = requireAccount(ctx);
    const { poll, authorId } = await visiblePoll(ctx, input.id);
    // the family's checks and messages, in its order (the expiry check comes first)
    if (pollExpired(ctx, poll)) throw Unprocessable("Poll has expired");
    if (authorId === me.id) throw Unprocessable("Poll's author can't vote");
    const choices = [...new Set(input.choices)];
    if (choices.some((c) => c < 0 || c >= poll.options.length)) throw Unprocessable("Invalid indices");
    if (choices.length === 0) throw Unprocessable("At least one choice is required");
    if (!poll.multiple && choices.length > 1) throw Unprocessable("Too many choices");

    await inTransaction(ctx, async (txCtx) => {
      const tx = txCtx.db;
      // the poll row is the lock: two concurrent votes of one account cannot both pass the check
      await tx.$queryRaw`SELECT id FROM polls WHERE id = ${poll.id} FOR UPDATE`;
      if (await tx.pollVote.findFirst({ where: { pollId: poll.id, accountId: me.id }, select: { id: true } })) throw Unprocessable("Already voted");
      await tx.pollVote.createMany({ data: choices.map((choice) => ({ id: newId(), pollId: poll.id, accountId: me.id, choice })) });
      // federation: an Answer per choice goes to the poll's author here when the poll is remote, committed with the vote
      if (!(await tx.account.findUniqueOrThrow({ where: { id: authorId }, select: { local: true } })).local)
        await federate(txCtx, { type: "poll.vote", pollId: poll.id, voterId: me.id, choices });
    });
    statusesChanged(ctx, [poll.statusId]); // the poll's counts
    return loadPollData(ctx, poll, authorId);
  },
});

/**
 * Closes a poll at its expiry: sets `closedAt` once, then gives the author and every voter a "poll"
 * notification (notify keeps local, active, unsilenced recipients). Returns how many were notified;
 * 0 when the poll is gone, already closed or not yet due (its job ran early or twice).
 */
export async function closePoll(ctx: Ctx, pollId: string): Promise<number> {
  const poll = await ctx.db.poll.findUnique({ where: { id: pollId }, include: { status: { select: { id: true, accountId: true } } } });
  const now = ctx.clock();
  if (!poll || poll.closedAt || (poll.expiresAt && poll.expiresAt > now)) return 0;
  // the close, its notifications and its Update commit together (src/domain/transaction.ts): a job
  // that dies anywhere before the commit runs it all again
  return inTransaction(ctx, async (tx) => {
    // claiming the close makes a repeated or concurrent run a no-op
    const claimed = await tx.db.poll.updateMany({ where: { id: poll.id, closedAt: null }, data: { closedAt: now } });
    if (claimed.count === 0) return 0;
    afterCommit(tx, () => statusesChanged(ctx, [poll.status.id])); // the poll's closed_at
    // federation: the final results of a local poll go out as an Update of its Question
    const status = await tx.db.status.findUnique({ where: { id: poll.status.id } });
    if (status?.local) await federateStatus(tx, "status.updated", status);
    const voters = await tx.db.pollVote.groupBy({ by: ["accountId"], where: { pollId: poll.id } });
    const author = poll.status.accountId;
    const recipients = [author, ...voters.map((v) => v.accountId).filter((id) => id !== author)];
    return notify(
      tx,
      recipients.map((accountId) => ({ accountId, type: "poll" as const, fromAccountId: author, statusId: poll.status.id })),
    );
  });
}
