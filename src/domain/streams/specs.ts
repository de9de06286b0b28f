// The streams a client can name (the streaming API and GraphQL subscriptions alike), who may read
// them, and which timeline each one is read live (its rules: timelines/rules.ts).
import { hasScope } from "../auth/scopes.ts";
import type { Ctx } from "../context.ts";
import { mayInclude, type ListFacts, type StatusCore, type StatusFacts, type TimelineKind } from "../timelines/rules.ts";
import { ownsList } from "./streams.read.ts";

export type StreamKind =
  | "user"
  | "user:notification"
  | "public"
  | "public:local"
  | "public:media"
  | "public:local:media"
  | "public:remote"
  | "public:remote:media"
  | "hashtag"
  | "hashtag:local"
  | "list"
  | "direct"
  | "chat"
  /** the home timeline's statuses alone: no client names it; the page cache follows it (src/http/routes/page-cache.ts) */
  | "home";

export const PUBLIC_KINDS: readonly StreamKind[] = ["public", "public:local", "public:media", "public:local:media", "public:remote", "public:remote:media", "hashtag", "hashtag:local"];
/** what a token must hold (any one) for the streams of a signed-in account, as the family asks */
const SCOPES: Partial<Record<StreamKind, string[]>> = {
  user: ["read:statuses"],
  "user:notification": ["read:notifications"],
  direct: ["read:statuses"],
  chat: ["read:statuses"],
  list: ["read:lists"],
};

export interface StreamSpec {
  kind: StreamKind;
  /** the stream as events carry it: `["hashtag", "cats"]`, `["list", "<id>"]`, `["user"]` */
  wire: string[];
  /** identity of the subscription within a connection */
  key: string;
  tag?: string;
  listId?: string;
  instance?: string;
}

export interface StreamParams {
  stream?: unknown;
  tag?: unknown;
  list?: unknown;
  instance?: unknown;
}

const text = (v: unknown) => (typeof v === "string" ? v.trim() : typeof v === "number" ? String(v) : "");
const tagName = (t: string) => t.replace(/^#/, "").toLowerCase();

/** The stream a client names (`stream` with `tag`, `list` or `instance`), or null for an unknown one. */
export function parseStream(ns: string, p: StreamParams): StreamSpec | null {
  const name = text(p.stream);
  const spec = (kind: StreamKind, extra: Partial<StreamSpec> = {}, arg?: string): StreamSpec => ({
    kind,
    wire: arg === undefined ? [name] : [name, arg],
    key: arg === undefined ? name : `${name}\u0000${kind === "list" ? arg : arg.toLowerCase()}`,
    ...extra,
  });
  switch (name) {
    case "user":
    case "user:notification":
    case "public":
    case "public:local":
    case "public:media":
    case "public:local:media":
    case "direct":
      return spec(name);
    case `user:${ns}_chat`:
      return spec("chat");
    case "hashtag":
    case "hashtag:local": {
      const tag = text(p.tag);
      return tagName(tag) ? spec(name, { tag: tagName(tag) }, tag) : null;
    }
    case "public:remote":
    case "public:remote:media": {
      const instance = text(p.instance);
      return instance ? spec(name, { instance: instance.toLowerCase() }, instance) : null;
    }
    case "list": {
      const list = text(p.list);
      return list ? spec("list", { listId: list }, list) : null;
    }
    default:
      return null;
  }
}

/**
 * Why `parseStream` found no stream, in the reference server's words (its streaming server answers a
 * bad stream with `{"error": <this>, "status": 400}`).
 */
export function unknownStreamReason(p: StreamParams): string {
  const name = text(p.stream);
  if ((name === "hashtag" || name === "hashtag:local") && !text(p.tag)) return "Missing tag name parameter";
  if (name === "list" && !text(p.list)) return "Missing list name parameter";
  if ((name === "public:remote" || name === "public:remote:media") && !text(p.instance)) return "Missing instance parameter";
  return "Unknown stream type";
}

export type StreamRefusal = "unauthorized" | "bad_topic";

/** Whether the viewer may read the stream: public ones are open, the others need the account, the scope and (lists) ownership. */
export async function authorizeStream(ctx: Ctx, spec: StreamSpec): Promise<StreamRefusal | null> {
  if (PUBLIC_KINDS.includes(spec.kind)) return null;
  const me = ctx.viewer.account;
  if (!me || !hasScope(ctx.viewer.scopes, SCOPES[spec.kind] ?? [])) return "unauthorized";
  if (spec.kind === "list" && !(await ownsList(ctx, me.id, spec.listId!))) return "bad_topic";
  return null;
}


/** the streams that carry statuses */
export const STATUS_STREAMS: readonly StreamKind[] = [...PUBLIC_KINDS, "user", "home", "list", "direct"];

/** The timeline a status stream is read live (`lists`: the subscribed lists the status's author belongs to). */
export function timelineOf(spec: StreamSpec, lists: Map<string, ListFacts>): TimelineKind {
  switch (spec.kind) {
    case "user":
    case "home":
      return { kind: "home" };
    case "list":
      return { kind: "list", list: lists.get(spec.listId!) };
    case "direct":
      return { kind: "direct" };
    case "hashtag":
    case "hashtag:local":
      return { kind: "tag", tag: spec.tag!, local: spec.kind === "hashtag:local" };
    default:
      return {
        kind: "public",
        local: spec.kind.startsWith("public:local"),
        remote: spec.kind.startsWith("public:remote"),
        instance: spec.instance,
        onlyMedia: spec.kind.endsWith(":media"),
      };
  }
}

/** A cheap look at the status alone, before any relation is read: could this stream list it for anybody? */
export function mayList(spec: StreamSpec, f: StatusFacts<StatusCore>): boolean {
  return STATUS_STREAMS.includes(spec.kind) && mayInclude(f, timelineOf(spec, new Map()).kind, spec.tag);
}
