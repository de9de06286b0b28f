// The collections of local actors: outbox, followers, following.
import type { Federation } from "@fedify/fedify";
import type { Services } from "../domain/context.ts";

export function registerCollections(federation: Federation<Services>) {
  federation.setOutboxDispatcher("/users/{identifier}/outbox", async () => ({ items: [] }));
  federation.setFollowersDispatcher("/users/{identifier}/followers", async () => ({ items: [] }));
  federation.setFollowingDispatcher("/users/{identifier}/following", async () => ({ items: [] }));
}
