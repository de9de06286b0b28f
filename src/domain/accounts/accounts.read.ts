// Reading other accounts: show, lookup, search, followers and following.
import { z } from "zod";
import { likeLiteral } from "../../db/like.ts";
import type { Account, Prisma } from "../../generated/prisma/client.ts";
import { isStaff, requireAccount } from "../auth/policy.ts";
import type { Ctx } from "../context.ts";
import { NotFound } from "../../kernel/errors.ts";
import { isHttpUrl, parseHandle, refreshIfStale } from "../federation/port.ts";
import { bool, int } from "../inputs.ts";
import { operation } from "../operation.ts";
import { keyset, pageInput, type Page } from "../pagination.ts";
import { getAccount } from "./lookup.ts";
import { accountByName } from "../../db/account-names.ts";

/** Deactivated accounts are visible only to staff, as in the family. */
async function visibleAccount(ctx: Ctx, idOrNickname: string): Promise<Account> {
  const account = await getAccount(ctx, idOrNickname);
  if (account.deactivated && !isStaff(ctx.viewer) && ctx.viewer.account?.id !== account.id) throw NotFound("Can't find user");
  return account;
}

/** The signed-in account itself (REST's verify_credentials renders it with its source and private settings). */
export const verifyCredentials = operation({
  name: "accounts.verifyCredentials",
  access: { scopes: ["read:accounts"] },
  input: z.object({}),
  run: async (ctx) => requireAccount(ctx),
});

export const showAccount = operation({
  name: "accounts.show",
  access: { scopes: ["read:accounts"], optional: true },
  input: z.object({ id: z.string() }),
  async run(ctx, input) {
    const account = await visibleAccount(ctx, input.id);
    await refreshIfStale(ctx, account);
    return account;
  },
});

/**
 * `acct` as "nick", "@nick", "nick@host"; our own domain means a local account. A remote account not
 * stored yet is fetched (WebFinger, then the actor) when the server federates; a stored one that is
 * stale is refreshed in the background.
 */
export const lookupAccount = operation({
  name: "accounts.lookup",
  access: "public",
  input: z.object({ acct: z.string().min(1) }),
  async run(ctx, input) {
    const acct = input.acct.trim().replace(/^@/, "");
    const [nick, host] = acct.split("@");
    const local = !host || host.toLowerCase() === ctx.settings.domain.toLowerCase();
    let account = await accountByName(ctx.db, local ? { nicknames: [nick], local: true } : { nicknames: [acct], local: false });
    if (!account && !local) account = await resolveRemoteAccount(ctx, acct);
    if (!account || (account.deactivated && !isStaff(ctx.viewer))) throw NotFound("Can't find user");
    await refreshIfStale(ctx, account);
    return account;
  },
});

/**
 * A remote account by handle or URL, fetched when not stored (null without federation, when the
 * instance does not federate, or when nothing answers).
 */
export async function resolveRemoteAccount(ctx: Ctx, handleOrUrl: string): Promise<Account | null> {
  if (!ctx.federation || !ctx.config.get("instance", "federating")) return null;
  if (!parseHandle(handleOrUrl) && !isHttpUrl(handleOrUrl)) return null;
  return ctx.federation.resolveAccount(ctx, handleOrUrl);
}

export const searchAccounts = operation({
  name: "accounts.search",
  access: { scopes: ["read:search", "read:accounts"], optional: true },
  input: z.object({
    q: z.string().default(""),
    limit: int().default(40),
    offset: int().default(0),
    resolve: bool().default(false),
    following: bool().default(false),
  }),
  async run(ctx, input) {
    const q = input.q.trim().replace(/^@/, "");
    if (!q) return [];
    const [nick, host] = q.split("@");
    const where: Prisma.AccountWhereInput = {
      deactivated: false,
      OR: [
        { nickname: { contains: likeLiteral(host && host.toLowerCase() === ctx.settings.domain.toLowerCase() ? nick : q), mode: "insensitive" } },
        { displayName: { contains: likeLiteral(q), mode: "insensitive" } },
      ],
    };
    if (input.following && ctx.viewer.account) where.followers = { some: { followerId: ctx.viewer.account.id, state: "accept" } };
    // resolve=true looks a handle or URL up remotely, for signed-in viewers only (the family's
    // `limit_to_local_content: :unauthenticated`): anonymous requests never make the server fetch
    const resolved = input.resolve && ctx.viewer.account && !input.offset && (host || isHttpUrl(input.q)) ? await resolveRemoteAccount(ctx, isHttpUrl(input.q) ? input.q.trim() : q) : null;
    const rows = await ctx.db.account.findMany({ where, take: Math.min(Math.max(input.limit, 1), 80), skip: Math.max(input.offset, 0), orderBy: [{ local: "desc" }, { nickname: "asc" }] });
    // exact nickname matches first
    rows.sort((a, b) => Number(b.nickname.toLowerCase() === q.toLowerCase()) - Number(a.nickname.toLowerCase() === q.toLowerCase()));
    if (!resolved || resolved.deactivated) return rows;
    return [resolved, ...rows.filter((r) => r.id !== resolved.id)].slice(0, Math.min(Math.max(input.limit, 1), 80));
  },
});

const followListInput = pageInput.extend({ id: z.string() });

async function followList(ctx: Ctx, input: z.output<typeof followListInput>, side: "followers" | "following"): Promise<Page<Account>> {
  const target = await visibleAccount(ctx, input.id);
  const hidden = side === "followers" ? target.hideFollowers : target.hideFollows;
  if (hidden && ctx.viewer.account?.id !== target.id) return { items: [] };
  const page = keyset(input);
  const rows = await ctx.db.follow.findMany({
    where: { state: "accept", ...(side === "followers" ? { followingId: target.id } : { followerId: target.id }), ...(page.cursor ? { id: page.cursor } : {}) },
    include: { follower: side === "followers", following: side === "following" },
    orderBy: { id: page.order },
    take: page.take,
  });
  const result = page.finish(rows, (r) => r.id);
  return { ...result, items: result.items.map((r) => (side === "followers" ? r.follower : r.following)!) };
}

export const listFollowers = operation({ name: "accounts.followers", access: { scopes: ["read:accounts"], optional: true }, input: followListInput, run: (ctx, input) => followList(ctx, input, "followers") });
export const listFollowing = operation({ name: "accounts.following", access: { scopes: ["read:accounts"], optional: true }, input: followListInput, run: (ctx, input) => followList(ctx, input, "following") });
