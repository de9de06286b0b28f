// An action and the notifications it causes, committed together. Notifying after the action's own
// commit left a window: a process killed between the two (kill -9, OOM, a power cut) kept the
// favourite, reblog, follow or mention and lost its notification for good, since nothing would ever
// look again. Written in the action's transaction, both are there or neither is; what is left after
// the commit (the bus event for live streams, the queued push deliveries) is announced from the result.
import type { Db } from "../../db/client.ts";
import { makeCtx, type Ctx } from "../context.ts";
import { announceNotifications, storeNotifications, type NotificationInput, type StoredNotifications } from "./notify.ts";

/** Stores notifications in the running transaction (filtered by notify.ts's rules, as `notify` does). */
export type Notifier = (items: NotificationInput[]) => Promise<void>;

/**
 * Runs `work` in one transaction with a context on it (`tx.db` is the transaction's client: every
 * statement of the work must go through it, as PGlite has a single connection) and a `notify` that
 * stores notifications in the same transaction; once committed, announces them. A failed work stores
 * nothing and announces nothing.
 */
export async function withNotifications<T>(ctx: Ctx, work: (tx: Ctx, notify: Notifier) => Promise<T>): Promise<T> {
  const stored: StoredNotifications[] = [];
  const result = await ctx.db.$transaction(async (client) => {
    // fresh loaders: ones reading through the outer client would wait for the transaction's connection
    const tx = makeCtx({ ...ctx, db: client as unknown as Db }, ctx.viewer);
    return work(tx, async (items) => void stored.push(await storeNotifications(tx, items)));
  });
  for (const s of stored) await announceNotifications(ctx, s);
  return result;
}
