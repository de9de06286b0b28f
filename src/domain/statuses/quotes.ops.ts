// Quote posts: which status a new one may quote, and the quotes of a status. The relation is
// `statuses.quote_id`; posting sets it (statuses.ops.ts), inbound federation sets it from a Note's
// `quoteUrl`/`_misskey_quote`/`quoteUri`/`quote` (federation/remote/objects.ts), views render it.
import { z } from "zod";
import type { Status } from "../../generated/prisma/client.ts";
import type { Ctx } from "../context.ts";
import { NotFound, Unprocessable } from "../../kernel/errors.ts";
import { operation } from "../operation.ts";
import { keyset, pageInput, type Page } from "../pagination.ts";
import { canSee, viewerContext, visibleWhere } from "./visibility.ts";

/** Only what anyone may see can be quoted: a quote shows the quoted post to the quote's audience. */
const QUOTABLE = new Set<Status["visibility"]>(["public", "unlisted"]);

/**
 * The status `id` names for a new quote by the viewer: it must exist, be visible to the viewer,
 * be no reblog, and be public or unlisted. 422 otherwise (as the family refuses a quote it cannot make).
 */
export async function quoteTarget(ctx: Ctx, id: string | null | undefined): Promise<Status | null> {
  if (!id) return null;
  const quoted = await ctx.db.status.findUnique({ where: { id } });
  const visible = quoted && !quoted.reblogOfId && canSee(await viewerContext(ctx, [quoted.accountId]), quoted);
  if (!quoted || !visible) throw Unprocessable("Validation failed: Quoted status not found", { quote_id: "not found" });
  if (!QUOTABLE.has(quoted.visibility)) throw Unprocessable("Validation failed: Only public and unlisted statuses can be quoted", { quote_id: "is not quotable" });
  return quoted;
}

export const quotesInput = pageInput.extend({ id: z.string() });

/** The quotes of a status that the viewer may see, newest first, paged by id; 404 when the status itself is not visible. */
export const listQuotes = operation({
  name: "statuses.quotes",
  access: { scopes: ["read:statuses"], optional: true },
  input: quotesInput,
  async run(ctx, input): Promise<Page<Status>> {
    const status = await ctx.db.status.findUnique({ where: { id: input.id } });
    if (!status || !canSee(await viewerContext(ctx, [status.accountId]), status)) throw NotFound("Record not found");
    const page = keyset(input, { defaultLimit: 20, maxLimit: 40 });
    const rows = await ctx.db.status.findMany({
      where: { AND: [visibleWhere(ctx), { quoteId: status.id }, page.cursor ? { id: page.cursor } : {}] },
      orderBy: { id: page.order },
      take: page.take,
    });
    return page.finish(rows, (r) => r.id);
  },
});
