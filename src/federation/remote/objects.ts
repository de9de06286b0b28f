// Remote Note, Article, Page and Question objects → statuses, through src/domain/statuses/remote.ops.ts
// (the same side effects as local posting). `rememberObject` is shared by the inbox (Create, Announce of
// an unknown object) and the resolution port; `objectStatusData` reads the JSON the way the servers of
// the field write it (see docs/federation.md, "Inbound").
import { isActor, type Object as APObject } from "@fedify/vocab";
import type { Account, Status, Visibility } from "../../generated/prisma/client.ts";
import { systemCtx } from "../../domain/context.ts";
import { escapeHtml } from "../../kernel/escape.ts";
import { hostOf, rejectedBy } from "../../domain/instance/rejected-domains.ts";
import { htmlToText, sanitizeRemoteHtml } from "../../domain/statuses/formatter.ts";
import { storeRemoteStatus, updateRemoteStatus, type RemoteMedia, type RemotePoll, type RemoteStatusData } from "../../domain/statuses/remote.ops.ts";
import { filterRemoteStatus } from "../../domain/federation/policy/index.ts";
import type { FederationContext } from "../federation.ts";
import { accountForActorUri, lookupSigned } from "./actors.ts";
import { date, idOf, ids, isObject, list, mapped, PUBLIC_IDS, str, types, urlOf, type Json } from "./json.ts";

export const STATUS_TYPES = ["Note", "Article", "Page", "Question"] as const;
const ACTOR_TYPES = ["Person", "Service", "Application", "Group", "Organization"];
/** How many unknown ancestors an incoming reply may fetch to find its thread. */
const MAX_PARENT_FETCHES = 3;

export const isStatusJson = (json: Json) => types(json).some((t) => (STATUS_TYPES as readonly string[]).includes(t));

/** The compact JSON of a parsed object (for objects fetched through Fedify, which has no raw payload). */
export async function objectJson(fctx: FederationContext, object: APObject): Promise<Json> {
  return (await object.toJsonLd({ format: "compact", contextLoader: fctx.contextLoader })) as Json;
}

/** The author among `attributedTo` (a string, an object, or an array mixing actors and groups): the first actor that is not a group, else the first. */
export function authorOf(json: Json): string | null {
  const refs = list(json.attributedTo);
  const person = refs.find((r) => isObject(r) && types(r).some((t) => ACTOR_TYPES.includes(t) && t !== "Group"));
  return idOf(person ?? refs.find((r) => typeof r === "string" || (isObject(r) && !types(r).includes("Group"))) ?? refs[0]);
}

function visibilityOf(to: string[], cc: string[], followersUrl: string | null): Visibility {
  if (to.some((id) => PUBLIC_IDS.has(id))) return "public";
  if (cc.some((id) => PUBLIC_IDS.has(id))) return "unlisted";
  if (followersUrl && [...to, ...cc].includes(followersUrl)) return "private";
  // Misskey and others address followers without naming the collection in some shapes: any *followers collection counts
  if ([...to, ...cc].some((id) => /\/followers$/.test(id))) return "private";
  return "direct";
}

function mediaType(mime: string, asType: string[]): string {
  if (mime.startsWith("image/")) return "image";
  if (mime.startsWith("video/")) return "video";
  if (mime.startsWith("audio/")) return "audio";
  if (asType.includes("Image")) return "image";
  if (asType.includes("Video")) return "video";
  if (asType.includes("Audio")) return "audio";
  return "unknown";
}

export function attachmentsOf(json: Json): RemoteMedia[] {
  const out: RemoteMedia[] = [];
  for (const a of list(json.attachment)) {
    if (!isObject(a)) continue;
    const url = urlOf(a.url) ?? urlOf(a.href);
    if (!url) continue;
    const mime = str(a.mediaType) ?? "";
    const focal = Array.isArray(a.focalPoint) && a.focalPoint.length === 2 && a.focalPoint.every((n) => typeof n === "number") ? { x: a.focalPoint[0] as number, y: a.focalPoint[1] as number } : null;
    out.push({ url, mimeType: mime || "application/octet-stream", type: mediaType(mime, types(a)), description: str(a.name) || str(a.summary) || null, blurhash: str(a.blurhash), focus: focal });
  }
  return out.slice(0, 16);
}

function pollOf(json: Json): RemotePoll | null {
  if (!types(json).includes("Question")) return null;
  const multiple = json.anyOf !== undefined && json.oneOf === undefined;
  const choices = list(multiple ? json.anyOf : json.oneOf).filter(isObject);
  if (choices.length === 0) return null;
  const closed = json.closed;
  const endTime = date(json.endTime);
  return {
    options: choices.map((c) => str(c.name) ?? ""),
    multiple,
    counts: choices.map((c) => (isObject(c.replies) && typeof c.replies.totalItems === "number" ? c.replies.totalItems : 0)),
    votersCount: typeof json.votersCount === "number" ? json.votersCount : null,
    expiresAt: endTime,
    closedAt: closed === true ? (endTime ?? new Date()) : date(closed),
  };
}

/** The quoted post's URL under any of its spellings (FEP-044f `quote`, `quoteUrl`, Misskey, Fedibird). */
export function quoteOf(json: Json): string | null {
  return str(json.quote) ?? str(json.quoteUrl) ?? str(json._misskey_quote) ?? str(json.quoteUri) ?? null;
}

/** The stored status at `uri` (a reply's parent, a quote's quoted post), fetched and stored when unknown (up to MAX_PARENT_FETCHES deep). */
async function parentOf(fctx: FederationContext, uri: string | null, depth: number): Promise<Status | null> {
  if (!uri) return null;
  const db = fctx.data.db;
  const known = await db.status.findFirst({ where: { OR: [{ uri }, { url: uri }], reblogOfId: null } });
  if (known || depth >= MAX_PARENT_FETCHES) return known;
  // an unknown parent: fetched (signed), so the reply is threaded under it
  const object = await lookupSigned(fctx, uri);
  if (!object || isActor(object)) return null;
  return rememberObjectJson(fctx, await objectJson(fctx, object), depth + 1).catch(() => null);
}

/**
 * Reads a status object into the domain's data; null when it is not a status, has no author we can
 * know, or comes from a rejected server. `author` is given when the caller already knows it (an inbox
 * activity's verified actor).
 */
export async function objectStatusData(fctx: FederationContext, json: Json, opts: { author?: Account; depth?: number; created?: boolean } = {}): Promise<RemoteStatusData | null> {
  const uri = idOf(json);
  if (!uri || !isStatusJson(json)) return null;
  const services = fctx.data;
  if (rejectedBy(services, hostOf(uri))) return null;
  const authorId = authorOf(json);
  if (!authorId) return null;
  const author = opts.author?.apId === authorId ? opts.author : await accountForActorUri(fctx, authorId);
  if (!author || author.local) return null;

  const to = ids(json.to);
  const cc = ids(json.cc);
  const tags = list(json.tag).filter(isObject);
  const mentionHrefs = tags.filter((t) => types(t).includes("Mention")).map((t) => str(t.href) ?? idOf(t)).filter((h): h is string => !!h);
  // the author's own followers collection names no account: not looked up (most posts address only it)
  const addressed = [...new Set([...to, ...cc, ...mentionHrefs])].filter((id) => !PUBLIC_IDS.has(id) && id !== author.followersUrl);
  const known = addressed.length ? await services.db.account.findMany({ where: { OR: [{ apId: { in: addressed } }, { url: { in: mentionHrefs } }] }, select: { id: true, apId: true, url: true } }) : [];
  const mentionIds = known.filter((a) => mentionHrefs.includes(a.apId) || (a.url !== null && mentionHrefs.includes(a.url))).map((a) => a.id);
  const hashtags = [...new Set(tags.filter((t) => types(t).includes("Hashtag")).map((t) => (str(t.name) ?? "").replace(/^#/, "").toLowerCase()).filter((n) => /^[\p{L}\p{N}_]+$/u.test(n)))];
  const emojis = tags
    .filter((t) => types(t).includes("Emoji"))
    .map((t) => ({ shortcode: (str(t.name) ?? "").replace(/^:|:$/g, ""), url: urlOf(isObject(t.icon) ? t.icon.url : null), apId: idOf(t) }))
    .filter((e): e is { shortcode: string; url: string; apId: string | null } => /^[A-Za-z0-9_-]+$/.test(e.shortcode) && !!e.url);

  const objectType = types(json).find((t) => (STATUS_TYPES as readonly string[]).includes(t)) ?? "Note";
  const { text: rawContent, language } = mapped(json, "content");
  let content = sanitizeRemoteHtml(rawContent ?? "");
  // long-form objects: the title heads the content, as the family renders them
  const title = mapped(json, "name").text;
  if ((objectType === "Article" || objectType === "Page") && title) content = `<p><strong>${escapeHtml(title)}</strong></p>${content}`;
  const quote = quoteOf(json);
  if (quote && !content.includes(escapeHtml(quote))) content += `<p>RE: <a href="${escapeHtml(quote)}">${escapeHtml(quote)}</a></p>`;
  const source = isObject(json.source) ? str(json.source.content) : str(json._misskey_content);
  const summary = mapped(json, "summary").text;
  const parent = await parentOf(fctx, idOf(json.inReplyTo), opts.depth ?? 0);
  const quoted = quote ? await parentOf(fctx, quote, opts.depth ?? 0) : null;

  const data: RemoteStatusData = {
    uri,
    url: urlOf(json.url),
    accountId: author.id,
    authorLastStatusAt: author.lastStatusAt,
    objectType,
    content,
    source: source ?? "",
    contentType: "text/html",
    spoilerText: summary ? htmlToText(summary) : "",
    sensitive: json.sensitive === true,
    visibility: visibilityOf(to, cc, author.followersUrl),
    recipientIds: known.filter((a) => a.id !== author.id).map((a) => a.id),
    mentionIds: mentionIds.filter((id) => id !== author.id),
    tags: hashtags,
    emojis,
    inReplyTo: parent,
    quoteId: quoted?.id ?? null,
    context: str(json.context) ?? str(json.conversation),
    language,
    createdAt: date(json.published) ?? services.clock(),
    editedAt: date(json.updated),
    media: attachmentsOf(json),
    poll: pollOf(json),
  };
  // the content policies in force (the family's MRF) may refuse or rewrite it
  // an object handed with its author at the top is an inbox Create's (ObjectAgePolicy looks only at those)
  const created = opts.created ?? ((opts.depth ?? 0) === 0 && opts.author !== undefined);
  const filtered = filterRemoteStatus(services.config, data, { host: author.domain ?? hostOf(uri) ?? "", created, now: services.clock() });
  return filtered.ok ? filtered.value : null;
}

async function rememberObjectJson(fctx: FederationContext, json: Json, depth: number, author?: Account, fresh = false): Promise<Status | null> {
  const uri = idOf(json);
  if (!uri) return null;
  if (!fresh) {
    const stored = await fctx.data.db.status.findUnique({ where: { uri } });
    if (stored) return stored;
  }
  const data = await objectStatusData(fctx, json, { author, depth });
  return data ? storeRemoteStatus(systemCtx(fctx.data), data) : null;
}

/**
 * Stores a remote status object once (the stored status when its id is known). `raw` is the object as
 * its server sent it (an inbox payload), which keeps extension properties Fedify does not model.
 */
export async function rememberObject(
  fctx: FederationContext,
  object: APObject,
  opts: {
    raw?: Json;
    author?: Account;
    /**
     * the object most likely is new (a Create, which Fedify has de-duplicated): no look-up first; one
     * stored already still answers, through the unique `uri` (storeRemoteStatus)
     */
    fresh?: boolean;
  } = {},
): Promise<Status | null> {
  const json = opts.raw && idOf(opts.raw) === object.id?.href ? opts.raw : await objectJson(fctx, object);
  return rememberObjectJson(fctx, json, 0, opts.author, opts.fresh);
}

/** An Update of a stored remote status by its author: a new version (or new poll counts). */
export async function updateObject(fctx: FederationContext, status: Status, json: Json, author: Account): Promise<Status | null> {
  const data = await objectStatusData(fctx, json, { author, depth: MAX_PARENT_FETCHES });
  if (!data || data.accountId !== status.accountId) return null;
  return updateRemoteStatus(systemCtx(fctx.data), status, { ...data, inReplyTo: null });
}
