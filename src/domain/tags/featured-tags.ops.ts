// Featured hashtags: shown on a profile with how often the account used them (the reference API's
// featured tags), and published as the actor's `featuredTags` collection.
import { z } from "zod";
import { newId } from "../../db/ids.ts";
import type { Account, Tag } from "../../generated/prisma/client.ts";
import { getAccount } from "../accounts/lookup.ts";
import { requireAccount } from "../auth/policy.ts";
import type { Ctx } from "../context.ts";
import { NotFound, Unprocessable } from "../../kernel/errors.ts";
import { operation } from "../operation.ts";
import { tagName } from "./followed-tags.ops.ts";
import { upsertTags } from "./upsert-tags.ts";

/** At most this many featured tags per account (the reference server's limit). */
export const FEATURED_TAGS_LIMIT = 10;

export interface FeaturedTagView {
  id: string;
  tag: Tag;
  statusesCount: number;
  lastStatusAt: Date | null;
}

/** The account's featured tags with their use in its public statuses (two queries). */
export async function featuredTagsOf(ctx: Pick<Ctx, "db">, account: Pick<Account, "id">): Promise<FeaturedTagView[]> {
  const rows = await ctx.db.featuredTag.findMany({ where: { accountId: account.id }, include: { tag: true }, orderBy: { id: "asc" } });
  if (rows.length === 0) return [];
  const used = await ctx.db.statusTag.findMany({
    where: { tagId: { in: rows.map((r) => r.tagId) }, status: { accountId: account.id, visibility: { in: ["public", "unlisted"] }, reblogOfId: null } },
    select: { tagId: true, status: { select: { createdAt: true } } },
  });
  return rows.map((r) => {
    const mine = used.filter((u) => u.tagId === r.tagId).map((u) => u.status.createdAt.getTime());
    return { id: r.id, tag: r.tag, statusesCount: mine.length, lastStatusAt: mine.length ? new Date(Math.max(...mine)) : null };
  });
}

export const listFeaturedTags = operation({
  name: "tags.featured",
  access: { scopes: ["read:accounts"] },
  input: z.object({}),
  authorize: requireAccount,
  run: (ctx) => featuredTagsOf(ctx, requireAccount(ctx)),
});

export const accountFeaturedTags = operation({
  name: "tags.accountFeatured",
  access: { scopes: ["read:accounts"], optional: true },
  input: z.object({ id: z.string() }),
  async run(ctx, input) {
    const account = await getAccount(ctx, input.id);
    return account.deactivated ? [] : featuredTagsOf(ctx, account);
  },
});

export const featureTag = operation({
  name: "tags.feature",
  access: { scopes: ["write:accounts"] },
  input: z.object({ name: z.string() }),
  authorize: requireAccount,
  async run(ctx, input) {
    const me = requireAccount(ctx);
    const name = tagName(input.name);
    if (!name) throw Unprocessable("Validation failed: Tag is invalid", { name: "is invalid" });
    if ((await ctx.db.featuredTag.count({ where: { accountId: me.id } })) >= FEATURED_TAGS_LIMIT)
      throw Unprocessable(`Validation failed: You can only feature up to ${FEATURED_TAGS_LIMIT} hashtags`, { name: "too many" });
    const [tag] = await upsertTags(ctx, [name]);
    const id = newId(ctx.clock().getTime());
    // ON CONFLICT DO NOTHING: featuring it twice at once leaves one row, and the loser is told it is taken
    const { count } = await ctx.db.featuredTag.createMany({ data: [{ id, accountId: me.id, tagId: tag!.id, createdAt: ctx.clock() }], skipDuplicates: true });
    if (count === 0) throw Unprocessable("Validation failed: Tag has already been taken", { name: "has already been taken" });
    return (await featuredTagsOf(ctx, me)).find((f) => f.id === id)!;
  },
});

export const unfeatureTag = operation({
  name: "tags.unfeature",
  access: { scopes: ["write:accounts"] },
  input: z.object({ id: z.string() }),
  authorize: requireAccount,
  async run(ctx, input) {
    const me = requireAccount(ctx);
    const { count } = await ctx.db.featuredTag.deleteMany({ where: { id: input.id, accountId: me.id } });
    if (count === 0) throw NotFound("Record not found");
  },
});

/** Suggestions: the hashtags the viewer used most in recent statuses and does not feature yet. */
export const featuredTagSuggestions = operation({
  name: "tags.featuredSuggestions",
  access: { scopes: ["read:accounts"] },
  input: z.object({}),
  authorize: requireAccount,
  async run(ctx) {
    const me = requireAccount(ctx);
    const used = await ctx.db.statusTag.groupBy({
      by: ["tagId"],
      where: { status: { accountId: me.id, reblogOfId: null }, tag: { featuredBy: { none: { accountId: me.id } } } },
      _count: { tagId: true },
      orderBy: { _count: { tagId: "desc" } },
      take: 10,
    });
    const tags = used.length ? await ctx.db.tag.findMany({ where: { id: { in: used.map((u) => u.tagId) } } }) : [];
    return used.map((u) => tags.find((t) => t.id === u.tagId)!).filter(Boolean);
  },
});
