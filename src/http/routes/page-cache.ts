// Rendered pages of statuses (the body and Link header of a timeline, an account's statuses, a thread), kept
// per viewer and dropped by the events that change them. Clients poll these pages far more often than they
// change (issue 17: a home page built at each request cost 4–6 times the budget of its target; a page sent
// from here costs what a cached token's `verify_credentials` does). Routes opt in with `pageCache`
// (src/http/routes/route.ts), naming what else than the page's own contents can change it.
//
// Why it is safe, i.e. what drops what. Every entry is tagged with its viewer (`v:<account id>`, `v:-` for
// anonymous readers), with every id its body shows (statuses, their accounts, reblogged and quoted statuses,
// parents, mentions: any `id` or `*_id` string in it) and with what its route names:
// - a status shown changed (counts, edit, poll, reactions, deletion, a parent deleted…): the status cache's
//   invalidations, local and from the bus (statuses/status-cache.ts, its `dependents`), drop the pages
//   tagged with those ids;
// - an account shown changed (profile, suspension, its counts: `a:<id>`, `f:<id>`): the row writes
//   (src/db/row-writes.ts, through src/domain/row-caches.ts) drop the pages tagged with it;
// - the viewer's own state (flags, follows, mutes, blocks, lists, filters, settings): any API write of the
//   viewer (`viewerWrote`: every REST call other than GET, every GraphQL mutation), its account's row or
//   follows (`a:`/`f:` of the viewer, which an accepted follow or another account's block changes too) and
//   `filters_changed` drop all of its pages;
// - a new status entering the page: the route names the timelines it follows (`streams`), and the stream
//   hub (src/domain/streams/hub.ts), which decides with the timelines' own rules which viewers' streams
//   receive a status, tells this cache as it tells a streaming client; `authors` names accounts whose any
//   new status drops the page (`status_created` carries the author); a thread names its own status (`ids`),
//   whose new replies change its count;
// - what changes how everything renders (runtime configuration, custom emoji): every page.
// A read that began before an invalidation of any of its tags stores nothing (src/kernel/generational-lru.ts),
// and the hub follows a viewer's timelines from the moment a read of them begins. Every entry lives at most
// TTL_MS, and no longer than the first `expires_at` it shows (a poll's `expired`): that bounds what no event
// announces (a timed mute's end, another program's SQL). Events come over the bus, so with Redis every
// process drops its pages; the viewer's own writes and the status cache's local invalidations drop them in
// the writing process at once, so a client reads its own write. While Redis is away, other processes'
// events are lost: no page is kept until it is back (`suspend`, through src/domain/row-caches.ts).
import type { Response } from "express";
import type { Settings } from "../../config/env.ts";
import type { RowWrites } from "../../db/row-writes.ts";
import type { Ctx, Services, Viewer } from "../../domain/context.ts";
import { perServer } from "../../domain/per-server.ts";
import { statusCache } from "../../domain/statuses/status-cache.ts";
import { streamHub, type Delivery, type StreamListener } from "../../domain/streams/hub.ts";
import { parseStream, type StreamSpec } from "../../domain/streams/specs.ts";
import { GenerationalLru } from "../../kernel/generational-lru.ts";

/** What can change a route's page besides the statuses and accounts it shows and its viewer's own state. */
export interface PageCacheSpec {
  /** live timelines whose new statuses enter the page (streams' rules: a superset of the page's filters) */
  streams?: StreamSpec[];
  /** accounts whose every new status drops the page (an account's statuses) */
  authors?: string[];
  /** further ids whose changes drop it (a thread's own status: a new reply changes its replies count) */
  ids?: string[];
  /** whether an empty page is kept (false when nothing above would tell that a first status enters it) */
  keepEmpty?: boolean;
}

interface CachedPage {
  body: Buffer;
  link: string | undefined;
}

const DEFAULT_ENTRIES = 500;
const TTL_MS = 60_000;
/** bigger bodies are not kept (a page of 40 statuses with long threads of reblogs: rare, and memory) */
const MAX_BODY_BYTES = 512 * 1024;
/** how often the hub stops following the viewers whose pages are all gone */
const SWEEP_MS = 30_000;

const viewerKey = (viewer: Viewer) => viewer.account?.id ?? "-";

/** Follows, in the stream hub, the timelines of one viewer's cached pages; a status entering one drops them. */
class ViewerTimelines implements StreamListener {
  readonly specs = new Map<string, StreamSpec>();
  remove: () => void = () => {};
  /** when a read of one of these timelines last began: until it stores its page, the timelines stay followed */
  begunAt = 0;
  constructor(
    readonly viewer: Viewer,
    private readonly drop: (tag: string) => void,
  ) {}
  get streams(): Iterable<StreamSpec> {
    return this.specs.values();
  }
  deliver(d: Delivery): void {
    if (d.event === "update" || d.event === "status.update" || d.event === "delete") this.drop(timelineTag(viewerKey(this.viewer), d.stream.key));
  }
}

const timelineTag = (viewer: string, streamKey: string) => `tl:${viewer}\u0000${streamKey}`;

export class PageCache {
  private readonly lru: GenerationalLru<CachedPage>;
  private readonly timelines = new Map<string, ViewerTimelines>();
  private stopped = false;

  constructor(
    private readonly services: Services,
    maxEntries = DEFAULT_ENTRIES,
  ) {
    this.lru = new GenerationalLru<CachedPage>(maxEntries, TTL_MS);
  }

  get size(): number {
    return this.lru.size;
  }

  get enabled(): boolean {
    return this.lru.maxEntries > 0;
  }

  /** The page kept for this viewer under `key` (a REST request's URL, a GraphQL query's text and variables), if any. */
  get(ctx: Ctx, key: string): CachedPage | undefined {
    return this.lru.get(`${viewerKey(ctx.viewer)}\u0000${key}`);
  }

  /** Before reading a page: follows its timelines from now on; answers the generation to hand to `store`. */
  begin(ctx: Ctx, spec: PageCacheSpec): number {
    const since = this.lru.begin();
    if (spec.streams?.length) {
      const key = viewerKey(ctx.viewer);
      const hub = streamHub(this.services);
      let follower = this.timelines.get(key);
      if (!follower) {
        follower = new ViewerTimelines(ctx.viewer, (tag) => this.lru.invalidate([tag]));
        for (const s of spec.streams) follower.specs.set(s.key, s);
        this.timelines.set(key, follower);
        follower.remove = hub.add(follower, Date.now());
      } else {
        for (const s of spec.streams) {
          if (follower.specs.has(s.key)) continue;
          follower.specs.set(s.key, s);
          hub.subscribed(follower, s.key, Date.now());
        }
      }
      follower.begunAt = Date.now();
    }
    return since;
  }

  /**
   * The page rendered (`items`: the body) by a read begun at `since`, kept unless something it shows
   * changed meanwhile.
   */
  store(since: number, ctx: Ctx, key: string, spec: PageCacheSpec, items: unknown, link?: string): CachedPage {
    const page = { body: Buffer.from(JSON.stringify(items)), link };
    if (this.stopped || page.body.length > MAX_BODY_BYTES) return page;
    if (spec.keepEmpty === false && Array.isArray(items) && items.length === 0) return page;
    const viewer = viewerKey(ctx.viewer);
    const shown = new Set<string>([`v:${viewer}`]);
    const until = { at: Infinity };
    collectShown(items, shown, until);
    for (const id of spec.ids ?? []) shown.add(id);
    for (const id of spec.authors ?? []) shown.add(`acct:${id}`);
    // an account's page is named by id or nickname: its statuses' own authors name it by id
    if (spec.authors && Array.isArray(items)) for (const s of items) if (typeof s?.account?.id === "string") shown.add(`acct:${s.account.id}`);
    for (const s of spec.streams ?? []) shown.add(timelineTag(viewer, s.key));
    this.lru.store(since, `${viewer}\u0000${key}`, page, [...shown], until.at);
    return page;
  }

  /** Drops every page showing these ids (statuses, accounts) or kept for these tags. */
  drop(tags: readonly string[]): void {
    if (tags.length) this.lru.invalidate(tags);
  }

  clear(): void {
    this.lru.clear();
  }

  /**
   * The row writes (src/domain/row-caches.ts): an account's row or counts change what shows it and its own
   * pages; a viewer's state (`v:`) its own pages.
   */
  invalidate(writes: RowWrites): void {
    if ("all" in writes) {
      if (writes.all !== "t" && writes.all !== "p" && writes.all !== "s") this.clear();
      return;
    }
    const tags: string[] = [];
    for (const k of writes.keys) {
      const kind = k.slice(0, k.indexOf(":"));
      const id = k.slice(kind.length + 1);
      if (kind === "a" || kind === "f") tags.push(id, `v:${id}`);
      else if (kind === "v") tags.push(k);
    }
    this.drop(tags);
  }

  /** Its invalidations may have been missed (true) or arrive again (false): see GenerationalLru.suspend. */
  suspend(suspended: boolean): void {
    this.lru.suspend(suspended);
  }

  /** Stops keeping pages (a server closing, or a cache whose events stopped arriving). */
  off(): void {
    this.stopped = true;
    this.lru.off();
    this.sweep();
  }

  /**
   * Stops following the timelines of viewers whose pages are all gone (evicted, dropped or expired) and who began
   * no read lately (a read in flight stores its page after this, and that page must be followed).
   */
  sweep(now = Date.now()): void {
    for (const [key, follower] of this.timelines) {
      if (!this.stopped && (this.lru.hasTag(`v:${key}`) || now - follower.begunAt < TTL_MS)) continue;
      follower.remove();
      this.timelines.delete(key);
    }
  }
}

/** Every id the rendered page shows (`id`, `*_id`), and the first moment something in it expires. */
function collectShown(value: unknown, out: Set<string>, until: { at: number }): void {
  if (Array.isArray(value)) {
    for (const v of value) if (v !== null && typeof v === "object") collectShown(v, out, until);
    return;
  }
  for (const key in value as Record<string, unknown>) {
    const v = (value as Record<string, unknown>)[key];
    if (typeof v === "string") {
      // REST's `in_reply_to_id`, GraphQL's `inReplyToId`
      if (key === "id" || key.endsWith("_id") || key.endsWith("Id")) out.add(v);
      else if (key === "expires_at" || key === "expiresAt") {
        const at = Date.parse(v);
        if (at < until.at) until.at = at;
      }
    } else if (v !== null && typeof v === "object") collectShown(v, out, until);
  }
}

/** Sends a kept page as the route would have: the Link header, then the JSON body. */
export function sendPage(res: Response, page: CachedPage): void {
  if (page.link) res.set("Link", page.link);
  res.status(200).set("Content-Type", "application/json; charset=utf-8").send(page.body);
}

const caches = perServer<PageCache | null>(null);

/** This server's page cache, or null where none was installed (a context built without the server's wiring). */
export function pageCacheOf(ctx: Pick<Ctx, "bus">): PageCache | null {
  return caches.of(ctx);
}

/**
 * Sets up this server's page cache and its events (the row writes come through src/domain/row-caches.ts,
 * which calls `invalidate`). PAGE_CACHE_ENTRIES bounds it; 0 turns it off.
 */
export function installPageCache(services: Services & { settings: Pick<Settings, "pageCacheEntries"> }): PageCache {
  const cache = new PageCache(services, services.settings.pageCacheEntries ?? DEFAULT_ENTRIES);
  caches.install(services.bus, cache);
  if (!cache.enabled) return cache;
  const statuses = statusCache(services);
  const onStatuses = (ids: readonly string[] | "all") => (ids === "all" ? cache.clear() : cache.drop(ids));
  statuses.dependents.add(onStatuses);
  const { bus } = services;
  const loop = async <T>(events: AsyncIterable<T>, each: (e: T) => void) => {
    for await (const e of events) each(e);
  };
  const fail = (error: unknown) => {
    // without its events the cache could serve stale pages: stop keeping them in this process
    console.error("page cache: invalidation stream failed, caching off:", error);
    cache.off();
  };
  loop(bus.subscribe("viewers_wrote"), (e) => cache.drop(e.accountIds.map((id) => `v:${id}`))).catch(fail);
  loop(bus.subscribe("filters_changed"), (e) => cache.drop([`v:${e.accountId}`])).catch(fail);
  loop(bus.subscribe("status_created"), (e) => (e.accountId ? cache.drop([`acct:${e.accountId}`]) : cache.clear())).catch(fail);
  loop(bus.subscribe("config_changed"), () => cache.clear()).catch(fail);
  loop(bus.subscribe("emoji_changed"), () => cache.clear()).catch(fail);
  const ref = new WeakRef(cache);
  const timer = setInterval(() => {
    const live = ref.deref();
    if (live) live.sweep();
    else clearInterval(timer);
  }, SWEEP_MS);
  timer.unref();
  const off = cache.off.bind(cache);
  cache.off = () => {
    clearInterval(timer);
    statuses.dependents.delete(onStatuses);
    off();
  };
  return cache;
}

/**
 * The viewer wrote through an API (any REST call but GET, a GraphQL mutation): its pages are dropped here at
 * once and in every other process when the event arrives.
 */
export function viewerWrote(ctx: Pick<Ctx, "bus" | "viewer">): void {
  const id = ctx.viewer.account?.id;
  if (!id) return;
  pageCacheOf(ctx)?.drop([`v:${id}`]);
  ctx.bus.publish("viewers_wrote", { accountIds: [id] });
}

/** The live timelines pages follow (stream specs as the hub knows them; no client names `home`). */
const live = {
  home: (): StreamSpec => ({ kind: "home", wire: ["home"], key: "home" }),
  direct: (): StreamSpec => parseStream("", { stream: "direct" })!,
  public: (local: boolean | undefined): StreamSpec => parseStream("", { stream: local ? "public:local" : "public" })!,
  tag: (tag: string, local: boolean | undefined): StreamSpec | null => parseStream("", { stream: local ? "hashtag:local" : "hashtag", tag }),
  list: (id: string): StreamSpec => parseStream("", { stream: "list", list: id })!,
};

/**
 * A timeline's page follows live timelines whose rules keep a superset of what the page's parameters keep.
 * `with_muted` shows what the streams' rules leave out: such a page is not kept.
 */
function following(input: { with_muted?: boolean }, ...streams: (StreamSpec | null)[]): PageCacheSpec | null {
  if (input.with_muted || streams.some((s) => !s)) return null;
  return { streams: streams as StreamSpec[] };
}

/** What changes each kind of page, from its operation's input: the REST routes and the GraphQL fields share them. */
export const pageSpecs = {
  home: (input: { with_muted?: boolean }) => following(input, live.home()),
  direct: (input: { with_muted?: boolean }) => following(input, live.direct()),
  public: (input: { with_muted?: boolean; local?: boolean }) => following(input, live.public(input.local)),
  tag: (input: { with_muted?: boolean; local?: boolean; hashtag: string; any?: string[] }) =>
    following(input, ...[input.hashtag, ...(input.any ?? [])].map((tag) => live.tag(tag, input.local))),
  list: (input: { with_muted?: boolean; id: string }) => following(input, live.list(input.id)),
  /** its new statuses enter it (asked by nickname, its statuses name it by id); a new pin changes no status the pinned page shows: not kept */
  account: (input: { id: string; pinned?: boolean }): PageCacheSpec | null => (input.pinned ? null : { authors: [input.id], keepEmpty: false }),
  /** its own status is not in it, but a new reply to it changes its replies count (the status cache's event) */
  context: (input: { id: string }): PageCacheSpec => ({ ids: [input.id] }),
};
