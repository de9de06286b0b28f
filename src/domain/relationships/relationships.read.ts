// The viewer's relationship to many accounts at once, in a constant number of queries (loadRelationships: one).
import { z } from "zod";
import type { Account } from "../../generated/prisma/client.ts";
import { requireAccount } from "../auth/policy.ts";
import type { Ctx } from "../context.ts";
import { sqlFor } from "../../db/sql.ts";
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

/**
 * The viewer's relationships to `targets`, in ONE statement (four before): every relationship action
 * (follow, block, mute…) answers with it, and GET /api/v1/accounts/relationships is it.
 */
export async function loadRelationships(ctx: Ctx, viewerId: string, targets: Pick<Account, "id" | "domain">[]): Promise<Map<string, RelationshipState>> {
  const ids = [...new Set(targets.map((t) => t.id))];
  const domains = [...new Set(targets.map((t) => t.domain).filter((d): d is string => !!d))];
  const now = ctx.clock();
  type Rows = {
    follows: { followerId: string; followingId: string; state: string; showReblogs: boolean; notify: boolean }[] | null;
    relations: { sourceId: string; targetId: string; type: string }[] | null;
    notes: { targetId: string; comment: string }[] | null;
    domainBlocks: { domain: string }[] | null;
  };
  const [row] = await sqlFor(ctx.db).query<Rows>(
    `SELECT
      (SELECT json_agg(json_build_object('followerId', f.follower_id, 'followingId', f.following_id, 'state', f.state, 'showReblogs', f.show_reblogs, 'notify', f.notify))
        FROM follows f
        WHERE ((f.follower_id = $1 AND f.following_id = ANY($2::text[])) OR (f.follower_id = ANY($2::text[]) AND f.following_id = $1))
          AND f.state IN ('pending', 'accept')) AS follows,
      (SELECT json_agg(json_build_object('sourceId', r.source_id, 'targetId', r.target_id, 'type', r.type))
        FROM user_relationships r
        WHERE (r.expires_at IS NULL OR r.expires_at > ($4::timestamptz AT TIME ZONE 'UTC'))
          AND ((r.source_id = $1 AND r.target_id = ANY($2::text[])) OR (r.source_id = ANY($2::text[]) AND r.target_id = $1 AND r.type = 'block'))) AS relations,
      (SELECT json_agg(json_build_object('targetId', n.target_id, 'comment', n.comment))
        FROM account_notes n WHERE n.author_id = $1 AND n.target_id = ANY($2::text[])) AS notes,
      (SELECT json_agg(json_build_object('domain', d.domain))
        FROM domain_blocks d WHERE d.account_id = $1 AND d.domain = ANY($3::text[])) AS "domainBlocks"`,
    [viewerId, ids, domains, now.toISOString()],
  );
  const follows = row?.follows ?? [];
  const relations = row?.relations ?? [];
  const notes = row?.notes ?? [];
  const domainBlocks = row?.domainBlocks ?? [];
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
