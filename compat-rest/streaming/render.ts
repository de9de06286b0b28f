// The wire form of stream deliveries: the reference envelope `{stream, event, payload}`, the payload a
// JSON string rendered for the receiving subscriber (`delete` and `announcement.delete` carry the bare
// id, `filters_changed` none). A status renders ONCE per event, as an anonymous reader sees it; each
// subscriber gets that rendering with its own flags patched in (favourited, reblogged, bookmarked, poll
// votes, reactions' `me`, parent_visible), and subscribers with equal flags share one serialised
// envelope. The status's authors get a rendering of their own (their account shows them what it hides
// from others). The flags (src/domain/statuses/viewer-flags.ts, as the status view defines them) cost
// one statement per event for all subscribers, and only when they can be set (edits and reblogs: nobody
// has acted on a status that was just posted).
import { makeCtx, type Viewer } from "../../src/domain/context.ts";
import { parentVisible } from "../../src/domain/timelines/rules.ts";
import type { Delivery, EventScope } from "../../src/domain/streams/hub.ts";
import { renderConversations } from "../../src/views/conversation.ts";
import { renderAnnouncement } from "../../src/views/announcement.ts";
import { renderChat } from "../../src/views/chat.ts";
import { renderNotification } from "../../src/views/notification.ts";
import { renderStatuses } from "../../src/views/status.ts";
import { filterResults } from "../../src/domain/filters/filters.read.ts";
import { loadViewerFlags, type ViewerFlags } from "../../src/domain/statuses/viewer-flags.ts";
import { renderFilterResult } from "../../src/views/filter.ts";

type StatusDelivery = Extract<Delivery, { event: "update" | "status.update" }>;
type Json = Record<string, any>;

/** The envelope for one subscriber, as bytes shared by every subscriber that gets the same (ws sends a Buffer without copying it). */
export async function renderEnvelope(d: Delivery, viewer: Viewer, scope: EventScope): Promise<Buffer> {
  const ns = scope.services.settings.namespace;
  const { key, payload } = await payloadOf(d, viewer, scope);
  const event = d.event === "follow_relationships_update" || d.event === "chat_update" ? `${ns}:${d.event}` : d.event;
  return scope.memo(`envelope\u0000${event}\u0000${d.stream.wire.join("\u0000")}\u0000${key}`, () => Buffer.from(JSON.stringify({ stream: d.stream.wire, event, payload })));
}

/** The `<ns>:respond` answer to a client's subscribe / unsubscribe / authenticate (the family's). */
/**
 * The reference server's error frame for a stream that cannot be subscribed: `{"error", "status"}`,
 * no `event` (its streaming server sends it for a bad `stream=` and a bad multiplexed `subscribe`
 * alike, and keeps the connection open; masto.js raises it as an error of the subscription).
 */
export function errorFrame(error: string, status: 400 | 401): string {
  return JSON.stringify({ error, status });
}

export function respondEnvelope(ns: string, type: string, result: "success" | "ignored" | "error", error?: string): string {
  // an empty `stream` lets clients that route by stream (masto.js) skip it instead of failing on it
  return JSON.stringify({ stream: [], event: `${ns}:respond`, payload: JSON.stringify({ type, result, ...(error ? { error } : {}) }) });
}

async function payloadOf(d: Delivery, viewer: Viewer, scope: EventScope): Promise<{ key: string; payload: string | undefined }> {
  const services = scope.services;
  const me = viewer.account?.id ?? "";
  const asViewer = () => makeCtx(services, viewer);
  const json = async (k: string, make: () => Promise<unknown>) => ({ key: k, payload: await scope.memo(k, async () => JSON.stringify(await make())) });
  switch (d.event) {
    case "update":
    case "status.update":
      return statusPayload(d, viewer, scope);
    case "delete":
      return { key: "", payload: d.statusId };
    case "announcement.delete":
      return { key: "", payload: d.announcementId };
    case "filters_changed":
      return { key: "", payload: undefined };
    case "follow_relationships_update":
      return { key: "", payload: JSON.stringify(d.update) };
    // the account events below reach one account's connections: one rendering as that account
    case "notification":
      return json(`notification ${me}`, () => renderNotification(asViewer(), d.notification));
    case "conversation":
      return json(`conversation ${me}`, async () => (await renderConversations(asViewer(), [d.conversation]))[0]);
    case "chat_update":
      return json(`chat ${me}`, () => renderChat(asViewer(), d.chat));
    case "announcement":
      // as the reference server publishes it: rendered for nobody in particular (no `read`)
      return json("announcement", () => renderAnnouncement(makeCtx(services), d.announcement));
  }
}

async function statusPayload(d: StatusDelivery, viewer: Viewer, scope: EventScope): Promise<{ key: string; payload: string }> {
  const services = scope.services;
  const f = d.facts;
  const me = viewer.account?.id;
  const render = async (v?: Viewer) => (await renderStatuses(makeCtx(services, v), [f.status]))[0] as Json;
  if (me && (f.status.accountId === me || f.reblogOf?.status.accountId === me)) {
    const k = `own ${me}`;
    return { key: k, payload: await scope.memo(k, async () => JSON.stringify(await render(viewer))) };
  }
  const base = await scope.memo("base", () => render());
  if (!me) return { key: "anonymous", payload: scope.memo("anonymous", () => JSON.stringify(base)) };
  const flags =
    d.event === "status.update" || f.reblogOf ? await scope.memo("flags", () => loadViewerFlags(services, scope.recipients, withInner(base).map((s) => s.id as string))) : undefined;
  const patch = patchFor(me, base, flags?.get(me), parentVisible(d.view, f.parent), filteredOf(d));
  const k = `patch ${JSON.stringify(patch)}`;
  return { key: k, payload: scope.memo(k, () => JSON.stringify(applyPatch(base, patch, services.settings.namespace))) };
}

/** One subscriber's view of the status: what it did to it (and to the original), and whether it sees the parent. */
interface Patch {
  favourited: string[];
  reblogged: string[];
  bookmarked: string[];
  /** status id → the subscriber's choices in its poll */
  votes: Record<string, number[]>;
  /** status id → emoji the subscriber reacted with */
  reacted: Record<string, string[]>;
  parentVisible: boolean;
  /** the subscriber's FilterResults for the status (and, the same, for the original it reblogs) */
  filtered: Json[];
}

const withInner = (s: Json): Json[] => (s.reblog ? [s, s.reblog] : [s]);

/** The subscriber's filters that match the status, from the filters its audience loaded (no query). */
function filteredOf(d: StatusDelivery): Json[] {
  const f = d.facts;
  const shown = f.reblogOf?.status ?? f.status;
  return filterResults(d.view.filters(), shown, f.reblogOf ? [f.status.id, shown.id] : [shown.id]).map(renderFilterResult);
}

function patchFor(me: string, base: Json, flags: ViewerFlags | undefined, seesParent: boolean, filtered: Json[]): Patch {
  const statuses = withInner(base);
  const ids = statuses.map((s) => s.id as string);
  const reacted: Record<string, string[]> = {};
  for (const s of statuses) {
    const names = (s.emoji_reactions as Json[]).filter((r) => (r.account_ids as string[]).includes(me)).map((r) => r.name as string);
    if (names.length) reacted[s.id] = names;
  }
  return {
    favourited: ids.filter((id) => flags?.favourited.has(id)),
    reblogged: ids.filter((id) => flags?.reblogged.has(id)),
    bookmarked: ids.filter((id) => flags?.bookmarked.has(id)),
    votes: Object.fromEntries(flags?.votes ?? []),
    reacted,
    parentVisible: seesParent,
    filtered,
  };
}

function applyPatch(s: Json, p: Patch, ns: string): Json {
  const reactions = (s.emoji_reactions as Json[]).map((r) => ({ ...r, me: (p.reacted[s.id] ?? []).includes(r.name) }));
  const votes = s.poll ? (p.votes[s.id] ?? []) : [];
  return {
    ...s,
    reblog: s.reblog ? applyPatch(s.reblog, p, ns) : null,
    favourited: p.favourited.includes(s.id),
    reblogged: p.reblogged.includes(s.id),
    bookmarked: p.bookmarked.includes(s.id),
    poll: s.poll ? { ...s.poll, voted: votes.length > 0, own_votes: votes } : null,
    emoji_reactions: reactions,
    filtered: p.filtered,
    [ns]: { ...s[ns], emoji_reactions: reactions, parent_visible: s.in_reply_to_id ? p.parentVisible : false },
  };
}
