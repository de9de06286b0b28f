// Reading users through the admin API: the filtered list (numbered pages, as the family pages it),
// one user by nickname or id, a user's statuses as staff see them (godmode), permission groups.
import { z } from "zod";
import { likeLiteral } from "../../db/like.ts";
import type { Account, Prisma, Status } from "../../generated/prisma/client.ts";
import { findAccountByIdOrNickname, findAccountsByHandles } from "./lookup.ts";
import type { Ctx } from "../context.ts";
import { NotFound } from "../../kernel/errors.ts";
import { array, bool, int } from "../inputs.ts";
import { operation } from "../operation.ts";
import { accountIdsByName } from "../../db/account-names.ts";

/** The spec's default page sizes: users 50, status listings 20. */
export const USERS_PAGE_SIZE = 50;
export const USER_STATUSES_PAGE_SIZE = 20;

/** The admin API's 404: `{error: "Not found"}`. */
export const NOT_FOUND = "Not found";

export const USER_FILTERS = ["local", "external", "active", "need_approval", "unconfirmed", "deactivated", "is_admin", "is_moderator"] as const;
type UserFilter = (typeof USER_FILTERS)[number];

/** Each filter narrows the list; several combine (AND), as the family's query builder chains them. */
const FILTER_WHERE: Record<UserFilter, Prisma.AccountWhereInput> = {
  local: { local: true },
  external: { local: false },
  // the family's "active" is also approved and confirmed
  active: { deactivated: false, approvalPending: false, confirmationPending: false },
  need_approval: { approvalPending: true },
  unconfirmed: { confirmationPending: true },
  deactivated: { deactivated: true },
  is_admin: { isAdmin: true },
  is_moderator: { isModerator: true },
};

/** "local,deactivated" or ["local", "deactivated"]; unknown values are ignored, as the family does. */
export function parseFilters(raw: string | string[] | undefined): UserFilter[] {
  const parts = (Array.isArray(raw) ? raw : [raw ?? ""]).flatMap((s) => s.split(","));
  return [...new Set(parts.map((s) => s.trim()).filter((s): s is UserFilter => (USER_FILTERS as readonly string[]).includes(s)))];
}

export const listUsersInput = z.object({
  /** nickname, domain (or nickname@domain), display name or e-mail */
  query: z.string().optional(),
  filters: z.union([z.string(), z.array(z.string())]).optional(),
  tags: array(z.string()).optional(),
  actor_types: array(z.string()).optional(),
  /** display name */
  name: z.string().optional(),
  email: z.string().optional(),
  page: int().optional(),
  page_size: int().optional(),
  /** items to skip instead of `page` (GraphQL connections page by offset) */
  offset: int().optional(),
});

export async function usersWhere(ctx: Ctx, input: z.output<typeof listUsersInput>): Promise<Prisma.AccountWhereInput> {
  const and: Prisma.AccountWhereInput[] = parseFilters(input.filters).map((f) => FILTER_WHERE[f]);
  const contains = (s: string) => ({ contains: likeLiteral(s), mode: "insensitive" as const });
  const query = input.query?.trim();
  if (query) {
    and.push({ OR: [{ nickname: contains(query) }, { domain: contains(query) }, { displayName: contains(query) }, { email: contains(query) }] });
  }
  if (input.name?.trim()) and.push({ displayName: contains(input.name.trim()) });
  if (input.email?.trim()) and.push({ id: { in: await accountIdsByName(ctx.db, { emails: [input.email.trim()] }) } });
  if (input.tags?.length) and.push({ tags: { hasSome: input.tags } });
  if (input.actor_types?.length) and.push({ actorType: { in: input.actor_types.filter(isActorType) } });
  return { AND: and };
}

const ACTOR_TYPES = ["Person", "Service", "Application", "Group", "Organization"] as const;
const isActorType = (s: string): s is (typeof ACTOR_TYPES)[number] => (ACTOR_TYPES as readonly string[]).includes(s);

export interface UserPage {
  pageSize: number;
  /** every user matching, whatever the page */
  count: number;
  users: Account[];
}

/** GET /users: ordered by nickname; a page past the end is empty but still counts every match. */
export const listUsers = operation({
  name: "admin.listUsers",
  access: { scopes: ["admin:read:accounts"], privilege: "users_read" },
  input: listUsersInput,
  async run(ctx, input): Promise<UserPage> {
    const pageSize = Math.max(input.page_size ?? USERS_PAGE_SIZE, 1);
    const skip = input.offset !== undefined ? Math.max(input.offset, 0) : (Math.max(input.page ?? 1, 1) - 1) * pageSize;
    const where = await usersWhere(ctx, input);
    const [count, users] = await Promise.all([
      ctx.db.account.count({ where }),
      ctx.db.account.findMany({ where, orderBy: [{ nickname: "asc" }, { id: "asc" }], skip, take: pageSize }),
    ]);
    return { pageSize, count, users };
  },
});

/** One user by id or nickname ("alice", "alice@this.host", "bob@remote.host"), or the admin API's 404. */
export async function getUser(ctx: Ctx, nicknameOrId: string): Promise<Account> {
  const account = await findAccountByIdOrNickname(ctx, nicknameOrId);
  if (!account) throw NotFound(NOT_FOUND);
  return account;
}

/** The known users among those named, in the order given, each once (one query). */
export async function findUsers(ctx: Ctx, nicknames: readonly string[]): Promise<Account[]> {
  return inOrder(await findAccountsByHandles(ctx, nicknames), nicknames);
}

/** Like findUsers, but one unknown nickname is the admin API's 404. */
export async function getUsers(ctx: Ctx, nicknames: readonly string[]): Promise<Account[]> {
  const found = await findAccountsByHandles(ctx, nicknames);
  if (nicknames.some((n) => !found.has(n))) throw NotFound(NOT_FOUND);
  return inOrder(found, nicknames);
}

function inOrder(found: Map<string, Account>, nicknames: readonly string[]): Account[] {
  const users = new Map<string, Account>();
  for (const nickname of nicknames) {
    const user = found.get(nickname);
    if (user) users.set(user.id, user);
  }
  return [...users.values()];
}

export const showUser = operation({
  name: "admin.showUser",
  access: { scopes: ["admin:read:accounts"], privilege: "users_read" },
  input: z.object({ nickname_or_id: z.string() }),
  run: (ctx, input) => getUser(ctx, input.nickname_or_id),
});

export const userStatusesInput = z.object({
  nickname_or_id: z.string(),
  page: int().optional(),
  page_size: int().optional(),
  /** private and direct statuses too */
  godmode: bool().optional(),
  with_reblogs: bool().optional(),
  /** items to skip instead of `page` (GraphQL connections page by offset) */
  offset: int().optional(),
});

/**
 * A user's statuses, newest first, as staff see them: written here rather than through
 * src/domain/statuses/visibility.ts, which decides what a viewer may see — staff are not a viewer
 * of this list. Without godmode only public and unlisted statuses; reblogs only when asked.
 */
export const userStatuses = operation({
  name: "admin.userStatuses",
  access: { scopes: ["admin:read:statuses"], privilege: "messages_read" },
  input: userStatusesInput,
  async run(ctx, input): Promise<{ total: number; statuses: Status[] }> {
    const user = await getUser(ctx, input.nickname_or_id);
    const pageSize = Math.max(input.page_size ?? USER_STATUSES_PAGE_SIZE, 1);
    const skip = input.offset !== undefined ? Math.max(input.offset, 0) : (Math.max(input.page ?? 1, 1) - 1) * pageSize;
    const where: Prisma.StatusWhereInput = {
      accountId: user.id,
      ...(input.godmode ? {} : { visibility: { in: ["public", "unlisted"] } }),
      ...(input.with_reblogs ? {} : { reblogOfId: null }),
    };
    const [total, statuses] = await Promise.all([
      ctx.db.status.count({ where }),
      ctx.db.status.findMany({ where, orderBy: { id: "desc" }, skip, take: pageSize }),
    ]);
    return { total, statuses };
  },
});

export const PERMISSION_GROUPS = ["admin", "moderator"] as const;
export type PermissionGroup = (typeof PERMISSION_GROUPS)[number];
export const NO_SUCH_GROUP = "No such permission_group";

/** The group of a path, or the family's 404 for any other word. */
export function permissionGroup(group: string): PermissionGroup {
  if (!(PERMISSION_GROUPS as readonly string[]).includes(group)) throw NotFound(NO_SUCH_GROUP);
  return group as PermissionGroup;
}

/** GET permission_group (optionally naming one group): both flags either way, as the family answers. */
export const getPermissionGroups = operation({
  name: "admin.getPermissionGroups",
  access: { scopes: ["admin:read:accounts"], role: "admin" },
  input: z.object({ nickname: z.string(), permission_group: z.string().optional() }),
  async run(ctx, input) {
    if (input.permission_group !== undefined) permissionGroup(input.permission_group);
    const user = await getUser(ctx, input.nickname);
    return { is_moderator: user.isModerator, is_admin: user.isAdmin };
  },
});
