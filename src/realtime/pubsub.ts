// The bus's publish and subscribe over an event target (in-process, or Redis: redis-bus.ts), in place of
// graphql-yoga's createPubSub, for two things it left to chance:
// - every listener of an event is called on its own: the Redis target calls a channel's listeners in one
//   loop, so one that threw kept the event from the listeners after it (the caches' and the credential
//   watch's among them), and the exception went up into ioredis's reply parser; in-process, Node reports
//   a listener's exception as uncaught. A listener that throws is now logged, once.
// - a subscriber that stops reading is dropped. A subscription queues what its consumer has not read yet,
//   and the queue (a Repeater's) refused its 1025th unread event by throwing: a GraphQL subscription whose
//   client stopped reading got there, and so did a burst of events. Now the queue is larger (MAX_UNREAD),
//   and a subscription past it ends with SubscriberDropped after the events it queued, and stops
//   listening: its consumer learns that it missed events (the caches stop caching, a GraphQL client gets
//   an error) and nobody else notices.
import { FixedBuffer, Repeater, type PubSub } from "@graphql-yoga/subscription";
import type { BusEvents } from "./bus.ts";
import type { TopicEventTarget } from "./redis-bus.ts";

/**
 * Unread events a subscription keeps: a buffer, for bursts (a publisher's loop, or a Redis reply of many
 * messages, is delivered in one go, before any consumer runs; in-process an account's deletion publishes
 * one event per status), then the Repeater's own 1024 pending pushes. Past that it is dropped.
 */
const BUFFERED = 10_000;
export const MAX_UNREAD = BUFFERED + 1024;

/** A subscription's consumer fell more than MAX_UNREAD events behind: it was dropped, events after these are missed. */
export class SubscriberDropped extends Error {
  constructor(topic: string) {
    super(`bus subscriber of "${topic}" dropped: more than ${MAX_UNREAD} unread events`);
    this.name = "SubscriberDropped";
  }
}

type Listener = (event: Event) => void;

/** `target` whose listeners are each called on their own: one that throws is logged once, the others still run. */
export function isolatingListeners(target: TopicEventTarget, log: (message: string) => void): TopicEventTarget {
  const wrappers = new Map<string, Map<Listener, Listener>>();
  return {
    addEventListener(topic, listener) {
      if (typeof listener !== "function") return;
      let warned = false;
      const isolated: Listener = (event) => {
        try {
          listener(event);
        } catch (error) {
          if (!warned) log(`a listener of "${topic}" failed (later failures of this listener are not logged): ${(error as Error)?.stack ?? error}`);
          warned = true;
        }
      };
      let byListener = wrappers.get(topic);
      if (!byListener) wrappers.set(topic, (byListener = new Map()));
      byListener.set(listener, isolated);
      target.addEventListener(topic, isolated as EventListener);
    },
    removeEventListener(topic, listener) {
      const byListener = wrappers.get(topic);
      const isolated = byListener?.get(listener as Listener);
      if (!isolated) return;
      byListener!.delete(listener as Listener);
      if (byListener!.size === 0) wrappers.delete(topic);
      target.removeEventListener(topic, isolated as EventListener);
    },
    dispatchEvent: (event) => target.dispatchEvent(event),
  };
}

/** Publish and subscribe over `target` (graphql-yoga's PubSub interface): a subscriber that stops reading is dropped. */
export function pubSub(target: TopicEventTarget): PubSub<BusEvents> {
  const topicOf = (routingKey: string, id: unknown) => (id === undefined ? routingKey : `${routingKey}:${id}`);
  return {
    publish(routingKey: string, ...args: unknown[]) {
      const payload = args[1] ?? args[0] ?? null;
      target.dispatchEvent(new CustomEvent(topicOf(routingKey, args[1] === undefined ? undefined : args[0]), { detail: payload }));
    },
    subscribe(routingKey: string, id?: unknown) {
      const topic = topicOf(routingKey, id);
      return new Repeater((push, stop) => {
        const listener = (event: Event) => {
          try {
            // the promise settles when the event is read; the subscriber's own failures end it (the Repeater)
            void push((event as CustomEvent).detail);
          } catch {
            // MAX_UNREAD events unread: drop the subscriber (its queue is delivered, then the error)
            stop(new SubscriberDropped(topic));
          }
        };
        void stop.then(() => target.removeEventListener(topic, listener));
        target.addEventListener(topic, listener);
      }, new FixedBuffer(BUFFERED));
    },
  } as PubSub<BusEvents>;
}
