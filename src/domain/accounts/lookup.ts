// Resolves the `:id` of account routes: the family accepts an account id or a nickname
// ("alice", "@alice", "alice@this.host" for local accounts, "bob@remote.host" for remote ones).
import type { Account } from "../../generated/prisma/client.ts";
import type { Ctx } from "../context.ts";
import { NotFound } from "../../kernel/errors.ts";
import { accountCache } from "./account-cache.ts";
import { accountByName, accountsByName } from "../../db/account-names.ts";

/** The family's message when an account route names no known account. */
export const RECORD_NOT_FOUND = "Record not found";

/** "@alice" → "alice"; "alice@<our domain>" → "alice"; other handles are kept as stored ("bob@remote.host"). */
export function normalizeHandle(ctx: Pick<Ctx, "settings">, handle: string): string {
  let h = handle.trim().replace(/^@/, "");
  const local = `@${ctx.settings.domain}`;
  if (h.toLowerCase().endsWith(local.toLowerCase())) h = h.slice(0, -local.length);
  return h;
}

export async function findAccountByIdOrNickname(ctx: Ctx, idOrNickname: string): Promise<Account | null> {
  const raw = idOrNickname.trim();
  if (!raw) return null;
  // an id match wins over a nickname that happens to look like an id. Asked apart, because clients name
  // accounts by id and `id = … OR nickname ILIKE …` cannot use an index: it read the whole accounts table
  // (40 ms with 20,000 accounts, docs/performance.md "HTTP benchmark")
  const byId = await ctx.db.account.findUnique({ where: { id: raw } });
  if (byId) return byId;
  const nickname = normalizeHandle(ctx, raw);
  if (!nickname) return null;
  return accountByName(ctx.db, { nicknames: [nickname] });
}

/**
 * Like findAccountByIdOrNickname, but a missing account is the family's 404 "Record not found". An account named
 * by id comes from the account cache when it holds it (account-cache.ts: every write to the row drops it), so
 * that an account's page (its statuses, its profile) needs no statement to find the account.
 */
export async function getAccount(ctx: Ctx, idOrNickname: string): Promise<Account> {
  const cache = accountCache(ctx);
  const id = idOrNickname.trim();
  const held = cache.get(id);
  if (held) return held;
  const since = cache.begin();
  const account = await findAccountByIdOrNickname(ctx, idOrNickname);
  if (account?.id === id) cache.store(since, account);
  if (!account) throw NotFound(RECORD_NOT_FOUND);
  return account;
}

/** Accounts named by handles (imports): one query; unknown handles are simply absent from the map. */
export async function findAccountsByHandles(ctx: Ctx, handles: readonly string[]): Promise<Map<string, Account>> {
  const wanted = [...new Set(handles.map((h) => normalizeHandle(ctx, h)).filter(Boolean))];
  if (wanted.length === 0) return new Map();
  const rows = await accountsByName(ctx.db, { nicknames: wanted });
  const byLower = new Map(rows.map((r) => [r.nickname.toLowerCase(), r]));
  const out = new Map<string, Account>();
  for (const h of handles) {
    const found = byLower.get(normalizeHandle(ctx, h).toLowerCase());
    if (found) out.set(h, found);
  }
  return out;
}
