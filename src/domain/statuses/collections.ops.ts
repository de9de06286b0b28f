// Collections of statuses and accounts the viewer reads: their bookmarks and favourites, an
// account's favourites (the family's endpoint, hidden by `hide_favorites`), and the staff's
// suggested accounts.
import { z } from "zod";
import type { Account, Status } from "../../generated/prisma/client.ts";
import { getAccount } from "../accounts/lookup.ts";
import { requireAccount } from "../auth/policy.ts";
import type { Ctx } from "../context.ts";
import { Forbidden } from "../../kernel/errors.ts";
import { int } from "../inputs.ts";
import { operation } from "../operation.ts";
import { keyset, pageInput, type Page } from "../pagination.ts";
import { visibleWhere } from "./visibility.ts";
import { ownFolder } from "../bookmarks/folders.ops.ts";

/** The family's message when an account's favourites are hidden. */
export const FAVOURITES_HIDDEN = "Can't get favorites";

async function pageRows(ctx: Ctx, table: "bookmark" | "favourite", accountId: string, input: z.output<typeof pageInput>, folderId?: string): Promise<Page<Status>> {
  const page = keyset(input, { defaultLimit: 20, maxLimit: 40 });
  const args = {
    where: { accountId, status: visibleWhere(ctx), ...(page.cursor ? { id: page.cursor } : {}) },
    include: { status: true },
    orderBy: { id: page.order },
    take: page.take,
  };
  const rows: { id: string; status: Status }[] =
    table === "bookmark" ? await ctx.db.bookmark.findMany({ ...args, where: { ...args.where, ...(folderId ? { folderId } : {}) } }) : await ctx.db.favourite.findMany(args);
  const result = page.finish(rows, (r) => r.id);
  return { ...result, items: result.items.map((r) => r.status) };
}

/** The viewer's bookmarks, newest bookmark first, paged by the bookmark's id; `folder_id` keeps one of the viewer's folders. */
export const listBookmarks = operation({
  name: "statuses.bookmarks",
  access: { scopes: ["read:bookmarks"] },
  input: pageInput.extend({ folder_id: z.string().optional() }),
  authorize: requireAccount,
  async run(ctx, input) {
    const folderId = input.folder_id ? (await ownFolder(ctx, input.folder_id)).id : undefined;
    return pageRows(ctx, "bookmark", requireAccount(ctx).id, input, folderId);
  },
});

/** The viewer's favourites, newest favourite first, paged by the favourite's id. */
export const listFavourites = operation({
  name: "statuses.favourites",
  access: { scopes: ["read:favourites"] },
  input: pageInput,
  authorize: requireAccount,
  run: (ctx, input) => pageRows(ctx, "favourite", requireAccount(ctx).id, input),
});

export const accountFavouritesInput = pageInput.extend({ id: z.string() });

/**
 * An account's favourites that the viewer can see. Hidden (403) when the account has
 * `hide_favorites` (the default) and the viewer is not that account.
 */
export const accountFavourites = operation({
  name: "accounts.favourites",
  access: { scopes: ["read:favourites"], optional: true },
  input: accountFavouritesInput,
  async run(ctx, input): Promise<Page<Status>> {
    const account = await getAccount(ctx, input.id);
    if (account.hideFavorites && ctx.viewer.account?.id !== account.id) throw Forbidden(FAVOURITES_HIDDEN);
    return pageRows(ctx, "favourite", account.id, input);
  },
});

export const suggestionsInput = z.object({ limit: int().optional() });

/** Accounts the staff suggests, without the viewer and accounts the viewer follows or asked to follow. */
export const listSuggestions = operation({
  name: "accounts.suggestions",
  access: { scopes: ["read"], optional: true },
  input: suggestionsInput,
  async run(ctx, input): Promise<Account[]> {
    const viewerId = ctx.viewer.account?.id;
    const take = Math.min(Math.max(input.limit ?? 40, 1), 80);
    return ctx.db.account.findMany({
      where: {
        isSuggested: true,
        deactivated: false,
        ...(viewerId
          ? {
              id: { not: viewerId },
              followers: { none: { followerId: viewerId } },
              relationsOut: { none: { targetId: viewerId, type: "block" } },
              relationsIn: { none: { sourceId: viewerId, type: "block" } },
              dismissedAsSuggestion: { none: { accountId: viewerId } },
            }
          : {}),
      },
      orderBy: { id: "desc" },
      take,
    });
  },
});

/** Dismisses a suggested account for the viewer (the family's `suggestion_dismiss`): suggestions leave it out from then on. */
export const dismissSuggestion = operation({
  name: "accounts.dismissSuggestion",
  access: { scopes: ["write"] },
  input: z.object({ account_id: z.string() }),
  async run(ctx, input): Promise<void> {
    const viewer = requireAccount(ctx);
    const target = await getAccount(ctx, input.account_id);
    await ctx.db.suggestionDismissal.upsert({
      where: { accountId_targetId: { accountId: viewer.id, targetId: target.id } },
      create: { accountId: viewer.id, targetId: target.id },
      update: {},
    });
  },
});
