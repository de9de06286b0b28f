// Emoji reactions on statuses: add, remove, list. A reaction is one unicode RGI emoji (or a
// regional indicator), stored fully qualified so "❤" and "❤️" are one reaction, as the family does.
// Custom emoji: one of the instance's, named `:blobcat:` or `blobcat` (the later variant strips the
// colons), stored as the shortcode with its image URL, as the family does; unknown shortcodes are refused.
import emojiRegex from "emoji-regex";
import { z } from "zod";
import { newId } from "../../db/ids.ts";
import type { Account, Status } from "../../generated/prisma/client.ts";
import { requireAccount } from "../auth/policy.ts";
import type { Ctx } from "../context.ts";
import { Invalid } from "../../kernel/errors.ts";
import { emojiRegistry, emojiUrl } from "../emoji/registry.ts";
import { bool } from "../inputs.ts";
import { notify } from "../notifications/notify.ts";
import { federate, federateReaction, reactionUndoIntent } from "../federation/outbox.ts";
import { operation } from "../operation.ts";
import { activeRelation } from "../relationships/relationships.read.ts";
import { getVisibleStatus } from "../statuses/statuses.read.ts";
import { statusesChanged } from "../statuses/status-cache.ts";

const VS16 = "\uFE0F";
/** the text (U+FE0E) and emoji (U+FE0F) presentation selectors: a spelling, not a different reaction */
const SELECTORS = /[\uFE0E\uFE0F]/g;
const REGIONAL_INDICATOR = /^[\u{1F1E6}-\u{1F1FF}]{1,2}$/u;
// the `v` flag (properties of strings) is newer than the compile target; Node 20 has it
const RGI = new RegExp("^\\p{RGI_Emoji}$", "v");
const TEXT_DEFAULT = /^(?=\p{Emoji})\P{Emoji_Presentation}$/u;
const MODIFIER = /^\p{Emoji_Modifier}$/u;

/**
 * The fully-qualified form (UTS #51): a text-default emoji character gets U+FE0F unless a skin-tone
 * modifier follows it. Applied to the sequence with its selectors removed (`bare`), so every spelling
 * of one emoji ends up the same.
 */
function fullyQualified(bare: string): string {
  const chars = [...bare];
  return chars.map((c, i) => (TEXT_DEFAULT.test(c) && !MODIFIER.test(chars[i + 1] ?? "") ? c + VS16 : c)).join("");
}

/** One emoji and nothing else, according to emoji-regex (which also knows unqualified spellings). */
function isSingleEmoji(s: string): boolean {
  const matches = s.match(emojiRegex());
  return matches?.length === 1 && matches[0] === s;
}

/** The stored name of a reaction, or a 400 explaining why `raw` cannot be one. */
export function normalizeEmoji(raw: string): string {
  if (/^:[A-Za-z0-9_-]+(@[^:]+)?:$/.test(raw))
    throw Invalid(`No custom emoji ${raw} on this instance: react with one of its custom emoji or a unicode emoji`);
  if (REGIONAL_INDICATOR.test(raw)) return raw;
  const bare = raw.replace(SELECTORS, "");
  if (!isSingleEmoji(bare) && !isSingleEmoji(raw)) throw Invalid(`${JSON.stringify(raw)} is not an emoji: a reaction is a single unicode emoji or a regional indicator`);
  const qualified = fullyQualified(bare);
  if (RGI.test(qualified)) return qualified;
  // an emoji newer than the runtime's Unicode tables: keep the spelling given
  return raw;
}

/** A reaction as stored: the instance's custom emoji (shortcode and image) or a normalized unicode emoji. */
export function reactionEmoji(ctx: Ctx, raw: string): { emoji: string; emojiUrl: string | null } {
  const code = raw.match(/^:?([A-Za-z0-9_-]+):?$/)?.[1];
  const custom = code !== undefined ? emojiRegistry(ctx).get(code) : undefined;
  if (custom) return { emoji: custom.shortcode, emojiUrl: emojiUrl(ctx, custom) };
  return { emoji: normalizeEmoji(raw), emojiUrl: null };
}

/** The stored name `raw` would have; also for a custom emoji since removed from the packs (its reactions stay). */
function storedName(ctx: Ctx, raw: string): string {
  try {
    return reactionEmoji(ctx, raw).emoji;
  } catch {
    return raw.match(/^:([A-Za-z0-9_-]+):$/)?.[1] ?? raw; // nothing is stored under an invalid name
  }
}

/** The status reacted to: a reblog's reactions go to the reblogged status, as the family's do. */
async function reactionTarget(ctx: Ctx, id: string): Promise<{ shown: Status; target: Status }> {
  const shown = await getVisibleStatus(ctx, id);
  const target = shown.reblogOfId ? await ctx.db.status.findUniqueOrThrow({ where: { id: shown.reblogOfId } }) : shown;
  return { shown, target };
}

/**
 * `account` reacts to `target` with a stored reaction name (once per emoji) and the author is notified;
 * `apId` is the id of a received EmojiReact. Answers whether it was new.
 */
export async function reactAs(ctx: Ctx, account: Account, target: Status, reaction: { emoji: string; emojiUrl: string | null }, apId?: string): Promise<boolean> {
  const created = await ctx.db.reaction.createMany({
    data: [{ id: newId(), accountId: account.id, statusId: target.id, emoji: reaction.emoji, emojiUrl: reaction.emojiUrl, apId: apId ?? null }],
    skipDuplicates: true,
  });
  if (created.count > 0) statusesChanged(ctx, [target.id]); // emoji_reactions
  if (created.count > 0) await notify(ctx, [{ accountId: target.accountId, type: "emoji_reaction", fromAccountId: account.id, statusId: target.id, emoji: reaction.emoji }]);
  return created.count > 0;
}

/** Removes `account`'s reaction `emoji` (a stored name) to `target` and its notification; answers whether there was one. */
export async function unreactAs(ctx: Ctx, account: Account, target: Pick<Status, "id">, emoji: string): Promise<boolean> {
  const removed = await ctx.db.reaction.deleteMany({ where: { accountId: account.id, statusId: target.id, emoji } });
  if (removed.count > 0) statusesChanged(ctx, [target.id]); // emoji_reactions
  if (removed.count > 0) await ctx.db.notification.deleteMany({ where: { type: "emoji_reaction", fromAccountId: account.id, statusId: target.id, emoji } });
  return removed.count > 0;
}

const reactionInput = z.object({ id: z.string(), emoji: z.string().min(1) });

/** Adds the viewer's reaction (again is a no-op) and notifies the author; answers the status to render. */
export const addReaction = operation({
  name: "reactions.add",
  access: { scopes: ["write:statuses"] },
  input: reactionInput,
  authorize: requireAccount,
  async run(ctx, input): Promise<Status> {
    const me = requireAccount(ctx);
    const { emoji, emojiUrl } = reactionEmoji(ctx, input.emoji);
    const { shown, target } = await reactionTarget(ctx, input.id);
    const added = await reactAs(ctx, me, target, { emoji, emojiUrl });
    // federation: an EmojiReact goes out here (to the author of a remote status)
    if (added && !target.local) await federateReaction(ctx, me, target, emoji);
    return shown;
  },
});

/** Removes the viewer's reaction and its notification; 400 when there was none (the family's answer). */
export const removeReaction = operation({
  name: "reactions.remove",
  access: { scopes: ["write:statuses"] },
  input: reactionInput,
  authorize: requireAccount,
  async run(ctx, input): Promise<Status> {
    const me = requireAccount(ctx);
    const { shown, target } = await reactionTarget(ctx, input.id);
    // a name that does not normalize may still be stored (by an earlier rule, or from elsewhere)
    const emoji = storedName(ctx, input.emoji);
    const undo = target.local ? null : await reactionUndoIntent(ctx, me, target, emoji);
    if (!(await unreactAs(ctx, me, target, emoji))) throw Invalid("Could not remove reaction emoji");
    // federation: an Undo of the EmojiReact goes out here
    if (undo) await federate(ctx, undo);
    return shown;
  },
});

export interface ReactionGroupWithAccounts {
  name: string;
  count: number;
  me: boolean;
  accounts: Account[];
  /** the image of a custom emoji */
  url?: string;
}

/**
 * The reactions of a visible status grouped by emoji, groups in the order of their first reaction and
 * accounts in the order they reacted. Like the family, reactions of deactivated accounts, of accounts
 * the viewer blocks or whose domain the viewer blocks, and (unless `with_muted`) of muted accounts
 * are left out, and a group left empty disappears. Four queries at most, whatever the number of reactions.
 */
export const listReactions = operation({
  name: "reactions.list",
  access: { scopes: ["read:statuses"], optional: true },
  input: z.object({ id: z.string(), emoji: z.string().optional(), with_muted: bool().optional() }),
  async run(ctx, input): Promise<ReactionGroupWithAccounts[]> {
    const { target } = await reactionTarget(ctx, input.id);
    // an invalid name matches nothing: an empty list, not an error
    const emoji = input.emoji !== undefined ? storedName(ctx, input.emoji) : undefined;
    const rows = await ctx.db.reaction.findMany({
      where: { statusId: target.id, ...(emoji !== undefined ? { emoji } : {}), account: { deactivated: false } },
      include: { account: true },
      orderBy: { id: "asc" },
    });
    const viewerId = ctx.viewer.account?.id;
    let hidden = new Set<string>();
    if (viewerId && rows.length) {
      const ids = [...new Set(rows.map((r) => r.accountId))];
      const domains = [...new Set(rows.map((r) => r.account.domain).filter((d): d is string => !!d))];
      const [relations, domainBlocks] = await Promise.all([
        ctx.db.userRelationship.findMany({
          where: { AND: [activeRelation(ctx.clock()), { sourceId: viewerId, targetId: { in: ids }, type: { in: input.with_muted ? ["block"] : ["block", "mute"] } }] },
          select: { targetId: true },
        }),
        domains.length ? ctx.db.domainBlock.findMany({ where: { accountId: viewerId, domain: { in: domains } }, select: { domain: true } }) : Promise.resolve([]),
      ]);
      const blockedDomains = new Set(domainBlocks.map((d) => d.domain));
      hidden = new Set([...relations.map((r) => r.targetId), ...rows.filter((r) => r.account.domain && blockedDomains.has(r.account.domain)).map((r) => r.accountId)]);
    }
    const groups = new Map<string, ReactionGroupWithAccounts>();
    for (const r of rows) {
      if (hidden.has(r.accountId)) continue;
      let g = groups.get(r.emoji);
      if (!g) groups.set(r.emoji, (g = { name: r.emoji, count: 0, me: false, accounts: [], ...(r.emojiUrl ? { url: r.emojiUrl } : {}) }));
      g.count++;
      g.accounts.push(r.account);
      if (r.accountId === viewerId) g.me = true;
    }
    return [...groups.values()];
  },
});
