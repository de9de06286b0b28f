// One typed event bus for every realtime consumer (GraphQL subscriptions, streaming API, web push).
// In-process for now; with REDIS_URL a Redis event target makes it span nodes (realtime issue).
import { createPubSub } from "graphql-yoga";

export type BusEvents = {
  /** a test/diagnostic event; real topics are added by the areas that publish them */
  ping: [payload: { at: string }];
};

export type Bus = ReturnType<typeof createBus>;

export function createBus() {
  return createPubSub<BusEvents>();
}
