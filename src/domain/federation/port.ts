// What the domain asks of federation: finding remote accounts and statuses that are not stored here yet
// (WebFinger and signed fetches), fetching the missing ancestors of a remote reply, and refreshing remote
// accounts. Implemented by src/federation/resolve.ts and present on `Services` only in a running server
// (the CLI builds services without it), so every caller treats `ctx.federation` as optional: without it
// the domain answers from what is stored.
import type { Account, Status } from "../../generated/prisma/client.ts";
import type { Ctx } from "../context.ts";

export type Resolved = { account: Account } | { status: Status };

export interface FederationPort {
  /**
   * The account a handle ("user@host", "@user@host", "acct:user@host") or an actor/profile URL names:
   * the stored one when known, otherwise fetched (WebFinger, then the actor document) and stored.
   * Null when nothing answers or the answer is not an actor. Refused fetches (private addresses) also
   * answer null: a lookup of something unreachable is "not found" to the client.
   */
  resolveAccount(ctx: Ctx, handleOrUrl: string): Promise<Account | null>;
  /** An account or a status by its URL (ActivityPub id or the page URL a server redirects from), fetched and stored if unknown. */
  resolveObject(ctx: Ctx, url: string): Promise<Resolved | null>;
  /**
   * Fetches the ancestors of a remote reply that are missing here (at most `maxDepth` of them, within
   * `timeoutMs`) and links the chain; answers how many statuses were stored or linked to a parent (0: the
   * thread is as it was, nothing to read again).
   */
  fetchAncestors(ctx: Ctx, status: Status, opts?: { maxDepth?: number; timeoutMs?: number }): Promise<number>;
  /** Re-fetches a remote account's actor document now; answers the updated account (or the stored one when the fetch failed). */
  refreshAccount(ctx: Ctx, accountId: string): Promise<Account | null>;
  /** Schedules a durable background refresh of a remote account; at most one is pending per account. */
  scheduleRefresh(ctx: Ctx, accountId: string): Promise<void>;
  /** The remote follow / interaction template of a handle's server (WebFinger `http://ostatus.org/schema/1.0/subscribe`), null when it has none. */
  subscribeTemplate(ctx: Ctx, handle: string): Promise<string | null>;
}

/** A remote account whose actor document is older than this is refreshed in the background when read. */
export const REMOTE_ACCOUNT_STALE_MS = 24 * 60 * 60 * 1000;

/** Schedules a refresh of a remote account that was last fetched too long ago (no-op for local accounts or without federation). */
export async function refreshIfStale(ctx: Ctx, account: Account | null | undefined): Promise<void> {
  if (!account || account.local || !ctx.federation) return;
  const fetched = account.lastFetchedAt?.getTime() ?? 0;
  if (ctx.clock().getTime() - fetched < REMOTE_ACCOUNT_STALE_MS) return;
  await ctx.federation.scheduleRefresh(ctx, account.id);
}

/** "user@host" from the forms clients send ("@user@host", "acct:user@host"); null for anything else. */
export function parseHandle(input: string): { username: string; host: string } | null {
  const value = input.trim().replace(/^acct:/i, "").replace(/^@/, "");
  const at = value.lastIndexOf("@");
  if (at <= 0 || at === value.length - 1) return null;
  const username = value.slice(0, at);
  const host = value.slice(at + 1).toLowerCase();
  if (!/^[A-Za-z0-9_.~%+-]+$/.test(username)) return null;
  // a host name, optionally with a port; no paths, no credentials
  if (!/^[a-z0-9.-]+(:\d{1,5})?$/.test(host) || host.startsWith(".") || host.includes("..")) return null;
  return { username, host };
}

export const isHttpUrl = (value: string) => /^https?:\/\/\S+$/i.test(value.trim());
