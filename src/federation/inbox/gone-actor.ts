// The Delete of an actor whose server already answers 410 Gone for it: the key that signed the
// Delete cannot be fetched any more, so Fedify cannot verify it. Such a Delete is checked again with
// the public key we stored for that account when we last fetched it (Mastodon does the same), and
// only a Delete of the signer itself, verified that way, removes the account and its content.
import type { RequestContext, UnverifiedActivityReason } from "@fedify/fedify";
import { verifyRequest } from "@fedify/fedify";
import { CryptographicKey, Delete, type Activity } from "@fedify/vocab";
import { importPem } from "@fedify/vocab-runtime";
import { systemCtx, type Services } from "../../domain/context.ts";
import { removeRemoteAccount } from "../../domain/accounts/remote.ops.ts";
import { refusedActivity } from "../../domain/federation/policy/index.ts";
import { hostOf } from "../../domain/instance/rejected-domains.ts";

const keyOwner = (keyId: URL) => {
  const owner = new URL(keyId);
  owner.hash = "";
  return owner.href;
};

export async function onUnverifiedActivity(fctx: RequestContext<Services>, activity: Activity, reason: UnverifiedActivityReason): Promise<Response | void> {
  if (!(activity instanceof Delete) || reason.type !== "keyFetchError" || !("status" in reason.result) || reason.result.status !== 410) return;
  const actorId = activity.actorId?.href;
  if (!actorId || activity.objectId?.href !== actorId || keyOwner(reason.keyId) !== actorId) return;
  if (refusedActivity(fctx.data.config, ["Delete"], hostOf(actorId))) return;
  const account = await fctx.data.db.account.findUnique({ where: { apId: actorId } });
  if (!account || account.local || !account.publicKey) return;
  const stored = new CryptographicKey({ id: reason.keyId, owner: new URL(actorId), publicKey: await importPem(account.publicKey) });
  const verified = await verifyRequest(fctx.request.clone(), {
    contextLoader: fctx.contextLoader,
    documentLoader: fctx.documentLoader,
    // only the stored key: nothing is fetched
    keyCache: { get: async (id: URL) => (id.href === reason.keyId.href ? stored : null), set: async () => {} },
  }).catch(() => null);
  if (!verified) return;
  await removeRemoteAccount(systemCtx(fctx.data), account);
  return new Response(null, { status: 202 });
}
