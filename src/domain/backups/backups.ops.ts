// Account backups (own API): a zip of the account's data — actor.json, outbox.json (statuses as
// ActivityStreams Create/Announce), likes.json, bookmarks.json, following.json and the uploaded media —
// built by a durable job under DATA_DIR/backups. Requests are rate limited and only the newest
// finished backup is kept, as in the family.
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { Zip, ZipDeflate, ZipPassThrough } from "fflate";
import { z } from "zod";
import { newId } from "../../db/ids.ts";
import type { Account, Backup, Status } from "../../generated/prisma/client.ts";
import { actorDocument, announceActivity, createActivity, noteDocument, orderedCollection } from "../federation/activitystreams.ts";
import { uploadsDir } from "../../media/storage.ts";
import { requireAccount } from "../auth/policy.ts";
import type { Ctx, Services } from "../context.ts";
import { Invalid, NotFound } from "../../kernel/errors.ts";
import { logAction } from "../moderation-log/log.ts";
import { operation } from "../operation.ts";

export const BACKUP_JOB = "backups.build";
const CHUNK = 200;

export const backupsDir = (s: Pick<Services, "settings">) => path.join(s.settings.dataDir, "backups");
export const backupFile = (s: Pick<Services, "settings">, b: Pick<Backup, "fileName">) => path.join(backupsDir(s), b.fileName);

/** Queues a backup unless the last one is younger than `backup.limit_days`. */
async function requestBackup(ctx: Ctx, account: Account, opts: { limited: boolean }): Promise<Backup> {
  const days = ctx.config.get("backup", "limit_days");
  if (opts.limited) {
    const last = await ctx.db.backup.findFirst({ where: { accountId: account.id }, orderBy: { createdAt: "desc" } });
    if (last && ctx.clock().getTime() - last.createdAt.getTime() < days * 86_400_000) {
      throw Invalid(`Last export was less than ${days} ${days === 1 ? "day" : "days"} ago`);
    }
  }
  const now = ctx.clock();
  const stamp = now.toISOString().replace(/\D/g, "").slice(0, 14);
  const id = newId();
  const backup = await ctx.db.backup.create({
    data: { id, accountId: account.id, fileName: `archive-${account.nickname.replace(/[^A-Za-z0-9_-]/g, "_")}-${stamp}-${id}.zip`, createdAt: now },
  });
  await ctx.jobs.enqueue(BACKUP_JOB, { backupId: backup.id });
  return backup;
}

export const listBackups = operation({
  name: "listBackups",
  access: { scopes: ["read:backups"], optional: true },
  input: z.object({}),
  async run(ctx) {
    const me = requireAccount(ctx);
    return ctx.db.backup.findMany({ where: { accountId: me.id }, orderBy: { createdAt: "desc" } });
  },
});

export const createBackup = operation({
  name: "createBackup",
  access: { scopes: ["read:backups"] },
  input: z.object({}),
  async run(ctx) {
    const me = requireAccount(ctx);
    await requestBackup(ctx, me, { limited: true });
    return listBackups(ctx, {});
  },
});

/** The admin asks for a user's backup (no rate limit); logged as the family logs it. */
export const adminCreateBackup = operation({
  name: "adminCreateBackup",
  access: { scopes: ["admin:read:accounts"], role: "admin" },
  input: z.object({ nickname: z.string() }),
  async run(ctx, { nickname }) {
    const user = await ctx.db.account.findFirst({ where: { nickname, local: true } });
    if (!user) throw NotFound();
    const backup = await requestBackup(ctx, user, { limited: false });
    await logAction(ctx, { action: "create_backup", subject: user });
    return backup;
  },
});

/** The owner's finished archive (anyone else gets 404, as if it did not exist). */
export const backupArchive = operation({
  name: "backupArchive",
  access: { scopes: ["read:backups"] },
  input: z.object({ id: z.string() }),
  async run(ctx, { id }) {
    const me = requireAccount(ctx);
    const backup = await ctx.db.backup.findUnique({ where: { id } });
    if (!backup || backup.accountId !== me.id || !backup.processed) throw NotFound();
    return { backup, file: backupFile(ctx, backup) };
  },
});

/** The job: writes the zip (streamed, so a large account does not sit in memory), then prunes older backups. */
export async function buildBackup(services: Services, backupId: string): Promise<void> {
  const backup = await services.db.backup.findUnique({ where: { id: backupId }, include: { account: true } });
  if (!backup || backup.processed) return;
  await services.db.backup.update({ where: { id: backupId }, data: { state: "running", processedNumber: 0 } });
  await fsp.mkdir(backupsDir(services), { recursive: true });
  const target = backupFile(services, backup);
  const partial = `${target}.part`;
  try {
    const written = await writeArchive(services, backup.account, partial, async (n) => {
      await services.db.backup.update({ where: { id: backupId }, data: { processedNumber: n } });
    });
    await fsp.rename(partial, target);
    const { size } = await fsp.stat(target);
    // older backups go first, so a client that sees this one complete never sees them
    await pruneOlder(services, backup);
    await services.db.backup.update({ where: { id: backupId }, data: { processed: true, state: "complete", fileSize: size, processedNumber: written } });
  } catch (error) {
    await fsp.rm(partial, { force: true });
    await services.db.backup.update({ where: { id: backupId }, data: { state: "failed" } });
    throw error;
  }
}

async function pruneOlder(services: Services, kept: Backup) {
  const older = await services.db.backup.findMany({ where: { accountId: kept.accountId, id: { not: kept.id }, createdAt: { lte: kept.createdAt } } });
  for (const b of older) await fsp.rm(backupFile(services, b), { force: true });
  if (older.length) await services.db.backup.deleteMany({ where: { id: { in: older.map((b) => b.id) } } });
}

async function writeArchive(services: Services, account: Account, file: string, progress: (n: number) => Promise<void>): Promise<number> {
  const out = fs.createWriteStream(file);
  const finished = new Promise<void>((resolve, reject) => {
    out.on("finish", resolve);
    out.on("error", reject);
  });
  let zipError: Error | null = null;
  const zip = new Zip((err, chunk, final) => {
    if (err) zipError = err;
    else out.write(chunk);
    if (final || err) out.end();
  });
  const json = (name: string, value: unknown) => {
    const entry = new ZipDeflate(name, { level: 6 });
    zip.add(entry);
    entry.push(new TextEncoder().encode(JSON.stringify(value, null, 2)), true);
  };

  json("actor.json", actorDocument(account));
  const written = await writeOutbox(services, account, zip, progress);
  const likes = await services.db.favourite.findMany({ where: { accountId: account.id }, select: { status: { select: { uri: true } } }, orderBy: { createdAt: "asc" } });
  json("likes.json", orderedCollection(`${account.apId}/likes`, likes.map((l) => l.status.uri)));
  const bookmarks = await services.db.bookmark.findMany({ where: { accountId: account.id }, select: { status: { select: { uri: true } } }, orderBy: { createdAt: "asc" } });
  json("bookmarks.json", orderedCollection(`${account.apId}/bookmarks`, bookmarks.map((b) => b.status.uri)));
  const following = await services.db.follow.findMany({ where: { followerId: account.id, state: "accept" }, select: { following: { select: { apId: true } } }, orderBy: { createdAt: "asc" } });
  json("following.json", orderedCollection(`${account.apId}/following`, following.map((f) => f.following.apId)));
  await addMedia(services, account, zip);

  zip.end();
  await finished;
  if (zipError) throw zipError;
  return written;
}

/** outbox.json, written entry by entry in chunks of statuses. */
async function writeOutbox(services: Services, account: Account, zip: Zip, progress: (n: number) => Promise<void>): Promise<number> {
  const entry = new ZipDeflate("outbox.json", { level: 6 });
  zip.add(entry);
  const encode = (s: string) => new TextEncoder().encode(s);
  const total = await services.db.status.count({ where: { accountId: account.id } });
  entry.push(encode(`{\n"@context": "https://www.w3.org/ns/activitystreams",\n"id": "${account.apId}/outbox",\n"type": "OrderedCollection",\n"totalItems": ${total},\n"orderedItems": [\n`));
  let after: string | undefined;
  let written = 0;
  for (;;) {
    const statuses = await services.db.status.findMany({
      where: { accountId: account.id, ...(after ? { id: { gt: after } } : {}) },
      orderBy: { id: "asc" },
      take: CHUNK,
      include: { mentions: { select: { account: { select: { apId: true } } } }, media: true, tags: { select: { tag: { select: { name: true } } } } },
    });
    if (!statuses.length) break;
    const related = await services.db.status.findMany({
      where: { id: { in: statuses.flatMap((s) => [s.inReplyToId, s.reblogOfId]).filter((id): id is string => !!id) } },
      select: { id: true, uri: true },
    });
    const uriOf = new Map(related.map((r) => [r.id, r.uri]));
    const items = statuses.map((s) => activityOf(s, account, uriOf));
    entry.push(encode((written ? ",\n" : "") + items.map((i) => JSON.stringify(i)).join(",\n")));
    written += statuses.length;
    after = statuses.at(-1)!.id;
    await progress(written);
  }
  entry.push(encode("\n]\n}\n"), true);
  return written;
}

type OutboxStatus = Status & { mentions: { account: { apId: string } }[]; media: Parameters<typeof noteDocument>[0]["media"]; tags: { tag: { name: string } }[] };

function activityOf(s: OutboxStatus, account: Account, uriOf: Map<string, string>) {
  if (s.reblogOfId) return announceActivity(s, account, uriOf.get(s.reblogOfId) ?? s.reblogOfId);
  const note = noteDocument({
    status: s,
    author: account,
    inReplyTo: s.inReplyToId ? uriOf.get(s.inReplyToId) : null,
    mentioned: s.mentions.map((m) => m.account.apId),
    media: s.media,
    tags: s.tags.map((t) => t.tag.name),
  });
  return createActivity(note, s);
}

/** The account's uploads stored by this server, under media/<id>/<file> as they are served. */
async function addMedia(services: Services, account: Account, zip: Zip) {
  const prefix = `${services.settings.baseUrl}/media/`;
  const media = await services.db.mediaAttachment.findMany({ where: { accountId: account.id }, select: { url: true } });
  const urls = [...media.map((m) => m.url), account.avatar, account.header, account.background].filter((u): u is string => !!u?.startsWith(prefix));
  for (const url of new Set(urls)) {
    const relative = url.slice(prefix.length);
    if (!/^[0-9a-z]{26}\/[A-Za-z0-9._-]+$/.test(relative)) continue; // only files this server named
    const data = await fsp.readFile(path.join(uploadsDir(services), relative)).catch(() => null);
    if (!data) continue;
    const entry = new ZipPassThrough(`media/${relative}`);
    zip.add(entry);
    entry.push(data, true);
  }
}
