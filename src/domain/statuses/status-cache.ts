// A per-process cache of what every viewer sees the same of a status: its row, counts, media, poll
// (options and totals), mentions, tags and emoji reactions, as loadStatusData (status-data.ts) reads
// them. A page of statuses then reads from the database only what depends on the viewer (favourited,
// reblogged, bookmarked, poll votes, thread mutes, filters, whether parents are visible) and the
// accounts (always read fresh: profile edits, suspensions and counts need no event here), in the same
// single statement as before: the cached statuses' shared parts are simply not selected.
//
// Why it is safe, i.e. what invalidates what (every entry is keyed by its status id):
// - the status's own row (edit, pin/unpin, moderation of sensitive/visibility, a remote Update, a poll's
//   remote counts): `status_updated` (edit.ops, admin/statuses.ops, remote.ops) or `statuses_changed`;
// - its counts: a favourite or its undo (actions.ops favouriteAs/unfavouriteAs), a reblog or its undo
//   (reblogAs/unreblogAs: the original's id), a reply stored or deleted (statusStored/removeStatus: the
//   parent's id) → `statuses_changed`; a deleted status and the original of a deleted reblog →
//   `status_deleted`; the replies and quotes of a deleted status, whose `in_reply_to_id` / `quote_id` the
//   database nulls (removeStatus) → `statuses_changed`;
// - its reactions (reactions.ops), poll votes and closing (polls.ops, remote.ops), an attachment's
//   description or focus (media.ops), its direct conversation (conversations.ops) → `statuses_changed`;
// - what changes many statuses at once (an account's deletion, an instance purge, pruning remote
//   statuses, a thread reattached) → `statuses_changed` with `all`.
// Events come over the bus, so with Redis every process drops its entries; the publishing process
// drops them synchronously too (`statusesChanged`), so a client reads its own write at once. While Redis
// is away other processes' events are lost: nothing is kept until it is back (`onGap`, realtime/bus.ts).
// A read that started before an invalidation does not store what it read (the generation check of
// src/kernel/generational-lru.ts, which keeps the entries), and every entry lives at most TTL_MS: a
// write path that forgot its event heals by itself.
import type { Settings } from "../../config/env.ts";
import type { MediaAttachment, Poll, Status } from "../../generated/prisma/client.ts";
import { GenerationalLru } from "../../kernel/generational-lru.ts";
import type { Bus } from "../../realtime/bus.ts";
import type { Ctx } from "../context.ts";

/** What a status's data row holds apart from the viewer's flags (status-data.ts StatusRow). */
export interface SharedStatusData {
  row: Status;
  counts: { favourites: number; reblogs: number; replies: number };
  mentionIds: string[] | null;
  tags: string[] | null;
  media: MediaAttachment[] | null;
  poll: { poll: Poll; votes: [number, number][] | null; voters: number } | null;
  reactions: { emoji: string; url: string | null; accountId: string }[] | null;
}

const DEFAULT_ENTRIES = 5_000;
const TTL_MS = 5 * 60_000;

/** Keyed by status id, which is also the entry's one invalidation key; entries are shared, not copied. */
export class StatusCache extends GenerationalLru<SharedStatusData> {
  /**
   * Told of every invalidation, local or from the bus (the ids, or "all"): what is built from statuses'
   * shared parts (src/http/routes/page-cache.ts, rendered pages) drops with them, at the same moment.
   */
  readonly dependents = new Set<(ids: readonly string[] | "all") => void>();

  constructor(maxEntries = DEFAULT_ENTRIES, now: () => number = Date.now) {
    super(maxEntries, TTL_MS, now);
  }

  override invalidate(keys: Iterable<string | null | undefined>): void {
    const ids = [...keys].filter((k): k is string => !!k);
    super.invalidate(ids);
    for (const d of this.dependents) d(ids);
  }

  override clear(): void {
    super.clear();
    for (const d of this.dependents) d("all");
  }
}

/** One cache per bus, i.e. per server (tests run several servers in one process, each with its own database). */
const caches = new WeakMap<Bus, StatusCache>();

/** The status cache of this server, following the bus's invalidations from the first use on. */
export function statusCache(ctx: Pick<Ctx, "bus"> & { settings?: Pick<Settings, "statusCacheEntries"> }): StatusCache {
  // a context without a bus (a test's hand-made one) caches nothing: nothing would invalidate it
  if (!ctx.bus) return new StatusCache(0);
  let cache = caches.get(ctx.bus);
  if (!cache) {
    cache = new StatusCache(ctx.settings?.statusCacheEntries ?? DEFAULT_ENTRIES); // STATUS_CACHE_ENTRIES
    caches.set(ctx.bus, cache);
    follow(ctx.bus, cache);
  }
  return cache;
}

function follow(bus: Bus, cache: StatusCache) {
  const loop = async <T>(events: AsyncIterable<T>, each: (e: T) => void) => {
    for await (const e of events) each(e);
  };
  const fail = (error: unknown) => {
    // without its events the cache could serve stale statuses: stop caching in this process
    console.error("status cache: invalidation stream failed, caching off:", error);
    cache.off();
  };
  loop(bus.subscribe("statuses_changed"), (e) => ("all" in e ? cache.clear() : cache.invalidate(e.ids))).catch(fail);
  loop(bus.subscribe("status_updated"), (e) => cache.invalidate([e.statusId])).catch(fail);
  loop(bus.subscribe("status_deleted"), (e) => cache.invalidate([e.statusId, e.reblogOfId])).catch(fail);
  // events lost while Redis was away would have dropped entries: keep nothing until they arrive again
  bus.onGap((down) => cache.suspend(down));
}

/**
 * Announces that what every viewer sees of these statuses changed (counts, reactions, poll, media, pin…):
 * this process's cache drops them now, every process's when the event arrives. Call it after the write.
 */
export function statusesChanged(ctx: Pick<Ctx, "bus">, ids: (string | null | undefined)[]): void {
  const present = [...new Set(ids.filter((id): id is string => !!id))];
  if (present.length === 0) return;
  statusCache(ctx).invalidate(present);
  ctx.bus?.publish("statuses_changed", { ids: present });
}

/** `status_updated` (the streams' `status.update`), the cache's entry dropped in this process at once. */
export function statusUpdated(ctx: Pick<Ctx, "bus">, statusId: string): void {
  statusCache(ctx).invalidate([statusId]);
  ctx.bus?.publish("status_updated", { statusId });
}

/** Announces a change to statuses that cannot be named one by one (an account's deletion, an instance purge…). */
export function allStatusesChanged(ctx: Pick<Ctx, "bus">): void {
  statusCache(ctx).clear();
  ctx.bus?.publish("statuses_changed", { all: true });
}
