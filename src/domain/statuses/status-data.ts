// Everything needed to render a list of statuses, loaded in a fixed number of queries whatever
// the list's length (reblogged statuses included): the one loader the REST view and GraphQL share.
import type { Account, MediaAttachment, OAuthApp, Poll, Status } from "../../generated/prisma/client.ts";
import type { Ctx } from "../context.ts";
import { activeRelation } from "../relationships/relationships.read.ts";
import { canSee, viewerContext } from "./visibility.ts";

export interface ReactionGroup {
  name: string;
  count: number;
  me: boolean;
  accountIds: string[];
  /** the image of a custom emoji */
  url?: string;
}

export interface PollData {
  poll: Poll;
  /** the status's author: counts as having voted */
  authorId: string;
  /** votes per option */
  votes: number[];
  votersCount: number;
  /** the viewer's choices; null when anonymous */
  ownVotes: number[] | null;
}

export interface StatusData {
  statuses: Map<string, Status>;
  accounts: Map<string, Account>;
  media: Map<string, MediaAttachment[]>;
  polls: Map<string, PollData>;
  mentions: Map<string, Account[]>;
  tags: Map<string, string[]>;
  counts: Map<string, { favourites: number; reblogs: number; replies: number }>;
  favourited: Set<string>;
  reblogged: Set<string>;
  bookmarked: Set<string>;
  mutedContexts: Set<string>;
  reactions: Map<string, ReactionGroup[]>;
  applications: Map<number, OAuthApp>;
  /** parent id → visible to the viewer */
  parentVisible: Map<string, boolean>;
  parentAccounts: Map<string, Account>;
}

function groupBy<T, K>(rows: T[], key: (r: T) => K): Map<K, T[]> {
  const map = new Map<K, T[]>();
  for (const r of rows) {
    const k = key(r);
    const list = map.get(k);
    if (list) list.push(r);
    else map.set(k, [r]);
  }
  return map;
}

export async function loadStatusData(ctx: Ctx, list: Status[]): Promise<StatusData> {
  const viewerId = ctx.viewer.account?.id;
  const innerIds = [...new Set(list.map((s) => s.reblogOfId).filter((id): id is string => !!id))];
  const inner = innerIds.length ? await ctx.db.status.findMany({ where: { id: { in: innerIds } } }) : [];
  const all = [...list, ...inner];
  const ids = [...new Set(all.map((s) => s.id))];
  const parentIds = [...new Set(all.map((s) => s.inReplyToId).filter((id): id is string => !!id))];
  const inIds = { in: ids };

  const [mentionRows, media, polls, tagRows, favCounts, reblogCounts, replyCounts, mine, reactions, parents, apps] = await Promise.all([
    ctx.db.mention.findMany({ where: { statusId: inIds }, include: { account: true } }),
    ctx.db.mediaAttachment.findMany({ where: { statusId: inIds }, orderBy: { id: "asc" } }),
    ctx.db.poll.findMany({ where: { statusId: inIds } }),
    ctx.db.statusTag.findMany({ where: { statusId: inIds }, include: { tag: true } }),
    ctx.db.favourite.groupBy({ by: ["statusId"], where: { statusId: inIds }, _count: { _all: true } }),
    ctx.db.status.groupBy({ by: ["reblogOfId"], where: { reblogOfId: inIds }, _count: { _all: true } }),
    ctx.db.status.groupBy({ by: ["inReplyToId"], where: { inReplyToId: inIds }, _count: { _all: true } }),
    viewerId
      ? Promise.all([
          ctx.db.favourite.findMany({ where: { accountId: viewerId, statusId: inIds }, select: { statusId: true } }),
          ctx.db.status.findMany({ where: { accountId: viewerId, reblogOfId: inIds }, select: { reblogOfId: true } }),
          ctx.db.bookmark.findMany({ where: { accountId: viewerId, statusId: inIds }, select: { statusId: true } }),
          ctx.db.threadMute.findMany({ where: { AND: [{ accountId: viewerId, context: { in: [...new Set(all.map((s) => s.context))] } }, activeRelation(ctx.clock())] }, select: { context: true } }),
        ])
      : Promise.resolve([[], [], [], []] as const),
    ctx.db.reaction.findMany({ where: { statusId: inIds }, orderBy: { id: "asc" } }),
    parentIds.length ? ctx.db.status.findMany({ where: { id: { in: parentIds } }, include: { account: true } }) : Promise.resolve([]),
    ctx.db.oAuthApp.findMany({ where: { id: { in: [...new Set(all.map((s) => s.applicationId).filter((a): a is number => a !== null))] } } }),
  ]);

  const pollIds = polls.map((p) => p.id);
  const [voteCounts, voters, ownVotes, authors, parentView] = await Promise.all([
    pollIds.length ? ctx.db.pollVote.groupBy({ by: ["pollId", "choice"], where: { pollId: { in: pollIds } }, _count: { _all: true } }) : Promise.resolve([]),
    pollIds.length ? ctx.db.pollVote.groupBy({ by: ["pollId", "accountId"], where: { pollId: { in: pollIds } } }) : Promise.resolve([]),
    pollIds.length && viewerId ? ctx.db.pollVote.findMany({ where: { pollId: { in: pollIds }, accountId: viewerId } }) : Promise.resolve([]),
    ctx.db.account.findMany({ where: { id: { in: [...new Set(all.map((s) => s.accountId))] } } }),
    viewerContext(ctx, parents.map((p) => p.accountId)),
  ]);

  const [favs, reblogs, bookmarks, mutes] = mine;
  const counts = new Map(ids.map((id) => [id, { favourites: 0, reblogs: 0, replies: 0 }]));
  for (const r of favCounts) counts.get(r.statusId)!.favourites = r._count._all;
  for (const r of reblogCounts) counts.get(r.reblogOfId!)!.reblogs = r._count._all;
  for (const r of replyCounts) counts.get(r.inReplyToId!)!.replies = r._count._all;

  const reactionGroups = new Map<string, ReactionGroup[]>();
  for (const [statusId, rows] of groupBy(reactions, (r) => r.statusId)) {
    const groups: ReactionGroup[] = [];
    for (const r of rows) {
      let g = groups.find((x) => x.name === r.emoji);
      if (!g) groups.push((g = { name: r.emoji, count: 0, me: false, accountIds: [], ...(r.emojiUrl ? { url: r.emojiUrl } : {}) }));
      g.count++;
      g.accountIds.push(r.accountId);
      if (r.accountId === viewerId) g.me = true;
    }
    reactionGroups.set(statusId, groups);
  }

  return {
    statuses: new Map(all.map((s) => [s.id, s])),
    accounts: new Map(authors.map((a) => [a.id, a])),
    media: groupBy(media, (m) => m.statusId!),
    polls: new Map(
      polls.map((p) => [
        p.statusId,
        {
          poll: p,
          authorId: all.find((s) => s.id === p.statusId)!.accountId,
          votes: p.options.map((_, i) => voteCounts.find((v) => v.pollId === p.id && v.choice === i)?._count._all ?? 0),
          votersCount: voters.filter((v) => v.pollId === p.id).length,
          ownVotes: viewerId ? ownVotes.filter((v) => v.pollId === p.id).map((v) => v.choice) : null,
        },
      ]),
    ),
    mentions: new Map([...groupBy(mentionRows, (m) => m.statusId)].map(([id, rows]) => [id, rows.map((r) => r.account)])),
    tags: new Map([...groupBy(tagRows, (t) => t.statusId)].map(([id, rows]) => [id, rows.map((r) => r.tag.name)])),
    counts,
    favourited: new Set(favs.map((f) => f.statusId)),
    reblogged: new Set(reblogs.map((r) => r.reblogOfId!)),
    bookmarked: new Set(bookmarks.map((b) => b.statusId)),
    mutedContexts: new Set(mutes.map((m) => m.context)),
    reactions: reactionGroups,
    applications: new Map(apps.map((a) => [a.id, a])),
    parentVisible: new Map(parents.map((p) => [p.id, !p.account.deactivated && canSee(parentView, p)])),
    parentAccounts: new Map(parents.map((p) => [p.id, p.account])),
  };
}
