// Local statuses and activities at their ActivityPub ids: `/objects/{id}` (Note, Question or Article),
// `/objects/{id}/activity` (its Create) and `/activities/{id}` (a reblog's Announce). Public and unlisted
// statuses are served to anyone (unless authorized fetch is on, see fetch-policy.ts); followers-only,
// list and direct ones only to a signed fetch from an addressed actor, a follower (followers-only), or
// another actor of their servers (the server receives them by its shared inbox anyway); local-only
// statuses never. Anything else is 404, so nothing tells whether a hidden status exists.
import type { Federation, RequestContext } from "@fedify/fedify";
import { Announce, Create, Object as ASObject } from "@fedify/vocab";
import type { Services } from "../domain/context.ts";
import type { Status } from "../generated/prisma/client.ts";
import { mayFetch, signedFetcher } from "./fetch-policy.ts";
import { renderAnnounce, renderCreate } from "./render/activities.ts";
import { loadStatusPartsOne, renderStatusObject, type StatusParts } from "./render/status.ts";

export const OBJECT_PATH = "/objects/{id}";
export const CREATE_PATH = "/objects/{id}/activity";
export const ANNOUNCE_PATH = "/activities/{id}";

type Ctx = RequestContext<Services>;
type Seen = Pick<Status, "accountId" | "visibility" | "recipientIds">;

/** Whether the fetcher of this request may see the status (see the header). */
export async function fetcherMaySee(ctx: Ctx, status: Seen): Promise<boolean> {
  if (status.visibility === "local") return false;
  const signer = await signedFetcher(ctx);
  const db = ctx.data.db;
  const signerAccount = signer?.id ? await db.account.findFirst({ where: { apId: signer.id.href }, select: { id: true } }) : null;
  if (signerAccount) {
    const blocked = await db.userRelationship.findFirst({ where: { sourceId: status.accountId, targetId: signerAccount.id, type: "block" }, select: { id: true } });
    if (blocked) return false;
  }
  if (status.visibility === "public" || status.visibility === "unlisted") return true;
  if (!signer?.id) return false;
  const host = signer.id.host;
  const addressed = await db.account.count({ where: { id: { in: status.recipientIds }, OR: [{ apId: signer.id.href }, { domain: host }] } });
  if (addressed > 0) return true;
  if (status.visibility !== "private") return false;
  const followers = await db.follow.count({ where: { followingId: status.accountId, state: "accept", follower: { OR: [{ apId: signer.id.href }, { domain: host }] } } });
  return followers > 0;
}

/** A local post (not a reblog) the fetcher may see, with what rendering needs; null otherwise. */
async function visiblePost(ctx: Ctx, id: string): Promise<StatusParts | null> {
  const status = await ctx.data.db.status.findFirst({ where: { id, local: true, reblogOfId: null, account: { deactivated: false } } });
  if (!status || !(await fetcherMaySee(ctx, status))) return null;
  return loadStatusPartsOne(ctx.data.db, id);
}

export function registerObjects(federation: Federation<Services>) {
  // Note, Question and Article share the path: the class given here only names the route
  federation
    .setObjectDispatcher(ASObject, OBJECT_PATH, async (ctx, { id }) => {
      const parts = await visiblePost(ctx, id);
      return parts && renderStatusObject(parts, ctx.data.settings.baseUrl);
    })
    .authorize((ctx) => mayFetch(ctx));
  federation
    .setObjectDispatcher(Create, CREATE_PATH, async (ctx, { id }) => {
      const parts = await visiblePost(ctx, id);
      return parts && renderCreate(parts, ctx.data.settings.baseUrl);
    })
    .authorize((ctx) => mayFetch(ctx));
  federation
    .setObjectDispatcher(Announce, ANNOUNCE_PATH, async (ctx, { id }) => {
      const reblog = await ctx.data.db.status.findFirst({
        where: { id, local: true, reblogOfId: { not: null }, account: { deactivated: false } },
        include: { account: { select: { apId: true } }, reblogOf: { select: { uri: true, account: { select: { apId: true } } } } },
      });
      if (!reblog?.reblogOf || !(await fetcherMaySee(ctx, reblog))) return null;
      return renderAnnounce(reblog, reblog.account, reblog.reblogOf.uri, reblog.reblogOf.account.apId);
    })
    .authorize((ctx) => mayFetch(ctx));
}
