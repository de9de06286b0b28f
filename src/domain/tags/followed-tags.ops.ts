// Hashtags as the reference API shows them (`/api/v1/tags/:name`) and following them: a followed tag's
// public statuses join the follower's home timeline and `user` stream (timelines/rules.ts).
import { z } from "zod";
import { newId } from "../../db/ids.ts";
import type { Tag } from "../../generated/prisma/client.ts";
import { requireAccount } from "../auth/policy.ts";
import type { Ctx } from "../context.ts";
import { NotFound } from "../../kernel/errors.ts";
import { operation } from "../operation.ts";
import { keyset, pageInput, type Page } from "../pagination.ts";
import { upsertTags } from "./upsert-tags.ts";

/** A hashtag name as stored: without `#`, lower case; letters, digits and `_` with at least one letter. */
export function tagName(raw: string): string | null {
  const name = raw.trim().replace(/^#/, "").toLowerCase();
  return /^[\p{L}\p{N}_]*\p{L}[\p{L}\p{N}_]*$/u.test(name) && name.length <= 256 ? name : null;
}

export interface TagView {
  tag: Tag;
  /** whether the viewer follows it (null when anonymous) */
  following: boolean | null;
}

const nameInput = z.object({ name: z.string() });

async function view(ctx: Ctx, tag: Tag): Promise<TagView> {
  const me = ctx.viewer.account;
  if (!me) return { tag, following: null };
  const followed = await ctx.db.followedTag.findUnique({ where: { accountId_tagId: { accountId: me.id, tagId: tag.id } }, select: { id: true } });
  return { tag, following: !!followed };
}

/** A known hashtag (one used in a status, or followed); an unknown or invalid name is not found. */
export const showTag = operation({
  name: "tags.show",
  access: { scopes: ["read"], optional: true },
  input: nameInput,
  async run(ctx, input) {
    const name = tagName(input.name);
    const tag = name ? await ctx.db.tag.findUnique({ where: { name } }) : null;
    if (!tag) throw NotFound("Record not found");
    return view(ctx, tag);
  },
});

/** Follows a hashtag (made known if it was not); following it twice is one follow. */
export const followTag = operation({
  name: "tags.follow",
  access: { scopes: ["write:follows"] },
  input: nameInput,
  authorize: requireAccount,
  async run(ctx, input) {
    const me = requireAccount(ctx);
    const name = tagName(input.name);
    if (!name) throw NotFound("Record not found");
    const [tag] = await upsertTags(ctx, [name]);
    // skipDuplicates (ON CONFLICT DO NOTHING): the same follow sent twice at once is one follow, not a 500
    await ctx.db.followedTag.createMany({ data: [{ id: newId(ctx.clock().getTime()), accountId: me.id, tagId: tag!.id, createdAt: ctx.clock() }], skipDuplicates: true });
    return { tag: tag!, following: true } satisfies TagView;
  },
});

export const unfollowTag = operation({
  name: "tags.unfollow",
  access: { scopes: ["write:follows"] },
  input: nameInput,
  authorize: requireAccount,
  async run(ctx, input) {
    const me = requireAccount(ctx);
    const name = tagName(input.name);
    const tag = name ? await ctx.db.tag.findUnique({ where: { name } }) : null;
    if (!tag) throw NotFound("Record not found");
    await ctx.db.followedTag.deleteMany({ where: { accountId: me.id, tagId: tag.id } });
    return { tag, following: false } satisfies TagView;
  },
});

/** The viewer's followed hashtags, most recently followed first. */
export const listFollowedTags = operation({
  name: "tags.followed",
  access: { scopes: ["read:follows"] },
  input: pageInput,
  authorize: requireAccount,
  async run(ctx, input): Promise<Page<TagView>> {
    const me = requireAccount(ctx);
    const page = keyset(input, { defaultLimit: 100, maxLimit: 200 });
    const rows = await ctx.db.followedTag.findMany({ where: { accountId: me.id, ...(page.cursor ? { id: page.cursor } : {}) }, include: { tag: true }, orderBy: { id: page.order }, take: page.take });
    const result = page.finish(rows, (r) => r.id);
    return { ...result, items: result.items.map((r) => ({ tag: r.tag, following: true })) };
  },
});
