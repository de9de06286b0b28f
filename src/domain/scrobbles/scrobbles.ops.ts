// The family's scrobbles (Listen activities): an account records what it listens to, with a
// visibility like a status's; others read an account's scrobbles as that visibility allows
// (public and unlisted for everyone, private for followers, direct for the account alone).
// federation: a Listen activity goes out here once the federation issue lands.
import { z } from "zod";
import { newId } from "../../db/ids.ts";
import type { Account, Scrobble, Visibility } from "../../generated/prisma/client.ts";
import { getAccount } from "../accounts/lookup.ts";
import { requireAccount } from "../auth/policy.ts";
import { int } from "../inputs.ts";
import { operation } from "../operation.ts";
import { keyset, pageInput, type Page } from "../pagination.ts";

const text = (max: number) => z.string().trim().max(max);

export const createScrobble = operation({
  name: "scrobbles.create",
  access: { scopes: ["write"] },
  input: z.object({
    title: text(1000).min(1),
    artist: text(1000).nullable().optional(),
    album: text(1000).nullable().optional(),
    /** milliseconds */
    length: int().pipe(z.number().min(0)).nullable().optional(),
    /** the family's later name is externalLink; both are accepted */
    externalLink: z.url().nullable().optional(),
    external_link: z.url().nullable().optional(),
    visibility: z.enum(["public", "unlisted", "private", "direct"]).optional(),
  }),
  authorize: requireAccount,
  run: (ctx, input) =>
    ctx.db.scrobble.create({
      data: {
        id: newId(ctx.clock().getTime()),
        accountId: ctx.viewer.account!.id,
        title: input.title,
        artist: input.artist || null,
        album: input.album || null,
        length: input.length ?? null,
        externalLink: input.externalLink || input.external_link || null,
        visibility: input.visibility ?? "public",
      },
    }),
});

export const listScrobbles = operation({
  name: "scrobbles.list",
  access: { scopes: ["read"], optional: true },
  input: pageInput.extend({ id: z.string() }),
  async run(ctx, input): Promise<Page<Scrobble> & { account: Account }> {
    const account = await getAccount(ctx, input.id);
    const viewerId = ctx.viewer.account?.id;
    const page = keyset(input);
    let visibilities: Visibility[] = ["public", "unlisted"];
    if (viewerId === account.id) visibilities = ["public", "unlisted", "private", "direct"];
    else if (viewerId) {
      const [blocked, follows] = await Promise.all([
        ctx.db.userRelationship.count({ where: { type: "block", OR: [{ sourceId: viewerId, targetId: account.id }, { sourceId: account.id, targetId: viewerId }] } }),
        ctx.db.follow.count({ where: { followerId: viewerId, followingId: account.id, state: "accept" } }),
      ]);
      if (blocked) return { account, items: [] };
      if (follows) visibilities = ["public", "unlisted", "private"];
    }
    const rows = await ctx.db.scrobble.findMany({
      where: { accountId: account.id, visibility: { in: visibilities }, ...(page.cursor ? { id: page.cursor } : {}) },
      orderBy: { id: page.order },
      take: page.take,
    });
    return { account, ...page.finish(rows, (r) => r.id) };
  },
});
