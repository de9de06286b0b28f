// The Status entity in the reference API's shape with the family's `<ns>` object, top-level
// `emoji_reactions` and `poll.<family>.anonymous`. Data comes from loadStatusData (one statement for
// any list), the authors from renderAccounts (one more).
import { proxiedUrl } from "../../src/domain/media/proxy-url.ts";
import type { Account, Status } from "../../src/generated/prisma/client.ts";
import type { Ctx } from "../../src/domain/context.ts";
import { htmlToText } from "../../src/domain/statuses/formatter.ts";
import { loadStatusData, type PollData, type StatusData } from "../../src/domain/statuses/status-data.ts";
import { renderAccounts } from "./account.ts";
import { renderEmojis } from "./emoji.ts";
import { renderMedia } from "./media.ts";
import { extensionObjects } from "./extensions.ts";
import { filterResults } from "../../src/domain/filters/filters.read.ts";
import { renderFilterResult } from "./filter.ts";

export type RenderedAccount = Awaited<ReturnType<typeof renderAccounts>>[number];

export async function renderStatuses(ctx: Ctx, list: Status[]) {
  if (list.length === 0) return [];
  const data = await loadStatusData(ctx, list);
  const rendered = await renderAccounts(ctx, [...data.accounts.values()], { counts: data.accountCounts });
  return renderLoadedStatuses(ctx, list, data, new Map(rendered.map((a) => [a.id, a])));
}

/** Statuses whose data is loaded and whose authors are rendered: a caller that renders other accounts too renders them all in one batch. */
export function renderLoadedStatuses(ctx: Ctx, list: Status[], data: StatusData, accounts: Map<string, RenderedAccount>) {
  return list.map((s) => renderOne(ctx, s, data, accounts));
}

export async function renderStatus(ctx: Ctx, status: Status) {
  return (await renderStatuses(ctx, [status]))[0];
}

function mention(a: Account) {
  return { id: a.id, username: a.nickname.split("@")[0], acct: a.nickname, url: a.apId };
}

export function renderPoll(ctx: Ctx, p: PollData) {
  const expired = !!p.poll.closedAt || (!!p.poll.expiresAt && p.poll.expiresAt <= ctx.clock());
  const hide = p.poll.hideTotals && !expired;
  return {
    id: p.poll.id,
    expires_at: p.poll.expiresAt?.toISOString() ?? null,
    expired,
    multiple: p.poll.multiple,
    votes_count: hide ? null : p.votes.reduce((a, b) => a + b, 0),
    voters_count: hide ? null : p.votersCount,
    // the author cannot vote and counts as having voted, as in the reference API
    voted: p.authorId === ctx.viewer.account?.id || (p.ownVotes?.length ?? 0) > 0,
    own_votes: p.ownVotes ?? [],
    options: p.poll.options.map((title, i) => ({ title, votes_count: hide ? null : p.votes[i] })),
    emojis: [],
    // the author promised nothing about publishing votes
    ...extensionObjects(ctx.settings, null, { anonymous: null }),
  };
}

/**
 * The quote in both shapes: the reference server's `quote` ({state, quoted_status}; a quoted status's
 * own quote is shallow, {state, quoted_status_id}, as the reference renders it) and the family's
 * `<ns>.quote…` fields. The quoted status was loaded with the page (loadStatusData); one that the
 * viewer may not see is "unauthorized" there and `quote_visible: false` here.
 */
function renderQuote(ctx: Ctx, s: Status, data: StatusData, accounts: Map<string, RenderedAccount>, nested: boolean) {
  const quoted = s.quoteId ? data.statuses.get(s.quoteId) : undefined;
  if (!s.quoteId) return { reference: null, family: { quote: null, quote_id: null, quote_url: null, quote_visible: false } };
  // parentVisible knows every quoted status of the page, a quote's own quote too (which is not loaded whole)
  const visible = data.parentVisible.get(s.quoteId) ?? false;
  const rendered = visible && quoted && !nested ? renderOne(ctx, quoted, data, accounts, true) : null;
  const state = visible ? "accepted" : "unauthorized";
  return {
    reference: nested ? { state, quoted_status_id: visible ? s.quoteId : null } : { state, quoted_status: rendered },
    family: { quote: rendered, quote_id: s.quoteId, quote_url: quoted ? (quoted.url ?? quoted.uri) : null, quote_visible: visible },
  };
}

/** Who may quote: public and unlisted statuses may be quoted by anyone, the others by nobody (the reference's `quote_approval`). */
function quoteApproval(ctx: Ctx, s: Status) {
  const open = s.visibility === "public" || s.visibility === "unlisted";
  return { automatic: open ? ["public"] : [], manual: [], current_user: open && ctx.viewer.account ? "automatic" : "denied" };
}

function renderOne(ctx: Ctx, s: Status, data: StatusData, accounts: Map<string, RenderedAccount>, nested = false): any {
  const ns = ctx.settings.namespace;
  const quote = renderQuote(ctx, s, data, accounts, nested);
  const inner = s.reblogOfId ? data.statuses.get(s.reblogOfId) : undefined;
  const counts = data.counts.get(s.id)!;
  // custom emoji groups carry their image as `url`, as the later variant's do
  const reactions = (data.reactions.get(s.id) ?? []).map((g) => ({ name: g.name, count: g.count, me: g.me, account_ids: g.accountIds, ...(g.url ? { url: proxiedUrl(ctx, g.url) } : {}) }));
  const app = s.applicationId !== null ? data.applications.get(s.applicationId) : undefined;
  const parentAccount = s.inReplyToId ? data.parentAccounts.get(s.inReplyToId) : undefined;
  const poll = data.polls.get(s.id);
  const text = htmlToText(s.content);
  return {
    id: s.id,
    uri: s.uri,
    url: s.url ?? s.uri,
    account: accounts.get(s.accountId),
    in_reply_to_id: s.inReplyToId,
    in_reply_to_account_id: s.inReplyToAccountId,
    reblog: inner ? renderOne(ctx, inner, data, accounts, nested) : null,
    content: s.content,
    text: null,
    created_at: s.createdAt.toISOString(),
    edited_at: s.editedAt?.toISOString() ?? null,
    emojis: renderEmojis(s.emojis, ctx),
    replies_count: counts.replies,
    reblogs_count: counts.reblogs,
    favourites_count: counts.favourites,
    // a reblog wrapper says whether the viewer reblogged what it carries (as the family's view does)
    reblogged: data.reblogged.has(s.id) || (!!inner && data.reblogged.has(inner.id)),
    favourited: data.favourited.has(s.id),
    bookmarked: data.bookmarked.has(s.id),
    muted: data.mutedContexts.has(s.context),
    pinned: !!s.pinnedAt,
    sensitive: s.sensitive,
    spoiler_text: s.spoilerText,
    visibility: s.visibility,
    media_attachments: (data.media.get(s.id) ?? []).map((m) => renderMedia(ctx, m)),
    mentions: (data.mentions.get(s.id) ?? []).map(mention),
    tags: (data.tags.get(s.id) ?? []).map((name) => ({ name, url: `${ctx.settings.baseUrl}/tag/${encodeURIComponent(name)}` })),
    card: null,
    poll: poll ? renderPoll(ctx, poll) : null,
    application: app ? { name: app.name, website: app.website } : null,
    language: s.language,
    emoji_reactions: reactions,
    quote: quote.reference,
    quote_approval: quoteApproval(ctx, s),
    // the viewer's filters this status matches (whatever the context: clients apply the context), as the reference renders them for signed-in viewers
    ...(data.filters ? { filtered: filteredFor(ctx, s, inner, data.filters) } : {}),
    [ns]: {
      local: s.local,
      conversation_id: s.context,
      direct_conversation_id: s.directConversationId,
      in_reply_to_account_acct: parentAccount?.nickname ?? null,
      content: { "text/plain": text },
      spoiler_text: { "text/plain": s.spoilerText },
      expires_at: s.expiresAt?.toISOString() ?? null,
      thread_muted: data.mutedContexts.has(s.context),
      emoji_reactions: reactions,
      parent_visible: s.inReplyToId ? (data.parentVisible.get(s.inReplyToId) ?? false) : false,
      pinned_at: s.pinnedAt?.toISOString() ?? null,
      bookmark_folder: data.bookmarkFolders.get(s.id) ?? null,
      ...quote.family,
    },
  };
}

/** The viewer's FilterResults for a status: none on its own statuses; a reblog is matched by its original. */
function filteredFor(ctx: Ctx, s: Status, inner: Status | undefined, filters: NonNullable<StatusData["filters"]>) {
  if (filters.length === 0 || s.accountId === ctx.viewer.account?.id) return [];
  const shown = inner ?? s;
  return filterResults(filters, shown, inner ? [s.id, inner.id] : [s.id]).map(renderFilterResult);
}
