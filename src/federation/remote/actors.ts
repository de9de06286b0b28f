// Remote actors → remote accounts. `rememberActor` reads an actor document (as Fedify parsed it) into
// the domain's RemoteAccountData and stores it through src/domain/accounts/remote.ops.ts; the inbox, the
// resolution port (resolve.ts) and object storage all go through here, so an account is the same row
// however it was met. Fetches are signed by the instance actor (authorized-fetch peers require it).
import { exportSpki, type DocumentLoader } from "@fedify/fedify";
import { Application, Emoji, Group, Image, isActor, Link, Organization, PropertyValue, Service, type Actor, type Object as APObject } from "@fedify/vocab";
import type { Account, ActorType } from "../../generated/prisma/client.ts";
import { systemCtx } from "../../domain/context.ts";
import { upsertRemoteAccount, type RemoteAccountData } from "../../domain/accounts/remote.ops.ts";
import { hostOf, rejectedBy } from "../../domain/instance/rejected-domains.ts";
import { sanitizeRemoteHtml } from "../../domain/statuses/formatter.ts";
import { filterRemoteAccount } from "../../domain/federation/policy/index.ts";
import type { FederationContext } from "../federation.ts";
import { INSTANCE_ACTOR } from "../service-actors.ts";
import { isObject } from "./json.ts";
import { findModelRow } from "../../db/model-rows.ts";
import { GuardedFetchError } from "../../net/guarded-fetch.ts";

/** The instance actor's signed document loader (for peers that require signed fetches). */
export function signedLoader(fctx: FederationContext): Promise<DocumentLoader> {
  return fctx.getDocumentLoader({ identifier: INSTANCE_ACTOR });
}

/**
 * The object at `id`, fetched signed; null when there is none to have (gone, refused, not a document).
 * With `retry`, a failure that may pass (unreachable, a timeout, 5xx, 429) throws instead: an inbox
 * activity that cannot be handled without the object is then handled again later (Fedify's inbox retry
 * policy, src/federation/federation.ts) rather than lost, as a relayed post was when its server was slow.
 */
export async function lookupSigned(fctx: FederationContext, id: string, opts: { retry?: boolean } = {}): Promise<APObject | null> {
  const loader = await signedLoader(fctx);
  if (!opts.retry) return fctx.lookupObject(id, { documentLoader: loader }).catch(() => null);
  // Fedify's lookup answers null whatever went wrong: the loader's first error says whether it may pass
  let failure: unknown = null;
  const documentLoader: DocumentLoader = (url, options) =>
    loader(url, options).catch((error) => {
      failure ??= error;
      throw error;
    });
  const object = await fctx.lookupObject(id, { documentLoader }).catch((error) => {
    failure ??= error;
    return null;
  });
  if (!object && failure && mayPass(failure)) throw new Error(`Could not fetch ${id} (will retry): ${(failure as Error).message ?? failure}`);
  return object;
}

/** Whether a failed fetch may succeed later: not an answer that the document is gone or refused. */
function mayPass(error: unknown): boolean {
  if (error instanceof GuardedFetchError) return error.reason === "timeout" || error.reason === "network";
  const status = (error as { response?: Response }).response?.status;
  if (typeof status === "number") return status >= 500 || status === 429 || status === 408;
  // fetch's own failures (a refused connection, a reset, an abort on timeout)
  return error instanceof TypeError || (error instanceof Error && (error.name === "AbortError" || error.name === "TimeoutError"));
}

function actorType(actor: Actor): ActorType {
  if (actor instanceof Service) return "Service";
  if (actor instanceof Application) return "Application";
  if (actor instanceof Group) return "Group";
  if (actor instanceof Organization) return "Organization";
  return "Person";
}

const text = (v: unknown) => (v === null || v === undefined ? "" : String(v));

/** The first http(s) URL of a `url` value (a URL or a Link, possibly several; a text/html one first). */
export function firstUrl(urls: readonly (URL | Link)[]): string | null {
  const html = urls.find((u) => u instanceof Link && u.mediaType?.startsWith("text/html"));
  const pick = html ?? urls[0];
  if (!pick) return null;
  const href = pick instanceof URL ? pick : pick.href;
  return href && /^https?:$/.test(href.protocol) ? href.href : null;
}

async function imageUrl(get: () => Promise<Image | null>): Promise<string | null> {
  try {
    const image = await get();
    return image ? firstUrl(image.urls) : null;
  } catch {
    return null;
  }
}

/** Custom emoji among an object's tags: [{shortcode, url, apId}] (shortcodes without colons). */
export async function emojiTags(tags: AsyncIterable<unknown>): Promise<{ shortcode: string; url: string; apId: string | null }[]> {
  const out: { shortcode: string; url: string; apId: string | null }[] = [];
  try {
    for await (const tag of tags) {
      if (!(tag instanceof Emoji)) continue;
      const shortcode = text(tag.name).replace(/^:|:$/g, "");
      const url = await imageUrl(() => tag.getIcon() as Promise<Image | null>);
      if (/^[A-Za-z0-9_-]+$/.test(shortcode) && url && !out.some((e) => e.shortcode === shortcode)) out.push({ shortcode, url, apId: tag.id?.href ?? null });
    }
  } catch {
    // a tag that cannot be read leaves the others
  }
  return out;
}

/**
 * The family's `capabilities.acceptsChatMessages`, outside Fedify's vocabulary: read from the document
 * as received, which Fedify keeps on the parsed object (the same cache actors.ts writes our extensions to).
 */
function acceptsChatMessages(actor: Actor): boolean | null {
  const doc = (actor as unknown as { _cachedJsonLd?: unknown })._cachedJsonLd;
  const capabilities = isObject(doc) ? doc.capabilities : null;
  const value = isObject(capabilities) ? (capabilities.acceptsChatMessages ?? capabilities["litepub:acceptsChatMessages"]) : null;
  return typeof value === "boolean" ? value : null;
}

/** The actor document as the domain's data (no database access). */
export async function actorData(fctx: FederationContext, actor: Actor): Promise<RemoteAccountData | null> {
  const apId = actor.id?.href;
  const username = text(actor.preferredUsername).trim();
  if (!apId || !username) return null;
  const domain = new URL(apId).host.toLowerCase();
  const loader = { documentLoader: await signedLoader(fctx), contextLoader: fctx.contextLoader, suppressError: true };
  const fields: { name: string; value: string }[] = [];
  for await (const a of actor.getAttachments(loader)) {
    if (a instanceof PropertyValue) fields.push({ name: text(a.name).slice(0, 512), value: sanitizeRemoteHtml(text(a.value)).slice(0, 2048) });
  }
  const key = await actor.getPublicKey(loader).catch(() => null);
  const publicKey = key?.publicKey ? await exportSpki(key.publicKey).catch(() => null) : null;
  const summary = text(actor.summary);
  return {
    apId,
    nickname: `${username}@${domain}`,
    domain,
    url: firstUrl(actor.urls),
    displayName: plainName(text(actor.name)),
    note: summary ? sanitizeRemoteHtml(summary) : "",
    avatar: await imageUrl(() => actor.getIcon(loader)),
    header: await imageUrl(() => actor.getImage(loader)),
    fields,
    emojis: await emojiTags(actor.getTags(loader)),
    locked: actor.manuallyApprovesFollowers ?? false,
    discoverable: actor.discoverable ?? false,
    actorType: actorType(actor),
    alsoKnownAs: actor.aliasIds.map((u) => u.href),
    acceptsChatMessages: acceptsChatMessages(actor),
    movedToApId: actor.successorId?.href ?? null,
    inbox: actor.inboxId?.href ?? null,
    sharedInbox: actor.endpoints?.sharedInbox?.href ?? null,
    followersUrl: actor.followersId?.href ?? null,
    followingUrl: actor.followingId?.href ?? null,
    outboxUrl: actor.outboxId?.href ?? null,
    featuredUrl: actor.featuredId?.href ?? null,
    publicKey,
    publicKeyId: key?.id?.href ?? actor.publicKeyId?.href ?? null,
  };
}

/** Display names are plain text: tags are dropped, not rendered (clients escape them). */
const plainName = (name: string) => name.replace(/<[^>]*>/g, "").trim().slice(0, 256);

/**
 * Stores (creates or updates) the remote account of `actor`; null for an actor without id or username,
 * for one of our own, or for one on a server the instance rejects.
 */
export async function rememberActor(fctx: FederationContext, actor: Actor): Promise<Account | null> {
  const services = fctx.data;
  const id = actor.id;
  if (!id || id.origin === new URL(services.settings.baseUrl).origin) return null;
  if (rejectedBy(services, hostOf(id))) return null;
  const data = await actorData(fctx, actor);
  if (!data) return null;
  // SimplePolicy's avatar_removal and banner_removal
  return upsertRemoteAccount(systemCtx(services), filterRemoteAccount(services.config, data));
}

/**
 * The account of an actor URL: stored, or fetched (signed by the instance actor) and stored. Local
 * actors answer their account. Null when it cannot be had (unreachable, not an actor, rejected server).
 */
export async function accountForActorUri(fctx: FederationContext, uri: string | URL, opts: { refresh?: boolean } = {}): Promise<Account | null> {
  const href = typeof uri === "string" ? uri : uri.href;
  const services = fctx.data;
  // once per inbox activity (its actor): straight to the driver
  const stored = await findModelRow(services.db, "Account", "apId", href);
  if (stored && (stored.local || !opts.refresh)) return stored;
  if (rejectedBy(services, hostOf(href))) return null;
  const object = await lookupSigned(fctx, href);
  if (!object || !isActor(object) || object.id?.href !== href) return stored;
  return (await rememberActor(fctx, object)) ?? stored;
}
