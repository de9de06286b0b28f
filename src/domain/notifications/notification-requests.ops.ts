// The viewer's notification policy and the requests its filtered notifications form (the reference
// API's `/api/v2/notifications/policy` and `/api/v1/notifications/requests`). Accepting a request
// shows its notifications and lets the sender through from then on; dismissing one deletes them.
import { z } from "zod";
import type { Account, NotificationPolicy, NotificationRequest, Status } from "../../generated/prisma/client.ts";
import { requireAccount } from "../auth/policy.ts";
import type { Ctx } from "../context.ts";
import { NotFound } from "../../kernel/errors.ts";
import { array } from "../inputs.ts";
import { operation } from "../operation.ts";
import { keyset, pageInput, type Page } from "../pagination.ts";
import { POLICY_ACTIONS } from "./policy.ts";

export interface PolicyView {
  policy: Pick<NotificationPolicy, "forNotFollowing" | "forNotFollowers" | "forNewAccounts" | "forPrivateMentions" | "forLimitedAccounts">;
  /** pending requests (at most 100) and their filtered notifications */
  pendingRequests: number;
  pendingNotifications: number;
}

export interface RequestView {
  request: NotificationRequest;
  account: Account;
  lastStatus: Status | null;
  notificationsCount: number;
}

const ACCEPT_ALL = { forNotFollowing: "accept", forNotFollowers: "accept", forNewAccounts: "accept", forPrivateMentions: "accept", forLimitedAccounts: "accept" };

async function policyView(ctx: Ctx, accountId: string, stored: NotificationPolicy | null): Promise<PolicyView> {
  const [pendingRequests, pendingNotifications] = await Promise.all([
    ctx.db.notificationRequest.count({ where: { accountId }, take: 100 }),
    ctx.db.notification.count({ where: { accountId, filtered: true } }),
  ]);
  return { policy: stored ?? ACCEPT_ALL, pendingRequests, pendingNotifications };
}

export const getNotificationPolicy = operation({
  name: "notifications.policy",
  access: { scopes: ["read:notifications"] },
  input: z.object({}),
  authorize: requireAccount,
  async run(ctx): Promise<PolicyView> {
    const me = requireAccount(ctx);
    return policyView(ctx, me.id, await ctx.db.notificationPolicy.findUnique({ where: { accountId: me.id } }));
  },
});

const action = z.enum(POLICY_ACTIONS).optional();

/** Changes the policy: each kind of sender given is accepted, filtered or dropped; the others stay. */
export const updateNotificationPolicy = operation({
  name: "notifications.updatePolicy",
  access: { scopes: ["write:notifications"] },
  input: z.object({ for_not_following: action, for_not_followers: action, for_new_accounts: action, for_private_mentions: action, for_limited_accounts: action }),
  authorize: requireAccount,
  async run(ctx, input): Promise<PolicyView> {
    const me = requireAccount(ctx);
    const data = {
      ...(input.for_not_following && { forNotFollowing: input.for_not_following }),
      ...(input.for_not_followers && { forNotFollowers: input.for_not_followers }),
      ...(input.for_new_accounts && { forNewAccounts: input.for_new_accounts }),
      ...(input.for_private_mentions && { forPrivateMentions: input.for_private_mentions }),
      ...(input.for_limited_accounts && { forLimitedAccounts: input.for_limited_accounts }),
    };
    const stored = await ctx.db.notificationPolicy.upsert({ where: { accountId: me.id }, create: { accountId: me.id, ...data }, update: data });
    return policyView(ctx, me.id, stored);
  },
});

/** Requests with their sender, last status and count: three statements whatever the page's length. */
async function views(ctx: Ctx, requests: NotificationRequest[]): Promise<RequestView[]> {
  if (!requests.length) return [];
  const me = requireAccount(ctx);
  const senders = requests.map((r) => r.fromAccountId);
  const statusIds = requests.map((r) => r.lastStatusId).filter((id): id is string => !!id);
  const [accounts, statuses, counts] = await Promise.all([
    ctx.db.account.findMany({ where: { id: { in: senders } } }),
    statusIds.length ? ctx.db.status.findMany({ where: { id: { in: statusIds } } }) : Promise.resolve([]),
    ctx.db.notification.groupBy({ by: ["fromAccountId"], where: { accountId: me.id, filtered: true, fromAccountId: { in: senders } }, _count: { _all: true } }),
  ]);
  const account = new Map(accounts.map((a) => [a.id, a]));
  const status = new Map(statuses.map((s) => [s.id, s]));
  const count = new Map(counts.map((c) => [c.fromAccountId, c._count._all]));
  return requests.map((request) => ({
    request,
    account: account.get(request.fromAccountId)!,
    lastStatus: (request.lastStatusId && status.get(request.lastStatusId)) || null,
    notificationsCount: count.get(request.fromAccountId) ?? 0,
  }));
}

export const listNotificationRequests = operation({
  name: "notifications.requests",
  access: { scopes: ["read:notifications"] },
  input: pageInput,
  authorize: requireAccount,
  async run(ctx, input): Promise<Page<RequestView>> {
    const me = requireAccount(ctx);
    const page = keyset(input, { defaultLimit: 40, maxLimit: 80 });
    const rows = await ctx.db.notificationRequest.findMany({ where: { accountId: me.id, ...(page.cursor ? { id: page.cursor } : {}) }, orderBy: { id: page.order }, take: page.take });
    const result = page.finish(rows, (r) => r.id);
    return { ...result, items: await views(ctx, result.items) };
  },
});

async function ownRequests(ctx: Ctx, ids: string[]): Promise<NotificationRequest[]> {
  const me = requireAccount(ctx);
  return ctx.db.notificationRequest.findMany({ where: { accountId: me.id, id: { in: ids } } });
}

export const showNotificationRequest = operation({
  name: "notifications.request",
  access: { scopes: ["read:notifications"] },
  input: z.object({ id: z.string() }),
  authorize: requireAccount,
  async run(ctx, input): Promise<RequestView> {
    const [request] = await ownRequests(ctx, [input.id]);
    if (!request) throw NotFound("Record not found");
    return (await views(ctx, [request]))[0]!;
  },
});

const idsInput = z.object({ id: array(z.string()) });

/**
 * Accepts requests (unknown ids are skipped; one unknown id alone is 404): their notifications are shown
 * at once and their senders are never filtered again.
 */
export const acceptNotificationRequests = operation({
  name: "notifications.acceptRequests",
  access: { scopes: ["write:notifications"] },
  input: idsInput,
  authorize: requireAccount,
  async run(ctx, input): Promise<void> {
    const me = requireAccount(ctx);
    const requests = await ownRequests(ctx, input.id);
    if (!requests.length && input.id.length === 1) throw NotFound("Record not found");
    const senders = requests.map((r) => r.fromAccountId);
    await ctx.db.$transaction([
      ctx.db.notification.updateMany({ where: { accountId: me.id, filtered: true, fromAccountId: { in: senders } }, data: { filtered: false } }),
      ctx.db.notificationPermission.createMany({ data: senders.map((fromAccountId) => ({ accountId: me.id, fromAccountId, createdAt: ctx.clock() })), skipDuplicates: true }),
      ctx.db.notificationRequest.deleteMany({ where: { id: { in: requests.map((r) => r.id) } } }),
    ]);
  },
});

/**
 * Whether the notifications of accepted requests have been merged into the list: always, since accepting
 * merges them in its own transaction (the reference server merges in the background and answers false
 * until done).
 */
export const notificationRequestsMerged = operation({
  name: "notifications.requestsMerged",
  access: { scopes: ["read:notifications"] },
  input: z.object({}),
  authorize: requireAccount,
  run: async (): Promise<{ merged: boolean }> => ({ merged: true }),
});

/** Dismisses requests: they and their filtered notifications are deleted (a later one opens a new request). */
export const dismissNotificationRequests = operation({
  name: "notifications.dismissRequests",
  access: { scopes: ["write:notifications"] },
  input: idsInput,
  authorize: requireAccount,
  async run(ctx, input): Promise<void> {
    const me = requireAccount(ctx);
    const requests = await ownRequests(ctx, input.id);
    if (!requests.length && input.id.length === 1) throw NotFound("Record not found");
    await ctx.db.$transaction([
      ctx.db.notification.deleteMany({ where: { accountId: me.id, filtered: true, fromAccountId: { in: requests.map((r) => r.fromAccountId) } } }),
      ctx.db.notificationRequest.deleteMany({ where: { id: { in: requests.map((r) => r.id) } } }),
    ]);
  },
});
