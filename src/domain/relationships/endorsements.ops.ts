// Endorsements (the reference API's account pins, "featured" accounts on a profile): an account one
// follows, shown on one's profile. Unfollowing, blocking and muting drop the endorsement (follows.ops,
// blocks-mutes.ops). Also the reference API's familiar followers.
import { z } from "zod";
import { newId } from "../../db/ids.ts";
import type { Account } from "../../generated/prisma/client.ts";
import { getAccount } from "../accounts/lookup.ts";
import { requireAccount } from "../auth/policy.ts";
import type { Ctx } from "../context.ts";
import { Unprocessable } from "../../kernel/errors.ts";
import { array } from "../inputs.ts";
import { operation } from "../operation.ts";
import { keyset, pageInput, type Page } from "../pagination.ts";
import { accountInput, relationshipAction } from "./relationships.policy.ts";

export const ENDORSE_NEEDS_FOLLOW = "You must be already following the person you want to endorse";

export const endorseAccount = relationshipAction("relationships.endorse", accountInput, async (ctx, me, target) => {
  const follows = await ctx.db.follow.findFirst({ where: { followerId: me.id, followingId: target.id, state: "accept" }, select: { id: true } });
  if (!follows) throw Unprocessable(`Validation failed: ${ENDORSE_NEEDS_FOLLOW}`);
  await ctx.db.userRelationship.upsert({
    where: { sourceId_targetId_type: { sourceId: me.id, targetId: target.id, type: "endorsement" } },
    create: { id: newId(ctx.clock().getTime()), sourceId: me.id, targetId: target.id, type: "endorsement", createdAt: ctx.clock() },
    update: {},
  });
}, { scopes: ["write:accounts"] });

export const unendorseAccount = relationshipAction("relationships.unendorse", accountInput, async (ctx, me, target) => {
  await ctx.db.userRelationship.deleteMany({ where: { sourceId: me.id, targetId: target.id, type: "endorsement" } });
}, { scopes: ["write:accounts"] });

async function endorsedBy(ctx: Ctx, account: Pick<Account, "id">, input: z.output<typeof pageInput>): Promise<Page<Account>> {
  const page = keyset(input, { defaultLimit: 40, maxLimit: 80 });
  const rows = await ctx.db.userRelationship.findMany({
    where: { sourceId: account.id, type: "endorsement", target: { deactivated: false }, ...(page.cursor ? { id: page.cursor } : {}) },
    include: { target: true },
    orderBy: { id: page.order },
    take: page.take,
  });
  const result = page.finish(rows, (r) => r.id);
  return { ...result, items: result.items.map((r) => r.target) };
}

/** The viewer's own endorsements. */
export const listEndorsements = operation({
  name: "relationships.endorsements",
  access: { scopes: ["read:accounts"] },
  input: pageInput,
  authorize: requireAccount,
  run: (ctx, input) => endorsedBy(ctx, requireAccount(ctx), input),
});

/** The accounts someone features on their profile; public, as profiles are. */
export const accountEndorsements = operation({
  name: "relationships.accountEndorsements",
  access: { scopes: ["read:accounts"], optional: true },
  input: pageInput.extend({ id: z.string() }),
  async run(ctx, input) {
    const account = await getAccount(ctx, input.id);
    if (account.deactivated) return { items: [] } as Page<Account>;
    return endorsedBy(ctx, account, input);
  },
});

export interface FamiliarFollowers {
  id: string;
  accounts: Account[];
}

/** For each account asked about: the accounts the viewer follows that follow it too (at most 40 accounts asked, one query). */
export const familiarFollowers = operation({
  name: "relationships.familiarFollowers",
  access: { scopes: ["read:follows"] },
  input: z.object({ id: array(z.string()) }),
  authorize: requireAccount,
  async run(ctx, input): Promise<FamiliarFollowers[]> {
    const me = requireAccount(ctx);
    const ids = [...new Set(input.id)].slice(0, 40);
    const rows = ids.length
      ? await ctx.db.follow.findMany({
          where: { followingId: { in: ids }, state: "accept", follower: { deactivated: false, followers: { some: { followerId: me.id, state: "accept" } } } },
          include: { follower: true },
          orderBy: { id: "asc" },
        })
      : [];
    return ids.map((id) => ({ id, accounts: rows.filter((r) => r.followingId === id && r.followerId !== me.id).map((r) => r.follower) }));
  },
});
