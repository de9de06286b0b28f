// Who receives an outgoing activity: remote accounts as Fedify recipients (actor id, inbox, shared
// inbox), computed from our tables rather than through the followers collection dispatcher, so that
// (1) followers-only and direct statuses can be limited to exactly the addressed actors, (2) a fan-out
// costs one statement whatever the number of followers, and (3) instances unreachable for days are
// left out before anything is queued. Fedify then groups them by shared inbox (`preferSharedInbox`).
import type { Recipient } from "@fedify/vocab";
import type { Db } from "../../db/client.ts";
import type { Prisma } from "../../generated/prisma/client.ts";
import { unreachableHosts } from "./health.ts";

const select = { apId: true, inbox: true, sharedInbox: true } as const;
type Row = { apId: string; inbox: string | null; sharedInbox: string | null };

function toRecipient(r: Row): Recipient | null {
  if (!r.inbox && !r.sharedInbox) return null; // an actor we never fetched completely: nowhere to deliver
  return { id: new URL(r.apId), inboxId: r.inbox ? new URL(r.inbox) : null, endpoints: r.sharedInbox ? { sharedInbox: new URL(r.sharedInbox) } : null };
}

async function remoteAccounts(db: Db, where: Prisma.AccountWhereInput): Promise<Row[]> {
  return db.account.findMany({ where: { local: false, ...where }, select });
}

/** The remote accounts that follow `accountId` (accepted follows). */
export const remoteFollowers = (db: Db, accountId: string) => remoteAccounts(db, { following: { some: { followingId: accountId, state: "accept" } } });

/** Remote accounts by id. */
export const remoteById = (db: Db, ids: readonly string[]) => (ids.length ? remoteAccounts(db, { id: { in: [...ids] } }) : Promise.resolve([]));

/** Remote accounts by ActivityPub id. */
export const remoteByApId = (db: Db, apIds: readonly string[]) => (apIds.length ? remoteAccounts(db, { apId: { in: [...apIds] } }) : Promise.resolve([]));

/** Recipients from rows of any origin, without duplicates and without hosts given up on. */
export async function recipients(db: Db, ...groups: Row[][]): Promise<Recipient[]> {
  const byId = new Map<string, Row>();
  for (const group of groups) for (const row of group) byId.set(row.apId, row);
  const rows = [...byId.values()];
  const hosts = new Set(rows.flatMap((r) => { try { return [new URL(r.sharedInbox ?? r.inbox ?? r.apId).host]; } catch { return []; } }));
  const dead = await unreachableHosts(db, [...hosts]);
  return rows.flatMap((r) => {
    const host = new URL(r.sharedInbox ?? r.inbox ?? r.apId).host;
    if (dead.has(host)) return [];
    const recipient = toRecipient(r);
    return recipient ? [recipient] : [];
  });
}

/** Bare inbox URLs (the snapshot of a deleted actor) as recipients without actor ids. */
export async function inboxRecipients(db: Db, inboxes: readonly string[]): Promise<Recipient[]> {
  const dead = await unreachableHosts(db, inboxes.map((i) => new URL(i).host));
  // Fedify skips recipients without an id: the inbox stands for the (possibly already gone) actors behind it
  return inboxes.filter((i) => !dead.has(new URL(i).host)).map((i) => ({ id: new URL(i), inboxId: new URL(i), endpoints: null }));
}
