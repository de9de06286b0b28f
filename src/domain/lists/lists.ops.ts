// Lists of the reference API: the viewer's own lists of accounts they follow, their members, the
// lists containing an account, and the list timeline. Another account's list is "List not found".
import { z } from "zod";
import { newId } from "../../db/ids.ts";
import type { Account, List, Status } from "../../generated/prisma/client.ts";
import { requireAccount } from "../auth/policy.ts";
import { getAccount } from "../accounts/lookup.ts";
import type { Ctx } from "../context.ts";
import { NotFound, Unprocessable } from "../../kernel/errors.ts";
import { array, bool } from "../inputs.ts";
import { operation } from "../operation.ts";
import { ownRow } from "../own-row.ts";
import { keyset, pageInput, type Page } from "../pagination.ts";
import { listWhere, TIMELINE_RULES } from "../timelines/rules.ts";
import { commonInput, runTimeline } from "../timelines/timelines.ops.ts";

export const LIST_NOT_FOUND = "List not found";
export const REPLIES_POLICIES = ["followed", "list", "none"] as const;

/** The viewer's own list, or 404 "List not found" (other accounts' lists do not exist for them). */
export function ownList(ctx: Ctx, id: string): Promise<List> {
  return ownRow(ctx, (accountId) => ctx.db.list.findFirst({ where: { id, accountId } }), LIST_NOT_FOUND);
}

/** Member account ids of a list (for `list:<id>` addressing). */
export async function listMemberIds(ctx: Ctx, listId: string): Promise<string[]> {
  const rows = await ctx.db.listMember.findMany({ where: { listId }, select: { accountId: true } });
  return rows.map((r) => r.accountId);
}

const idInput = z.object({ id: z.string() });

export const listLists = operation({
  name: "lists.index",
  access: { scopes: ["read:lists"] },
  input: z.object({}),
  authorize: requireAccount,
  async run(ctx): Promise<List[]> {
    const me = requireAccount(ctx);
    return ctx.db.list.findMany({ where: { accountId: me.id }, orderBy: { id: "asc" } });
  },
});

export const getList = operation({
  name: "lists.show",
  access: { scopes: ["read:lists"] },
  input: idInput,
  authorize: requireAccount,
  run: (ctx, input) => ownList(ctx, input.id),
});

export const listInput = z.object({
  title: z.string().trim().min(1, "can't be blank"),
  replies_policy: z.enum(REPLIES_POLICIES).optional(),
  exclusive: bool().optional(),
});

export const createList = operation({
  name: "lists.create",
  access: { scopes: ["write:lists"] },
  input: listInput,
  authorize: requireAccount,
  async run(ctx, input): Promise<List> {
    const me = requireAccount(ctx);
    return ctx.db.list.create({
      data: { id: newId(), accountId: me.id, title: input.title, repliesPolicy: input.replies_policy ?? "list", exclusive: input.exclusive ?? false },
    });
  },
});

export const updateListInput = listInput.partial().extend({ id: z.string() });

export const updateList = operation({
  name: "lists.update",
  access: { scopes: ["write:lists"] },
  input: updateListInput,
  authorize: requireAccount,
  async run(ctx, input): Promise<List> {
    const list = await ownList(ctx, input.id);
    return ctx.db.list.update({
      where: { id: list.id },
      data: {
        ...(input.title !== undefined ? { title: input.title } : {}),
        ...(input.replies_policy !== undefined ? { repliesPolicy: input.replies_policy } : {}),
        ...(input.exclusive !== undefined ? { exclusive: input.exclusive } : {}),
      },
    });
  },
});

export const deleteList = operation({
  name: "lists.delete",
  access: { scopes: ["write:lists"] },
  input: idInput,
  authorize: requireAccount,
  async run(ctx, input): Promise<void> {
    const list = await ownList(ctx, input.id);
    await ctx.db.list.delete({ where: { id: list.id } });
  },
});

/** `limit=0` answers every member, as in the reference API; otherwise keyset pages by account id. */
export const listAccountsInput = pageInput.extend({ id: z.string() });

export const listAccounts = operation({
  name: "lists.accounts",
  access: { scopes: ["read:lists"] },
  input: listAccountsInput,
  authorize: requireAccount,
  async run(ctx, input): Promise<Page<Account>> {
    const list = await ownList(ctx, input.id);
    if (input.limit === 0) {
      const rows = await ctx.db.listMember.findMany({ where: { listId: list.id }, include: { account: true }, orderBy: { accountId: "desc" } });
      return { items: rows.map((r) => r.account) };
    }
    const page = keyset(input, { defaultLimit: 40, maxLimit: 80 });
    const rows = await ctx.db.listMember.findMany({
      where: { listId: list.id, ...(page.cursor ? { accountId: page.cursor } : {}) },
      include: { account: true },
      orderBy: { accountId: page.order },
      take: page.take,
    });
    const result = page.finish(rows, (r) => r.accountId);
    return { ...result, items: result.items.map((r) => r.account) };
  },
});

export const listMembersInput = z.object({ id: z.string(), account_ids: array(z.string()) });

export const addListAccounts = operation({
  name: "lists.addAccounts",
  access: { scopes: ["write:lists"] },
  input: listMembersInput,
  authorize: requireAccount,
  async run(ctx, input): Promise<void> {
    const me = requireAccount(ctx);
    const list = await ownList(ctx, input.id);
    const ids = [...new Set(input.account_ids)];
    if (ids.length === 0) return;
    const found = await ctx.db.account.findMany({ where: { id: { in: ids } }, select: { id: true } });
    if (found.length !== ids.length) throw NotFound("Record not found");
    // the reference rule: only accounts the owner follows may be listed
    const follows = await ctx.db.follow.findMany({ where: { followerId: me.id, followingId: { in: ids }, state: "accept" }, select: { followingId: true } });
    if (follows.length !== ids.length) throw Unprocessable("Validation failed: Account has not been followed", { account_ids: "not followed" });
    await ctx.db.listMember.createMany({ data: ids.map((accountId) => ({ listId: list.id, accountId })), skipDuplicates: true });
  },
});

export const removeListAccounts = operation({
  name: "lists.removeAccounts",
  access: { scopes: ["write:lists"] },
  input: listMembersInput,
  authorize: requireAccount,
  async run(ctx, input): Promise<void> {
    const list = await ownList(ctx, input.id);
    await ctx.db.listMember.deleteMany({ where: { listId: list.id, accountId: { in: input.account_ids } } });
  },
});

/** The viewer's lists that contain the account. */
export const accountLists = operation({
  name: "lists.ofAccount",
  access: { scopes: ["read:lists"] },
  input: idInput,
  authorize: requireAccount,
  async run(ctx, input): Promise<List[]> {
    const me = requireAccount(ctx);
    const account = await getAccount(ctx, input.id);
    return ctx.db.list.findMany({ where: { accountId: me.id, members: { some: { accountId: account.id } } }, orderBy: { id: "asc" } });
  },
});

/**
 * The list's replies policy, as the reference API applies it: self-replies, replies to the list's
 * owner and statuses that are not replies always show; other replies only when addressed to a
 * member (`list`) or to an account the owner follows (`followed`), never with `none`.
 */
/** The accounts the list's owner follows, which its `followed` replies policy needs (listWhere, timelines/rules.ts). */
async function followedForReplies(ctx: Ctx, list: List): Promise<string[]> {
  if (list.repliesPolicy !== "followed") return [];
  const follows = await ctx.db.follow.findMany({ where: { followerId: list.accountId, state: "accept" }, select: { followingId: true } });
  return follows.map((f) => f.followingId);
}

/** The list timeline takes the parameters of the home timeline but `reply_visibility` (its replies policy decides). */
export const listTimelineInput = commonInput.extend({ id: z.string(), local: bool().optional() });

/**
 * Statuses (and reblogs) by the list's members that the viewer can see, newest first, through the
 * timelines' own runner: mutes, muted threads (unless `with_muted`), domain blocks and irreversible
 * filters of the `home` context apply, as the reference API treats list timelines as home ones.
 */
export const listTimeline = operation({
  name: "lists.timeline",
  access: { scopes: ["read:lists"] },
  input: listTimelineInput,
  authorize: requireAccount,
  async run(ctx, input): Promise<Page<Status>> {
    const list = await ownList(ctx, input.id);
    const members = await listMemberIds(ctx, list.id);
    if (members.length === 0) return { items: [] };
    return runTimeline(ctx, input, { ...TIMELINE_RULES.list, where: listWhere(list, members, await followedForReplies(ctx, list)) });
  },
});

/**
 * A list holds only accounts its owner follows: when a follow ends (unfollow, block, removal from
 * followers, rejection), the followed account leaves the follower's lists. A Prisma query for the
 * caller's transaction.
 */
export function leaveFollowerLists(ctx: Ctx, followerId: string, followingId: string) {
  return ctx.db.listMember.deleteMany({ where: { accountId: followingId, list: { accountId: followerId } } });
}
