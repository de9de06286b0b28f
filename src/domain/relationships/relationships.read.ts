// The viewer's relationship to many accounts at once, in a constant number of queries.
import { z } from "zod";
import type { Account } from "../../generated/prisma/client.ts";
import { requireAccount } from "../auth/policy.ts";
import type { Ctx } from "../context.ts";
import { array } from "../inputs.ts";
import { operation } from "../operation.ts";

export interface RelationshipState {
  id: string;
  following: boolean;
  requested: boolean;
  showingReblogs: boolean;
  notifying: boolean;
  followedBy: boolean;
  /** the target asked to follow the viewer and waits */
  requestedBy: boolean;
  blocking: boolean;
  blockedBy: boolean;
  muting: boolean;
  mutingNotifications: boolean;
  subscribing: boolean;
  domainBlocking: boolean;
  endorsed: boolean;
  note: string;
}

/** Relations whose expiry passed count as gone (mutes with expires_in). */
export const activeRelation = (now: Date) => ({ OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] });

export async function loadRelationships(ctx: Ctx, viewerId: string, targets: Pick<Account, "id" | "domain">[]): Promise<Map<string, RelationshipState>> {
  const ids = [...new Set(targets.map((t) => t.id))];
  const domains = [...new Set(targets.map((t) => t.domain).filter((d): d is string => !!d))];
  const now = ctx.clock();
  const [follows, relations, notes, domainBlocks] = await Promise.all([
    ctx.db.follow.findMany({
      where: { OR: [{ followerId: viewerId, followingId: { in: ids } }, { followerId: { in: ids }, followingId: viewerId }], state: { in: ["pending", "accept"] } },
    }),
    ctx.db.userRelationship.findMany({
      where: { AND: [activeRelation(now), { OR: [{ sourceId: viewerId, targetId: { in: ids } }, { sourceId: { in: ids }, targetId: viewerId, type: "block" }] }] },
    }),
    ctx.db.accountNote.findMany({ where: { authorId: viewerId, targetId: { in: ids } } }),
    domains.length ? ctx.db.domainBlock.findMany({ where: { accountId: viewerId, domain: { in: domains } } }) : Promise.resolve([]),
  ]);
  const blockedDomains = new Set(domainBlocks.map((d) => d.domain));
  const result = new Map<string, RelationshipState>();
  for (const target of targets) {
    const out = follows.find((f) => f.followerId === viewerId && f.followingId === target.id);
    const inbound = follows.find((f) => f.followerId === target.id && f.followingId === viewerId);
    const rel = (type: string, from = viewerId, to = target.id) => relations.some((r) => r.sourceId === from && r.targetId === to && r.type === type);
    result.set(target.id, {
      id: target.id,
      following: out?.state === "accept",
      requested: out?.state === "pending",
      showingReblogs: out ? out.showReblogs : true,
      // the family's `notify` on follow is a subscription; both flags read the same relation
      notifying: !!out?.notify || rel("subscription"),
      followedBy: inbound?.state === "accept",
      requestedBy: inbound?.state === "pending",
      blocking: rel("block"),
      blockedBy: rel("block", target.id, viewerId),
      muting: rel("mute"),
      mutingNotifications: rel("notification_mute"),
      subscribing: rel("subscription"),
      domainBlocking: !!target.domain && blockedDomains.has(target.domain),
      endorsed: rel("endorsement"),
      note: notes.find((n) => n.targetId === target.id)?.comment ?? "",
    });
  }
  return result;
}

/** Which of `targetIds` the viewer mutes now (the family's `is_muted` of notifications). One query. */
export async function mutedAmong(ctx: Ctx, viewerId: string, targetIds: string[]): Promise<Set<string>> {
  if (targetIds.length === 0) return new Set();
  const rows = await ctx.db.userRelationship.findMany({
    where: { AND: [activeRelation(ctx.clock()), { sourceId: viewerId, targetId: { in: targetIds }, type: "mute" }] },
    select: { targetId: true },
  });
  return new Set(rows.map((r) => r.targetId));
}

/** The viewer's relationship to one account (the answer of every relationship action). */
export async function relationshipWith(ctx: Ctx, viewerId: string, target: Pick<Account, "id" | "domain">): Promise<RelationshipState> {
  return (await loadRelationships(ctx, viewerId, [target])).get(target.id)!;
}

/** GET relationships: one entry per known id, in the order asked (duplicates once); unknown ids are skipped. */
export const getRelationships = operation({
  name: "relationships.get",
  access: { scopes: ["read:follows"] },
  input: z.object({ id: array(z.string()).default([]) }),
  authorize: requireAccount,
  async run(ctx, input): Promise<RelationshipState[]> {
    const me = requireAccount(ctx);
    const ids = [...new Set(input.id.filter(Boolean))];
    if (ids.length === 0) return [];
    const accounts = await ctx.db.account.findMany({ where: { id: { in: ids } } });
    const relationships = await loadRelationships(ctx, me.id, accounts);
    return ids.flatMap((id) => relationships.get(id) ?? []);
  },
});
