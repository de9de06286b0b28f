// Who may see a status: the one place that decides, for single reads (canSee) and for lists
// (visibleWhere, a Prisma filter timelines reuse). Admin "godmode" lives in the admin endpoints only.
import type { Prisma, Status } from "../../generated/prisma/client.ts";
import type { Ctx } from "../context.ts";

type Seen = Pick<Status, "accountId" | "visibility" | "recipientIds">;

export interface ViewerContext {
  viewerId: string | null;
  /** authors the viewer follows (accepted) */
  following: Set<string>;
  /** authors that block the viewer or that the viewer blocks */
  blocked: Set<string>;
}

/** What `canSee` needs about the viewer and these authors, in two queries. */
export async function viewerContext(ctx: Ctx, authorIds: readonly string[]): Promise<ViewerContext> {
  const viewerId = ctx.viewer.account?.id ?? null;
  if (!viewerId || authorIds.length === 0) return { viewerId, following: new Set(), blocked: new Set() };
  const ids = [...new Set(authorIds)];
  const [follows, blocks] = await Promise.all([
    ctx.db.follow.findMany({ where: { followerId: viewerId, followingId: { in: ids }, state: "accept" }, select: { followingId: true } }),
    ctx.db.userRelationship.findMany({
      where: { type: "block", OR: [{ sourceId: viewerId, targetId: { in: ids } }, { sourceId: { in: ids }, targetId: viewerId }] },
      select: { sourceId: true, targetId: true },
    }),
  ]);
  return {
    viewerId,
    following: new Set(follows.map((f) => f.followingId)),
    blocked: new Set(blocks.map((b) => (b.sourceId === viewerId ? b.targetId : b.sourceId))),
  };
}

export function canSee(v: ViewerContext, s: Seen): boolean {
  if (v.viewerId && s.accountId === v.viewerId) return true;
  if (v.blocked.has(s.accountId)) return false;
  switch (s.visibility) {
    case "public":
    case "unlisted":
      return true;
    case "local":
      // local-only posts are for this instance's signed-in users, as in the family
      return !!v.viewerId;
    case "private":
      return !!v.viewerId && (v.following.has(s.accountId) || s.recipientIds.includes(v.viewerId));
    case "direct":
    case "list":
      return !!v.viewerId && s.recipientIds.includes(v.viewerId);
  }
}

/** The same rule as a Prisma filter, for lists and timelines. */
export function visibleWhere(ctx: Ctx): Prisma.StatusWhereInput {
  const viewerId = ctx.viewer.account?.id;
  if (!viewerId) return { account: { deactivated: false }, visibility: { in: ["public", "unlisted"] } };
  const open: Prisma.StatusWhereInput = { visibility: { in: ["public", "unlisted", "local"] } };
  return {
    account: {
      deactivated: false,
      relationsOut: { none: { targetId: viewerId, type: "block" } },
      relationsIn: { none: { sourceId: viewerId, type: "block" } },
    },
    OR: [
      { accountId: viewerId },
      open,
      { recipientIds: { has: viewerId } },
      { visibility: "private", account: { followers: { some: { followerId: viewerId, state: "accept" } } } },
    ],
  };
}
