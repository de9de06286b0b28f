// The one way to find accounts by nickname or e-mail: exact and case-insensitive, `lower(column) =
// lower($1)`, served by the expression indexes `accounts_lower_nickname_idx` and
// `accounts_lower_email_idx`. Prisma's `{ equals, mode: "insensitive" }` compiles to ILIKE, where `%`
// and `_` in a name are wildcards (signing in as `adm%`, a reset mailed to `%@x.test`) and a trailing
// `\` is an error (SQLSTATE 22025): never use it for names. Searches that mean "contains" escape the
// wildcards with `likeLiteral` (src/db/like.ts). See docs/security.md, "Account names".
import { Prisma, type Account } from "../generated/prisma/client.ts";
import type { Db } from "./client.ts";
import { decodeModel, modelJson } from "./model-rows.ts";

type Client = Db | Prisma.TransactionClient;

export interface AccountNameMatch {
  /** nicknames, any of which matches ("alice" locally, "alice@remote.host" for remote accounts) */
  nicknames?: readonly string[];
  /** e-mail addresses, any of which matches */
  emails?: readonly string[];
  /** only local (true) or only remote (false) accounts */
  local?: boolean;
  /** leave deactivated accounts out */
  active?: boolean;
  /** leave this account out (a clash with someone else) */
  notId?: string;
  /** leave the account with this ActivityPub id out */
  notApId?: string;
  /** at most this many (a nickname match first); every match otherwise */
  limit?: number;
}

const lowered = (values: readonly string[]) => Prisma.join(values.map((v) => Prisma.sql`lower(${v})`));

/** The accounts whose nickname or e-mail equals one of the names, ignoring case; nickname matches first. */
export async function accountsByName(db: Client, match: AccountNameMatch): Promise<Account[]> {
  const nicknames = match.nicknames ?? [];
  const emails = (match.emails ?? []).filter((e) => e !== "");
  if (!nicknames.length && !emails.length) return [];
  const byNickname = nicknames.length ? Prisma.sql`lower(a.nickname) IN (${lowered(nicknames)})` : Prisma.sql`FALSE`;
  const byEmail = emails.length ? Prisma.sql`lower(a.email) IN (${lowered(emails)})` : Prisma.sql`FALSE`;
  const conditions = [Prisma.sql`(${byNickname} OR ${byEmail})`];
  if (match.local !== undefined) conditions.push(Prisma.sql`a.local = ${match.local}`);
  if (match.active) conditions.push(Prisma.sql`NOT a.deactivated`);
  if (match.notId !== undefined) conditions.push(Prisma.sql`a.id <> ${match.notId}`);
  if (match.notApId !== undefined) conditions.push(Prisma.sql`a.ap_id <> ${match.notApId}`);
  const limit = match.limit === undefined ? Prisma.empty : Prisma.sql`LIMIT ${match.limit}`;
  const found = await db.$queryRaw<{ row: Record<string, unknown> }[]>`
    SELECT ${modelJson(db as Db, "Account", "a")} AS row FROM accounts a
    WHERE ${Prisma.join(conditions, " AND ")}
    ORDER BY ${nicknames.length && emails.length ? Prisma.sql`${byNickname} DESC, ` : Prisma.empty}a.id ${limit}`;
  return found.map((f) => decodeModel(db as Db, "Account", f.row));
}

/** The ids of `accountsByName`, for a Prisma filter (`id: { in: ids }`) that combines them with others. */
export async function accountIdsByName(db: Client, match: AccountNameMatch): Promise<string[]> {
  return (await accountsByName(db, match)).map((a) => a.id);
}

/** The first of `accountsByName`: the account of a sign-in name (nickname or e-mail), a mention, a handle. */
export async function accountByName(db: Client, match: Omit<AccountNameMatch, "limit">): Promise<Account | null> {
  const [account] = await accountsByName(db, { ...match, limit: 1 });
  return account ?? null;
}
