// The personal and shared inboxes. Fedify verifies the HTTP signature (draft-cavage and RFC 9421),
// checks that the key's owner is the activity's actor, queues the activity as a durable job and
// de-duplicates it by id; the listeners registered here turn it into domain operations.
import type { Federation } from "@fedify/fedify";
import type { Services } from "../../domain/context.ts";

export const INBOX_PATH = "/users/{identifier}/inbox";
export const SHARED_INBOX_PATH = "/inbox";

export function registerInbox(federation: Federation<Services>) {
  const listeners = federation.setInboxListeners(INBOX_PATH, SHARED_INBOX_PATH);
  listeners.onError((_ctx, error) => console.error("inbox:", error));
  return listeners;
}
