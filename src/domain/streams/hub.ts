// The stream engine behind the streaming API (compat-rest/streaming) and GraphQL subscriptions
// (src/graphql/subscriptions.ts): for each bus event, which subscriptions receive it. One hub per
// process listens to the bus (src/realtime/); for each event it loads what the event needs ONCE
// (streams.read.ts: a constant number of queries whatever the number of subscribers) and decides per
// subscriber in memory with the timelines' rules (src/domain/timelines/rules.ts, the same rules as the
// timeline pages). The streams themselves and who may read them are specs.ts. Listeners render; the
// hub never writes (with REDIS_URL every process hears every event).
import type { Announcement } from "../../generated/prisma/client.ts";
import type { Bus, BusEvents } from "../../realtime/bus.ts";
import { showChat } from "../chats/chats.ops.ts";
import type { ChatView } from "../chats/chats.read.ts";
import { makeCtx, type Ctx, type Services, type Viewer } from "../context.ts";
import { showConversation, type ConversationView } from "../conversations/conversations.ops.ts";
import { DomainError } from "../../kernel/errors.ts";
import { credentialWatch } from "../auth/credential-watch.ts";
import { getNotification, type NotificationRow } from "../notifications/notifications.ops.ts";
import { timelineIncludes, type StatusCore, type StatusFacts, type ViewerView } from "../timelines/rules.ts";
import { mayList, PUBLIC_KINDS, STATUS_STREAMS, timelineOf, type StreamKind, type StreamSpec } from "./specs.ts";
import { activeAnnouncement, deletedFacts, listsWithAuthor, loadAudience, loadStatusFacts, mutes } from "./streams.read.ts";


// ---- deliveries ---------------------------------------------------------------------------

type FollowUpdate = BusEvents["follow_relationships_update"][0];

export type Delivery =
  | { event: "update" | "status.update"; stream: StreamSpec; facts: StatusFacts; view: ViewerView }
  | { event: "delete"; stream: StreamSpec; statusId: string }
  | { event: "notification"; stream: StreamSpec; notification: NotificationRow }
  | { event: "conversation"; stream: StreamSpec; conversation: ConversationView }
  | { event: "filters_changed"; stream: StreamSpec }
  | { event: "announcement"; stream: StreamSpec; announcement: Announcement }
  | { event: "announcement.delete"; stream: StreamSpec; announcementId: string }
  | { event: "follow_relationships_update"; stream: StreamSpec; update: FollowUpdate }
  | { event: "chat_update"; stream: StreamSpec; chat: ChatView };

/** What one event shares among its listeners: renderings made once, and who receives it. */
export class EventScope {
  private memos = new Map<string, unknown>();
  /** accounts receiving a status of this event (for batch loads of viewer flags) */
  recipients: string[] = [];
  constructor(readonly services: Services) {}
  memo<T>(key: string, make: () => T): T {
    if (!this.memos.has(key)) this.memos.set(key, make());
    return this.memos.get(key) as T;
  }
}

export interface StreamListener {
  /** the subscriber (account null when anonymous) */
  readonly viewer: Viewer;
  /** its current subscriptions */
  readonly streams: Iterable<StreamSpec>;
  /** called in event order; the hub awaits it before the next event */
  deliver(d: Delivery, scope: EventScope): void | Promise<void>;
}

const TOPICS = ["status_created", "status_updated", "status_deleted", "notification", "conversation", "filters_changed", "announcement", "follow_relationships_update", "chat_update"] as const;
type Topic = (typeof TOPICS)[number];

/**
 * An event the hub has handled, kept a short while so that a listener (or a stream) added while it was
 * handled can still get it: who was considered for it, with which streams, is recorded when the
 * event's audience is computed.
 */
interface HandledEvent {
  /** when the hub received it from the bus */
  at: number;
  topic: Topic;
  payload: unknown;
  considered: Map<StreamListener, Set<string>>;
}

/** How long handled events are kept for late subscribers (token checks take milliseconds). */
const REPLAY_MS = 10_000;
const REPLAY_MAX = 2_000;

export class StreamHub {
  private listeners = new Set<StreamListener>();
  private queue: Promise<void> = Promise.resolve();
  private iterators: AsyncIterator<unknown>[] = [];
  private recent: HandledEvent[] = [];
  /** the event being handled, and (when replaying) the one listener and stream it is for */
  private current: { event: HandledEvent; only?: { listener: StreamListener; key?: string } } | null = null;

  constructor(private readonly services: Services) {
    for (const topic of TOPICS) void this.pump(topic);
  }

  /**
   * Registers a listener; answers the function that removes it. With `since` (when its connection was
   * accepted), events received from then on that the hub handled before the listener was registered (while
   * its token and streams were being checked) are handled again for it alone, so none is lost.
   */
  add(listener: StreamListener, since?: number): () => void {
    this.listeners.add(listener);
    if (since !== undefined) this.replay(listener, since);
    return () => void this.listeners.delete(listener);
  }

  /**
   * A listener has just added stream `key` (a multiplexed `subscribe`, in force once authorized): the
   * events received since `since` that were handled without that stream are handled again for it.
   */
  subscribed(listener: StreamListener, key: string, since: number): void {
    this.replay(listener, since, key);
  }

  private replay(listener: StreamListener, since: number, key?: string) {
    const missed = this.recent.filter((e) => {
      if (e.at < since) return false;
      const streams = e.considered.get(listener);
      return key === undefined ? !streams : !streams?.has(key);
    });
    for (const event of missed) this.enqueue(event, { listener, key });
  }

  private enqueue(event: HandledEvent, only?: { listener: StreamListener; key?: string }) {
    this.queue = this.queue
      .then(async () => {
        if (only && !this.listeners.has(only.listener)) return; // gone meanwhile
        this.current = { event, only };
        try {
          await this.handle(event.topic, event.payload as never);
        } finally {
          this.current = null;
        }
      })
      .catch((error) => console.error(`stream ${event.topic} event failed:`, error));
  }

  /** resolves once every event received so far has been handled (tests) */
  async idle(): Promise<void> {
    await this.queue;
  }

  /** listeners and their subscriptions (tests wait on it; operators may log it) */
  stats(): { listeners: number; subscriptions: number } {
    let subscriptions = 0;
    for (const l of this.listeners) for (const _ of l.streams) subscriptions++;
    return { listeners: this.listeners.size, subscriptions };
  }

  async close(): Promise<void> {
    this.listeners.clear();
    await Promise.all(this.iterators.map((it) => it.return?.()));
    await this.queue;
  }

  private async pump(topic: Topic) {
    for (;;) {
      const it = this.services.bus.subscribe(topic)[Symbol.asyncIterator]();
      this.iterators.push(it);
      try {
        for (;;) {
          const next = await it.next();
          if (next.done) return;
          const event: HandledEvent = { at: Date.now(), topic, payload: next.value, considered: new Map() };
          this.remember(event);
          // one queue for every topic: each connection sees events in the order they were published
          this.enqueue(event);
        }
      } catch (error) {
        // dropped by the bus (src/realtime/pubsub.ts): the events in between are lost, the next ones are not
        console.error(`stream hub: ${topic} events were interrupted, listening again:`, error);
        this.iterators = this.iterators.filter((i) => i !== it);
      }
    }
  }

  private remember(event: HandledEvent) {
    const cutoff = event.at - REPLAY_MS;
    let drop = 0;
    while (drop < this.recent.length && (this.recent[drop]!.at < cutoff || this.recent.length - drop >= REPLAY_MAX)) drop++;
    if (drop) this.recent.splice(0, drop);
    this.recent.push(event);
  }

  /** The (listener, stream) pairs `accept` takes; what was considered is recorded on the current event. */
  private subscriptions(accept: (l: StreamListener, spec: StreamSpec) => boolean): [StreamListener, StreamSpec][] {
    const out: [StreamListener, StreamSpec][] = [];
    const only = this.current?.only;
    const considered = this.current?.event.considered;
    for (const l of only ? [only.listener] : this.listeners) {
      const keys = considered?.get(l) ?? new Set<string>();
      for (const spec of l.streams) {
        if (only?.key !== undefined && spec.key !== only.key) continue;
        keys.add(spec.key);
        if (accept(l, spec)) out.push([l, spec]);
      }
      considered?.set(l, keys);
    }
    return out;
  }

  /** Each delivery once its listener's credentials are known to hold (a revocation being checked is waited for). */
  private async send(deliveries: [StreamListener, Delivery][], scope: EventScope) {
    const watch = credentialWatch(this.services);
    await Promise.all(deliveries.map(async ([l, d]) => (await watch.holds(l.viewer)) && l.deliver(d, scope)));
  }

  private handle<T extends Topic>(topic: T, payload: BusEvents[T][0]): Promise<void> {
    const p = payload as never;
    switch (topic) {
      case "status_created":
        return this.onStatus("update", p);
      case "status_updated":
        return this.onStatus("status.update", p);
      case "status_deleted":
        return this.onDelete(p);
      case "notification":
        return this.onNotification(p);
      case "conversation":
        return this.onConversation(p);
      case "filters_changed":
        return this.onAccountEvent((payload as BusEvents["filters_changed"][0]).accountId, ["user"], async () => ({ event: "filters_changed" }));
      case "announcement":
        return this.onAnnouncement(p);
      case "follow_relationships_update":
        return this.onFollowUpdate(p);
      case "chat_update":
        return this.onChat(p);
    }
    return Promise.resolve();
  }

  /** Who receives a status (or its deletion): candidates by stream, then the audience's relations in one batch. */
  private async audienceFor(f: StatusFacts<StatusCore>, forDelete: boolean) {
    const candidates = this.subscriptions((l, spec) => STATUS_STREAMS.includes(spec.kind) && (!!l.viewer.account || PUBLIC_KINDS.includes(spec.kind)) && mayList(spec, f));
    if (candidates.length === 0) return [];
    const listIds = [...new Set(candidates.flatMap(([, spec]) => (spec.kind === "list" ? [spec.listId!] : [])))];
    const [audience, lists] = await Promise.all([
      loadAudience(this.services, candidates.flatMap(([l]) => (l.viewer.account ? [l.viewer.account.id] : [])), f),
      listsWithAuthor(this.services, listIds, f.status),
    ]);
    return candidates.flatMap(([l, spec]) => {
      const view = audience.view(l.viewer.account?.id ?? null);
      return timelineIncludes(view, f, timelineOf(spec, lists), { forDelete }) ? [{ l, spec, view }] : [];
    });
  }

  private async onStatus(event: "update" | "status.update", { statusId }: { statusId: string }) {
    if (this.listeners.size === 0) return;
    const facts = await loadStatusFacts(this.services, statusId);
    if (!facts) return;
    const receivers = await this.audienceFor(facts, false);
    const scope = new EventScope(this.services);
    scope.recipients = [...new Set(receivers.flatMap(({ view }) => (view.id ? [view.id] : [])))];
    await this.send(
      receivers.map(({ l, spec, view }) => [l, { event, stream: spec, facts, view }]),
      scope,
    );
  }

  private async onDelete(payload: BusEvents["status_deleted"][0]) {
    if (this.listeners.size === 0) return;
    const receivers = await this.audienceFor(deletedFacts(payload), true);
    await this.send(
      receivers.map(({ l, spec }) => [l, { event: "delete", stream: spec, statusId: payload.statusId }]),
      new EventScope(this.services),
    );
  }

  /**
   * An event for one account's streams of the given kinds. `load` runs once (as that account, when
   * it needs to) and answers the delivery, or null to send nothing.
   */
  private async onAccountEvent(accountId: string, kinds: StreamKind[], load: (ctx: Ctx) => Promise<DistributiveOmit<Delivery, "stream"> | null>) {
    const targets = this.subscriptions((l, spec) => l.viewer.account?.id === accountId && kinds.includes(spec.kind));
    if (targets.length === 0) return;
    let item: DistributiveOmit<Delivery, "stream"> | null;
    try {
      item = await load(makeCtx(this.services, targets[0]![0].viewer));
    } catch (error) {
      if (error instanceof DomainError) return; // gone, or no longer the account's to see
      throw error;
    }
    if (!item) return;
    const delivery = item;
    await this.send(
      targets.map(([l, spec]) => [l, { ...delivery, stream: spec } as Delivery]),
      new EventScope(this.services),
    );
  }

  private onNotification({ accountId, notificationId }: BusEvents["notification"][0]) {
    return this.onAccountEvent(accountId, ["user", "user:notification"], async (ctx) => {
      const notification = await getNotification(ctx, { id: notificationId });
      // as the notification list (without with_muted): nothing from muted accounts
      const muted = await mutes(ctx, accountId, notification.fromAccountId);
      return muted ? null : { event: "notification", notification };
    });
  }

  private onConversation({ accountId, conversationId }: BusEvents["conversation"][0]) {
    return this.onAccountEvent(accountId, ["direct"], async (ctx) => ({ event: "conversation", conversation: await showConversation(ctx, { id: conversationId }) }));
  }

  private onChat({ accountId, chatId, change }: BusEvents["chat_update"][0]) {
    if (change !== "message") return Promise.resolve(); // read marks are not streamed (no read receipts)
    return this.onAccountEvent(accountId, ["user", "chat"], async (ctx) => ({ event: "chat_update", chat: await showChat(ctx, { id: chatId }) }));
  }

  private async onFollowUpdate(update: FollowUpdate) {
    // both sides' user streams (the family tells the follower only; the followed account learns of requests too)
    const ids = new Set([update.follower.id, update.following.id]);
    const targets = this.subscriptions((l, spec) => !!l.viewer.account && ids.has(l.viewer.account.id) && spec.kind === "user");
    await this.send(
      targets.map(([l, spec]) => [l, { event: "follow_relationships_update", stream: spec, update }]),
      new EventScope(this.services),
    );
  }

  /** Active announcements go to every signed-in user stream; deleted or inactive ones are withdrawn. */
  private async onAnnouncement({ id, change }: BusEvents["announcement"][0]) {
    const targets = this.subscriptions((l, spec) => !!l.viewer.account && spec.kind === "user");
    if (targets.length === 0) return;
    const active = change === "deleted" ? null : await activeAnnouncement(this.services, id);
    await this.send(
      targets.map(([l, spec]) => [l, active ? { event: "announcement", stream: spec, announcement: active } : { event: "announcement.delete", stream: spec, announcementId: id }]),
      new EventScope(this.services),
    );
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

const hubs = new WeakMap<Bus, StreamHub>();

/** The process's hub for these services (created on first use; it listens to the bus until closed). */
export function streamHub(services: Services): StreamHub {
  let hub = hubs.get(services.bus);
  if (!hub) {
    const { db, database, settings, config, jobs, mailer, bus, clock } = services;
    hub = new StreamHub({ db, database, settings, config, jobs, mailer, bus, clock });
    hubs.set(services.bus, hub);
  }
  return hub;
}

/** Stops the hub of these services, if any (server shutdown). */
export async function closeStreamHub(services: Pick<Services, "bus">): Promise<void> {
  const hub = hubs.get(services.bus);
  hubs.delete(services.bus);
  await hub?.close();
}
