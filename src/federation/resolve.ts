// The FederationPort (src/domain/federation/port.ts): finds remote accounts and statuses by handle or
// URL through WebFinger and signed GETs, and stores them with the inbound code's `rememberActor` /
// `rememberObject` (src/federation/remote/*), so a looked-up account is the same row an activity from
// it would have made. Every fetch is signed by the instance actor (peers in authorized-fetch mode answer
// only signed requests) and runs inside `inFederation`, i.e. through the guarded client
// (src/net/guarded-fetch.ts): private addresses refused unless allowed, size and time limits, redirects
// re-checked. A failed or refused fetch is "not found" to the caller, never a server error.
import { Article, Note, Page, Question, isActor, type Object as APObject } from "@fedify/vocab";
import type { Account, Status } from "../generated/prisma/client.ts";
import type { Ctx, Services } from "../domain/context.ts";
import { isHttpUrl, parseHandle, type FederationPort, type Resolved } from "../domain/federation/port.ts";
import { linkReplyParent } from "../domain/statuses/context.ops.ts";
import { inFederation, type FederationContext } from "./federation.ts";
import { rememberActor } from "./remote/actors.ts";
import { rememberObject } from "./remote/objects.ts";
import { REFRESH_ACCOUNT_JOB } from "./resolve.job-names.ts";
import { INSTANCE_ACTOR } from "./service-actors.ts";
import { DbKvStore } from "./kv-store.ts";
import { Temporal } from "@js-temporal/polyfill";
import { accountByName } from "../db/account-names.ts";

/** The WebFinger link relation of a server's remote-follow / remote-interaction page template. */
export const SUBSCRIBE_REL = "http://ostatus.org/schema/1.0/subscribe";
/** Object types stored as statuses. */
const STATUS_TYPES = [Note, Article, Page, Question] as const;
const isStatusObject = (o: APObject) => STATUS_TYPES.some((cls) => o instanceof cls);
/** A refresh scheduled for an account is not scheduled again within this time. */
const REFRESH_DEDUP = Temporal.Duration.from({ hours: 1 });
/** A remote status whose ancestors were looked for completely is not looked at again for this long. */
const ANCESTORS_CHECKED = Temporal.Duration.from({ hours: 24 });
/** …and one whose walk failed (a server away, a deadline) is tried again after this long, not on every view. */
const ANCESTORS_RETRY = Temporal.Duration.from({ minutes: 5 });

type Lookup = NonNullable<Parameters<FederationContext["lookupObject"]>[1]>;

/** The instance actor's signed document loader: fetches that authorized-fetch peers answer. */
async function signedLookup(fctx: FederationContext, signal?: AbortSignal): Promise<Lookup> {
  return { documentLoader: await fctx.getDocumentLoader({ identifier: INSTANCE_ACTOR }), signal };
}

/** Fedify's lookup that never throws: a fetch the guard refused, a timeout or garbage are all "nothing". */
async function lookup(fctx: FederationContext, identifier: string, opts: Lookup): Promise<APObject | null> {
  try {
    return await fctx.lookupObject(identifier, opts);
  } catch {
    return null;
  }
}

async function knownAccountByHandle(ctx: Ctx, username: string, host: string): Promise<Account | null> {
  if (host === ctx.settings.domain.toLowerCase()) {
    return accountByName(ctx.db, { nicknames: [username], local: true });
  }
  return accountByName(ctx.db, { nicknames: [`${username}@${host}`], local: false });
}

async function knownByUrl(ctx: Ctx, url: string): Promise<Resolved | null> {
  const account = await ctx.db.account.findFirst({ where: { OR: [{ apId: url }, { url }] } });
  if (account) return { account };
  const status = await ctx.db.status.findFirst({ where: { OR: [{ uri: url }, { url }], reblogOfId: null } });
  return status ? { status } : null;
}

/** Stores what a lookup brought: an actor as an account, a Note/Article/Page/Question as a status. */
async function remember(fctx: FederationContext, object: APObject): Promise<Resolved | null> {
  if (isActor(object)) {
    const account = await rememberActor(fctx, object);
    return account ? { account } : null;
  }
  if (isStatusObject(object)) {
    const status = await rememberObject(fctx, object);
    return status ? { status } : null;
  }
  return null;
}

export function createFederationPort(services: Services): FederationPort {
  // Fedify's federation is built per `services` object (a Ctx is a copy): always enter with the original
  const run = <T>(fn: (fctx: FederationContext) => Promise<T>) => inFederation(services, fn);
  const kv = new DbKvStore(services.db);

  const port: FederationPort = {
    async resolveAccount(ctx, handleOrUrl) {
      const value = handleOrUrl.trim();
      if (isHttpUrl(value)) {
        const found = await port.resolveObject(ctx, value);
        return found && "account" in found ? found.account : null;
      }
      const handle = parseHandle(value);
      if (!handle) return null;
      const known = await knownAccountByHandle(ctx, handle.username, handle.host);
      if (known || handle.host === ctx.settings.domain.toLowerCase()) return known;
      return run(async (fctx) => {
        const object = await lookup(fctx, `acct:${handle.username}@${handle.host}`, await signedLookup(fctx));
        if (!object || !isActor(object)) return null;
        return rememberActor(fctx, object);
      });
    },

    async resolveObject(ctx, url) {
      const value = url.trim();
      if (!isHttpUrl(value)) return null;
      const known = await knownByUrl(ctx, value);
      if (known) return known;
      // our own URLs are never fetched: what is not stored here does not exist
      if (new URL(value).origin === new URL(ctx.settings.baseUrl).origin) return null;
      return run(async (fctx) => {
        const object = await lookup(fctx, value, await signedLookup(fctx));
        if (!object) return null;
        // a page URL may lead to an object stored under its id
        if (object.id && object.id.href !== value) {
          const again = await knownByUrl(ctx, object.id.href);
          if (again) return again;
        }
        return remember(fctx, object);
      });
    },

    async fetchAncestors(ctx, status, opts = {}) {
      const maxDepth = opts.maxDepth ?? 20;
      if (status.local || status.inReplyToId) return 0;
      const marker = ["ext", "ancestors_checked", status.id] as const;
      if (await kv.get(marker)) return 0;
      const signal = AbortSignal.timeout(opts.timeoutMs ?? 5_000);
      return run(async (fctx) => {
        const loader = await signedLookup(fctx, signal);
        const self = await lookup(fctx, status.uri, loader);
        let parentId = self?.replyTargetId?.href ?? null;
        // walk up until a known status, the root, the depth bound or the deadline
        const missing: APObject[] = [];
        let anchor: Status | null = null;
        const seen = new Set([status.uri]);
        while (parentId && missing.length < maxDepth && !signal.aborted && !seen.has(parentId)) {
          seen.add(parentId);
          const known = await ctx.db.status.findFirst({ where: { OR: [{ uri: parentId }, { url: parentId }], reblogOfId: null } });
          if (known) {
            anchor = known;
            break;
          }
          const parent = await lookup(fctx, parentId, loader);
          if (!parent || !isStatusObject(parent)) break;
          missing.push(parent);
          parentId = parent.replyTargetId?.href ?? null;
        }
        // store from the top down, so each reply finds its parent stored; then link the chain
        let stored = 0;
        let linked = false;
        let above = anchor;
        for (const object of missing.reverse()) {
          const saved = await rememberObject(fctx, object);
          if (!saved) break;
          stored++;
          if (above && saved.inReplyToId !== above.id) await linkReplyParent(ctx, saved.id, above.id);
          above = saved;
        }
        if (above && missing.length === stored) {
          await linkReplyParent(ctx, status.id, above.id);
          linked = true;
        }
        // a complete walk (the root or a stored status reached) need not be repeated on the next view
        const complete = self !== null && !signal.aborted && missing.length === stored && (anchor !== null || !parentId);
        await kv.set(marker, true, { ttl: complete ? ANCESTORS_CHECKED : ANCESTORS_RETRY });
        return stored + (linked ? 1 : 0);
      });
    },

    async refreshAccount(ctx, accountId) {
      const account = await ctx.db.account.findUnique({ where: { id: accountId } });
      if (!account || account.local) return account;
      return run(async (fctx) => {
        const object = await lookup(fctx, account.apId, await signedLookup(fctx));
        if (!object || !isActor(object) || object.id?.href !== account.apId) return account;
        return (await rememberActor(fctx, object)) ?? account;
      });
    },

    async scheduleRefresh(ctx, accountId) {
      // de-duplicated across processes: the first to set the marker enqueues, the others see it
      const first = await kv.cas(["ext", "refresh_account", accountId], undefined, true, { ttl: REFRESH_DEDUP });
      if (first) await ctx.jobs.enqueue(REFRESH_ACCOUNT_JOB, { accountId }, { attempts: 3, backoff: { type: "exponential", delay: 60_000 } });
    },

    async subscribeTemplate(ctx, handle) {
      const parsed = parseHandle(handle);
      if (!parsed) return null;
      return run(async (fctx) => {
        try {
          const jrd = await fctx.lookupWebFinger(`acct:${parsed.username}@${parsed.host}`);
          const link = jrd?.links?.find((l) => l.rel === SUBSCRIBE_REL && (l.template || l.href));
          return link?.template ?? link?.href ?? null;
        } catch {
          return null;
        }
      });
    },
  };
  return port;
}
