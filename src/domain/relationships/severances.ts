// Severed relationships (the reference API's RelationshipSeveranceEvent): when a domain block cuts the
// follows between local accounts and a domain's accounts, what each local account lost is recorded
// (counts and the other accounts' addresses, kept even if those accounts are purged later), the follows
// go, and each local account concerned gets a `severed_relationships` notification. A constant number
// of statements whatever the number of follows.
import { z } from "zod";
import { likeLiteral, storedHost } from "../../db/like.ts";
import { newId } from "../../db/ids.ts";
import type { Prisma } from "../../generated/prisma/client.ts";
import type { Ctx } from "../context.ts";
import { federate } from "../federation/outbox.ts";
import { requireAccount } from "../auth/policy.ts";
import { ownRow } from "../own-row.ts";
import { notify } from "../notifications/notify.ts";
import { operation } from "../operation.ts";
import { keyset, pageInput } from "../pagination.ts";
import { signedIn } from "./relationships.policy.ts";

export type SeveranceType = "domain_block" | "user_domain_block" | "account_suspension";

/** Accounts of `domain`: a `*.example.com` block covers example.com and its subdomains, as in the lists. */
function onDomain(domain: string): Prisma.AccountWhereInput {
  const bare = domain.replace(/^\*\./, "");
  return { local: false, OR: [{ domain: storedHost(bare) }, ...(domain.startsWith("*.") ? [{ domain: { endsWith: likeLiteral(`.${storedHost(bare)}`) } }] : [])] };
}

/**
 * Cuts the follows (both ways, accepted or pending) between the local accounts (or only `localAccountId`,
 * for a user's own domain block) and the accounts of `domain`. Returns the event's id, null when nothing was cut.
 */
export function severDomain(ctx: Ctx, input: { type: "domain_block" | "user_domain_block"; domain: string; localAccountId?: string }): Promise<string | null> {
  return sever(ctx, { type: input.type, targetName: input.domain, remote: onDomain(input.domain), localAccountId: input.localAccountId });
}

/** A moderator suspended a remote account: its follows with local accounts are cut (`account_suspension`). */
export function severSuspendedAccount(ctx: Ctx, account: { id: string; nickname: string; local: boolean }): Promise<string | null> {
  if (account.local) return Promise.resolve(null);
  return sever(ctx, { type: "account_suspension", targetName: account.nickname, remote: { id: account.id, local: false } });
}

async function sever(ctx: Ctx, input: { type: SeveranceType; targetName: string; remote: Prisma.AccountWhereInput; localAccountId?: string }): Promise<string | null> {
  const remote = input.remote;
  const local: Prisma.AccountWhereInput = input.localAccountId ? { id: input.localAccountId } : { local: true };
  const follows = await ctx.db.follow.findMany({
    where: { OR: [{ follower: local, following: remote }, { follower: remote, following: local }] },
    include: { follower: { select: { nickname: true, local: true } }, following: { select: { nickname: true, local: true } } },
  });
  if (follows.length === 0) return null;
  const now = ctx.clock();
  const eventId = newId(now.getTime());
  // per local account: its share of the event and the relationships it lost
  const shares = new Map<string, { id: string; followers: number; following: number }>();
  const relationships: Prisma.SeveredRelationshipCreateManyInput[] = [];
  for (const f of follows) {
    const following = f.follower.local; // the local account followed the remote one
    const localId = following ? f.followerId : f.followingId;
    let share = shares.get(localId);
    if (!share) shares.set(localId, (share = { id: newId(now.getTime()), followers: 0, following: 0 }));
    if (following) share.following++;
    else share.followers++;
    const acct = following ? f.following.nickname : f.follower.nickname;
    relationships.push({ id: newId(now.getTime()), accountEventId: share.id, direction: following ? "following" : "followers", acct, showReblogs: f.showReblogs, notify: f.notify });
  }
  await ctx.db.$transaction([
    ctx.db.relationshipSeveranceEvent.create({ data: { id: eventId, type: input.type, targetName: input.targetName, createdAt: now } }),
    ctx.db.accountRelationshipSeveranceEvent.createMany({
      data: [...shares].map(([accountId, s]) => ({ id: s.id, eventId, accountId, followersCount: s.followers, followingCount: s.following, createdAt: now })),
    }),
    ctx.db.severedRelationship.createMany({ data: relationships }),
    ctx.db.follow.deleteMany({ where: { id: { in: follows.map((f) => f.id) } } }),
    // lists hold only followed accounts: the lost ones leave the local followers' lists
    ctx.db.listMember.deleteMany({ where: { account: remote, list: { account: local } } }),
  ]);
  // a user's own block tells the domain (Undo of our follows, Reject of theirs); an instance block cuts it off
  if (input.type === "user_domain_block")
    for (const f of follows)
      await federate(ctx, { type: f.follower.local ? "follow.undo" : "follow.reject", followId: f.id, followApId: f.apId, followerId: f.followerId, followingId: f.followingId });
  await notify(ctx, [...shares].map(([accountId, s]) => ({ accountId, type: "severed_relationships" as const, fromAccountId: accountId, severanceEventId: s.id })));
  return eventId;
}

/** The viewer's shares of severance events, newest first (the reference lists them on a settings page). */
export const listSeverances = operation({
  name: "relationships.severances",
  access: { scopes: ["read:follows"] },
  input: pageInput,
  authorize: signedIn,
  async run(ctx, input) {
    const me = requireAccount(ctx);
    const k = keyset(input, { defaultLimit: 40, maxLimit: 80 });
    const rows = await ctx.db.accountRelationshipSeveranceEvent.findMany({
      where: { accountId: me.id, ...(k.cursor ? { id: k.cursor } : {}) },
      orderBy: { id: k.order },
      take: k.take,
      include: { event: true },
    });
    return k.finish(rows, (r) => r.id);
  },
});

/**
 * The relationships one share lost, in one direction, as the reference's CSV exports write them:
 * `following` in the follows-import format (address, boosts, notify, languages), `followers` addresses only.
 */
export const severedRelationshipsCsv = operation({
  name: "relationships.severedCsv",
  access: { scopes: ["read:follows"] },
  input: z.object({ id: z.string(), direction: z.enum(["followers", "following"]) }),
  authorize: signedIn,
  async run(ctx, input): Promise<string> {
    const share = await ownRow(ctx, (accountId) =>
      ctx.db.accountRelationshipSeveranceEvent.findFirst({ where: { id: input.id, accountId }, include: { event: { select: { purged: true } } } }),
    );
    const rows = share.event.purged ? [] : await ctx.db.severedRelationship.findMany({ where: { accountEventId: share.id, direction: input.direction }, orderBy: { id: "asc" } });
    const lines =
      input.direction === "following"
        ? ["Account address,Show boosts,Notify on new posts,Languages", ...rows.map((r) => `${csvCell(r.acct)},${r.showReblogs},${r.notify},`)]
        : ["Account address", ...rows.map((r) => csvCell(r.acct))];
    return `${lines.join("\n")}\n`;
  },
});

/** Addresses hold no comma or quote, but a remote server chooses them: quoted when they would break the row. */
const csvCell = (s: string) => (/[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
