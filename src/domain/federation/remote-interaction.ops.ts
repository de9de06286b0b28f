// The family's remote interaction: someone reading a post here who has an account elsewhere gives their
// handle; the answer is the URL of their own server's interaction page for the post (the WebFinger
// `http://ostatus.org/schema/1.0/subscribe` template of their handle, with `{uri}` replaced by the
// object's id), where they are signed in and can follow, reply or favourite.
import { z } from "zod";
import { DomainError, NotFound } from "../errors.ts";
import { operation } from "../operation.ts";
import { isHttpUrl, parseHandle } from "./port.ts";

export const COULD_NOT_FIND_USER = "Couldn't find user";

export const remoteInteraction = operation({
  name: "federation.remoteInteraction",
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
