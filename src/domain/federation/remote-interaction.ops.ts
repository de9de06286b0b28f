// The family's remote interaction: someone reading a post here who has an account elsewhere gives their
// handle; the answer is the URL of their own server's interaction page for the post (the WebFinger
// `http://ostatus.org/schema/1.0/subscribe` template of their handle, with `{uri}` replaced by the
// object's id), where they are signed in and can follow, reply or favourite.
import { z } from "zod";
import { DomainError, NotFound } from "../../kernel/errors.ts";
import { operation } from "../operation.ts";
import { isHttpUrl, parseHandle, type Resolved } from "./port.ts";
import { normalizeHandle } from "../accounts/lookup.ts";
import { resolveRemoteAccount } from "../accounts/accounts.read.ts";
import { accountByName } from "../../db/account-names.ts";

export const COULD_NOT_FIND_USER = "Couldn't find user";

export const remoteInteraction = operation({
  name: "federation.remoteInteraction",
  access: "public",
  input: z.object({ ap_id: z.string().min(1), profile: z.string().min(1) }),
  async run(ctx, input): Promise<{ url: string }> {
    if (!isHttpUrl(input.ap_id)) throw new DomainError("invalid", "ap_id must be a URL", { ap_id: "must be a URL" });
    const handle = parseHandle(input.profile);
    if (!handle || !ctx.federation || !ctx.config.get("instance", "federating")) throw NotFound(COULD_NOT_FIND_USER);
    const template = await ctx.federation.subscribeTemplate(ctx, input.profile);
    if (!template || !template.includes("{uri}")) throw NotFound(COULD_NOT_FIND_USER);
    // percent-encoded: an id with "&" or "#" must not break the other server's query string
    return { url: template.replaceAll("{uri}", encodeURIComponent(input.ap_id.trim())) };
  },
});

/** The family's message when the remote-follow page cannot find what it was given. */
export const ERROR_FETCHING_USER = "Error fetching user";

/**
 * What the remote-follow page (`/ostatus_subscribe?acct=`) was given: a local nickname, a handle or an
 * account or status URL, found here or fetched (as search with `resolve` does). Not found: NotFound.
 */
export const resolveInteractionTarget = operation({
  name: "federation.resolveInteractionTarget",
  input: z.object({ acct: z.string().min(1) }),
  async run(ctx, input): Promise<Resolved> {
    const value = input.acct.trim();
    if (isHttpUrl(value)) {
      const local = await ctx.db.account.findFirst({ where: { OR: [{ apId: value }, { url: value }] } });
      if (local) return { account: local };
      const found = ctx.federation && ctx.config.get("instance", "federating") ? await ctx.federation.resolveObject(ctx, value) : null;
      if (found) return found;
      throw NotFound(ERROR_FETCHING_USER);
    }
    const nickname = normalizeHandle(ctx, value);
    const known = nickname ? await accountByName(ctx.db, { nicknames: [nickname] }) : null;
    const account = known ?? (await resolveRemoteAccount(ctx, value));
    if (!account) throw NotFound(ERROR_FETCHING_USER);
    return { account };
  },
});

/**
 * What the family's `/main/ostatus` form offers to follow or interact with from another server: a local
 * account by nickname, or a public or unlisted status by id. Not found: NotFound.
 */
export const subscribeTarget = operation({
  name: "federation.subscribeTarget",
  input: z.object({ nickname: z.string().optional(), status_id: z.string().optional() }),
  async run(ctx, input): Promise<Resolved> {
    if (input.status_id) {
      const status = await ctx.db.status.findFirst({ where: { id: input.status_id, visibility: { in: ["public", "unlisted"] } } });
      if (!status) throw NotFound("Could not find status");
      return { status };
    }
    const account = input.nickname ? await ctx.db.account.findFirst({ where: { local: true, nickname: input.nickname } }) : null;
    if (!account) throw NotFound("Could not find user");
    return { account };
  },
});
