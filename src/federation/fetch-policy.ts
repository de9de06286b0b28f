// Who may GET our ActivityPub documents. Actor documents (and the instance actor) are always served so
// that peers can fetch keys, as Mastodon does in secure mode. With `activitypub.authorized_fetch_mode`
// on (off by default, as in the family), objects, activities and collections need a valid HTTP signature
// (draft-cavage or RFC 9421, verified by Fedify) whose key belongs to a non-blocked domain. Whatever the
// mode, a request signed with a key of a blocked domain is refused.
import type { RequestContext } from "@fedify/fedify";
import type { Actor } from "@fedify/vocab";
import type { Services } from "../domain/context.ts";
import { rejectedBy } from "../domain/instance/rejected-domains.ts";

type Ctx = RequestContext<Services>;

/** Whether the instance refuses `host`: the same rule the inbox applies (`mrf_simple.reject`). */
export function isBlockedDomain(services: Services, host: string): boolean {
  return rejectedBy(services, host) !== null;
}

/** The key id a request claims (not verified): draft-cavage `Signature: keyId="…"` or RFC 9421 `Signature-Input: …;keyid="…"`. */
export function claimedKeyId(request: Request): URL | null {
  const cavage = request.headers.get("signature")?.match(/keyId="([^"]+)"/i)?.[1];
  const rfc9421 = request.headers.get("signature-input")?.match(/keyid="([^"]+)"/i)?.[1];
  try {
    return cavage || rfc9421 ? new URL((cavage || rfc9421)!) : null;
  } catch {
    return null;
  }
}

/** The verified signer of this request (its key's owner), once per request. */
const signers = new WeakMap<Request, Promise<Actor | null>>();
export function signedFetcher(ctx: Ctx): Promise<Actor | null> {
  let signer = signers.get(ctx.request);
  if (!signer) {
    signer = claimedKeyId(ctx.request) ? ctx.getSignedKeyOwner().catch(() => null) : Promise.resolve(null);
    signers.set(ctx.request, signer);
  }
  return signer;
}

/** The authorize predicate of objects, activities and collections. */
export async function mayFetch(ctx: Ctx): Promise<boolean> {
  const claimed = claimedKeyId(ctx.request);
  if (claimed && isBlockedDomain(ctx.data, claimed.host)) return false;
  if (!ctx.data.config.get("activitypub", "authorized_fetch_mode")) return true;
  const signer = await signedFetcher(ctx);
  return !!signer?.id && !isBlockedDomain(ctx.data, signer.id.host);
}
