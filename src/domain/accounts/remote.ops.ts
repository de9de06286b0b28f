// Remote accounts as other servers describe them: stored (created or updated) from an actor document,
// and removed when their server deletes the actor. The federation adapter (src/federation/remote/actors.ts)
// turns the document into `RemoteAccountData`; what the row holds and what follows from it lives here.
import { newId } from "../../db/ids.ts";
import { Prisma, type Account, type ActorType } from "../../generated/prisma/client.ts";
import type { Ctx } from "../context.ts";
import { rememberRemoteEmojis, type RemoteEmoji } from "../emoji/remote-emoji.ts";
import { purgeAccount } from "./account-actions.ops.ts";
import { accountByName } from "../../db/account-names.ts";

export interface RemoteAccountData {
  apId: string;
  /** "user@domain" */
  nickname: string;
  domain: string;
  url: string | null;
  displayName: string;
  /** sanitized HTML */
  note: string;
  avatar: string | null;
  header: string | null;
  /** values are sanitized HTML */
  fields: { name: string; value: string }[];
  emojis: RemoteEmoji[];
  locked: boolean;
  discoverable: boolean;
  actorType: ActorType;
  alsoKnownAs: string[];
  /** the family's `capabilities.acceptsChatMessages`: false refuses chat messages; unknown (absent) counts as accepting */
  acceptsChatMessages?: boolean | null;
  movedToApId: string | null;
  inbox: string | null;
  sharedInbox: string | null;
  followersUrl: string | null;
  followingUrl: string | null;
  outboxUrl: string | null;
  featuredUrl: string | null;
  publicKey: string | null;
  publicKeyId: string | null;
}

/**
 * Creates or updates the remote account `data.apId` (idempotent: the same document twice changes
 * nothing but `lastFetchedAt`). A nickname held by another actor id (an account re-created on its server)
 * is handed to the newer actor; the older row keeps its content under a nickname with its id.
 */
export async function upsertRemoteAccount(ctx: Ctx, data: RemoteAccountData): Promise<Account> {
  const movedTo = data.movedToApId ? await ctx.db.account.findUnique({ where: { apId: data.movedToApId }, select: { id: true } }) : null;
  const max = ctx.config.get("instance", "max_remote_account_fields");
  const fields = {
    nickname: data.nickname,
    domain: data.domain,
    local: false,
    url: data.url,
    displayName: data.displayName,
    note: data.note,
    avatar: data.avatar,
    header: data.header,
    fields: data.fields.slice(0, max) as Prisma.InputJsonValue,
    emojis: data.emojis.map((e) => ({ shortcode: e.shortcode, url: e.url })) as Prisma.InputJsonValue,
    locked: data.locked,
    discoverable: data.discoverable,
    actorType: data.actorType,
    alsoKnownAs: data.alsoKnownAs,
    acceptsChatMessages: data.acceptsChatMessages ?? true,
    movedToId: movedTo?.id ?? null,
    inbox: data.inbox,
    sharedInbox: data.sharedInbox,
    followersUrl: data.followersUrl,
    followingUrl: data.followingUrl,
    outboxUrl: data.outboxUrl,
    featuredUrl: data.featuredUrl,
    publicKey: data.publicKey,
    publicKeyId: data.publicKeyId,
    lastFetchedAt: ctx.clock(),
  };
  const holder = await accountByName(ctx.db, { nicknames: [data.nickname], notApId: data.apId });
  if (holder) await ctx.db.account.update({ where: { id: holder.id }, data: { nickname: `${data.nickname}~${holder.id}` } });
  const account = await ctx.db.account
    .upsert({ where: { apId: data.apId }, create: { id: newId(), apId: data.apId, ...fields }, update: fields })
    // two deliveries racing to create the same actor: the loser reads the winner's row and updates it
    .catch(async (error) => {
      if ((error as { code?: string }).code !== "P2002") throw error;
      return ctx.db.account.update({ where: { apId: data.apId }, data: fields });
    });
  await rememberRemoteEmojis(ctx, data.domain, data.emojis);
  return account;
}

/** The actor was deleted on its server: its content goes as when an account is deleted here (the row stays, deactivated). */
export async function removeRemoteAccount(ctx: Ctx, account: Account): Promise<void> {
  if (account.local) return;
  await purgeAccount(ctx, account.id);
}
