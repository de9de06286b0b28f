// Everything needed to render a list of statuses (reblogged originals included) in ONE statement
// whatever the list's length: the one loader the REST view and GraphQL share. Per status it returns
// the counts and the viewer's flags as correlated subqueries and the rows that hang off it (media,
// poll, mentions, tags, reactions, application) as JSON, plus the parents and every account involved.
// What every viewer sees the same of a status comes from the status cache (status-cache.ts) when it has
// it: the statement then selects only the viewer's part for that status (same text, one more array).
// The account rows likewise come from the account cache (accounts/account-cache.ts) when it has them,
// and the authors' follower, following and status counts from the count cache (accounts/count-cache.ts): the
// statement reads and counts only the others (two more arrays of ids to skip).
// A timeline's page, or a notification page, is read by the same statement (loadPageWithStatusData: the page
// query as its first part), so that a page and its rendering cost one round trip; rendering it then finds the
// data loaded. The page's statuses come as ids: each row is its status's shared part, read or cached.
import { Prisma, type Account, type MediaAttachment, type OAuthApp, type Poll, type Status } from "../../generated/prisma/client.ts";
import { decodeModel, modelJson, modelJsonById } from "../../db/model-rows.ts";
import { rows } from "../../db/sql.ts";
import type { Ctx } from "../context.ts";
import { decodeFilters, filtersJson, type FilterRules } from "../filters/filters.read.ts";
import { accountCache } from "../accounts/account-cache.ts";
import { accountCountsSql, type AccountCounts, type CountsRow } from "../accounts/account-counts.ts";
import { countCache } from "../accounts/count-cache.ts";
import { viewerFlagSql } from "./viewer-flags.ts";
import { canSee, type ViewerContext } from "./visibility.ts";
import { statusCache, type SharedStatusData } from "./status-cache.ts";
import { lastPage, rememberPage } from "../page-hints.ts";

export interface ReactionGroup {
  name: string;
  count: number;
  me: boolean;
  accountIds: string[];
  /** the image of a custom emoji */
  url?: string;
}

export interface PollData {
  poll: Poll;
  /** the status's author: counts as having voted */
  authorId: string;
  /** votes per option */
  votes: number[];
  votersCount: number;
  /** the viewer's choices; null when anonymous */
  ownVotes: number[] | null;
}

export interface StatusData {
  statuses: Map<string, Status>;
  /** the authors of the statuses */
  accounts: Map<string, Account>;
  /** the authors' follower, following and status counts (the count cache's, or read with them: rendering the authors needs no statement of its own) */
  accountCounts: Map<string, AccountCounts>;
  media: Map<string, MediaAttachment[]>;
  polls: Map<string, PollData>;
  mentions: Map<string, Account[]>;
  tags: Map<string, string[]>;
  counts: Map<string, { favourites: number; reblogs: number; replies: number }>;
  favourited: Set<string>;
  reblogged: Set<string>;
  bookmarked: Set<string>;
  /** status id → the viewer's bookmark folder holding it */
  bookmarkFolders: Map<string, string>;
  mutedContexts: Set<string>;
  reactions: Map<string, ReactionGroup[]>;
  applications: Map<number, OAuthApp>;
  /** parent (or quoted status) id → visible to the viewer */
  parentVisible: Map<string, boolean>;
  parentAccounts: Map<string, Account>;
  /** the viewer's unexpired filters, for the statuses' `filtered`; null when anonymous */
  filters: FilterRules[] | null;
}

type Json = Record<string, any>;

/** What the statement returns per status; `shared` is null for a status the cache holds. */
interface StatusRow {
  id: string;
  shared: {
    /** the status itself (the caller's own row is used for the statuses it passed) */
    row: Json;
    favourites: number;
    reblogs: number;
    replies: number;
    mentions: string[] | null;
    tags: string[] | null;
    media: Json[] | null;
    poll: { row: Json; votes: [number, number][] | null; voters: number } | null;
    reactions: { emoji: string; url: string | null; accountId: string }[] | null;
  } | null;
  /** the viewer's flags: null when anonymous */
  favourited: boolean | null;
  reblogged: boolean | null;
  bookmarked: boolean | null;
  bookmarkFolder: string | null;
  /** the viewer's choices in the status's poll (null: no poll, no vote or anonymous) */
  own: number[] | null;
}

/** What it returns per parent and per quoted status: canSee's inputs. */
interface ParentRow {
  id: string;
  accountId: string;
  visibility: Status["visibility"];
  recipientIds: string[];
  following: boolean | null;
  blocked: boolean | null;
}

function emptyData(): StatusData {
  return {
    statuses: new Map(),
    accounts: new Map(),
    accountCounts: new Map(),
    media: new Map(),
    polls: new Map(),
    mentions: new Map(),
    tags: new Map(),
    counts: new Map(),
    favourited: new Set(),
    reblogged: new Set(),
    bookmarked: new Set(),
    bookmarkFolders: new Map(),
    mutedContexts: new Set(),
    reactions: new Map(),
    applications: new Map(),
    parentVisible: new Map(),
    parentAccounts: new Map(),
    filters: null,
  };
}

/**
 * `list` are the statuses at hand (a preview's is not stored), `inner` the ids of the reblogged
 * originals to load with them, `cached` the ids whose shared part the cache has (not selected again),
 * `cachedAccounts` and `cachedCounts` the accounts whose row and whose counts the caches have.
 */
function statement(ctx: Ctx, source: Source, cached: string[], cachedAccounts: string[], alsoCounted: readonly string[], cachedCounts: string[]): Prisma.Sql {
  const db = ctx.db;
  const list = "page" in source ? [] : source.list;
  const inner = "page" in source ? [] : source.inner;
  const me = ctx.viewer.account?.id;
  // what concerns the viewer is null for an anonymous one
  const viewer = (condition: Prisma.Sql) => (me ? condition : Prisma.sql`NULL`);
  const reader = Prisma.sql`${me ?? null}`;
  const now = Prisma.sql`(${ctx.clock().toISOString()}::timestamptz AT TIME ZONE 'UTC')`;
  const all = [...list.map((s) => s.id), ...inner];
  // what the rows at hand name, as they are (a preview is not stored); the originals' come from the database
  // every list is ONE array parameter, so that the statement's text is the same whatever the page holds:
  // PostgreSQL then plans it once per connection (src/db/statement-names.ts), not once per request
  const andThese = (values: (string | number | null)[], type: "text" | "int") => {
    // a page's rows are all stored: nothing to add (and an empty array parameter would make PostgreSQL's generic
    // plan expect ten rows more at each of these, and keep planning the statement for every request instead)
    if ("page" in source) return Prisma.empty;
    const present = [...new Set(values.filter((v) => v !== null))];
    return Prisma.sql`UNION SELECT unnest(${present}::${Prisma.raw(type)}[])`;
  };
  // a page statement's rows come first (`_page`), and the statuses loaded are those of the page and their originals
  const s0 =
    "page" in source
      ? Prisma.sql`${source.page.with ? Prisma.sql`${source.page.with},` : Prisma.empty} _page AS (${source.page.rows}),
      s0 AS (SELECT * FROM statuses WHERE id = ANY(ARRAY(SELECT id FROM _page UNION SELECT reblog_of_id FROM _page WHERE reblog_of_id IS NOT NULL)))`
      : Prisma.sql`s0 AS (SELECT * FROM statuses WHERE id = ANY(${all}::text[]))`;
  // ARRAY(…): the ids become one value for an index scan of the primary key, as the rows-at-hand form's parameter
  const notInS0 = "page" in source ? Prisma.sql`id <> ALL(ARRAY(SELECT id FROM s0))` : Prisma.sql`id <> ALL(${all}::text[])`;
  // a page's rows are its ids: each status's row comes with its shared part (below), or from the cache with the rest
  // of that part (not selected again: 20 rows of JSON less to build, send and decode per page)
  const pageColumns =
    "page" in source
      ? Prisma.sql`(SELECT json_agg(_p.id ORDER BY _p.id ${source.page.direction}) FROM _page _p) AS page_ids, ${Prisma.join([...source.page.columns, Prisma.empty], ", ")}`
      : Prisma.empty;
  // the accounts whose counts come with the authors': the page's (a notification's account), or those at hand
  const alsoCountedSql =
    "page" in source
      ? source.page.alsoCounted ? Prisma.sql`UNION ${source.page.alsoCounted}` : Prisma.empty
      : andThese([...list.map((s) => s.accountId), ...alsoCounted], "text");
  // mentions and status_tags have no order column: their physical order is the order they were
  // written in (the rows are never updated), i.e. the order the status named them
  return Prisma.sql`
    WITH ${s0},
      -- the statuses quoted by those (one level: a quote's own quote is rendered shallow)
      s AS (SELECT * FROM s0 UNION ALL SELECT * FROM statuses WHERE ${notInS0}
        AND id IN (SELECT quote_id FROM s0 ${andThese(list.map((s) => s.quoteId), "text")})),
      p AS (SELECT * FROM statuses WHERE id IN (SELECT in_reply_to_id FROM s UNION SELECT quote_id FROM s
        ${andThese([...list.map((s) => s.inReplyToId), ...list.map((s) => s.quoteId)], "text")}))
    SELECT ${pageColumns}
      (SELECT json_agg(json_build_object(
        'id', s.id,
        -- what every viewer sees the same, for the statuses the cache lacks (CASE: not evaluated for the others)
        'shared', CASE WHEN s.id <> ALL(${cached}::text[]) THEN json_build_object(
        'row', ${modelJson(db, "Status", "s")},
        'favourites', (SELECT count(*)::int FROM favourites f WHERE f.status_id = s.id),
        'reblogs', (SELECT count(*)::int FROM statuses r WHERE r.reblog_of_id = s.id),
        'replies', (SELECT count(*)::int FROM statuses r WHERE r.in_reply_to_id = s.id),
        'mentions', (SELECT json_agg(m.account_id ORDER BY m.ctid) FROM mentions m WHERE m.status_id = s.id),
        'tags', (SELECT json_agg(t.name ORDER BY st.ctid) FROM status_tags st JOIN tags t ON t.id = st.tag_id WHERE st.status_id = s.id),
        'media', (SELECT json_agg(${modelJson(db, "MediaAttachment", "m")} ORDER BY m.id) FROM media_attachments m WHERE m.status_id = s.id),
        'poll', (SELECT json_build_object(
            'row', ${modelJson(db, "Poll", "pl")},
            'votes', (SELECT json_agg(json_build_array(v.choice, v.n)) FROM (SELECT choice, count(*)::int AS n FROM poll_votes WHERE poll_id = pl.id GROUP BY choice) v),
            'voters', (SELECT count(DISTINCT account_id)::int FROM poll_votes WHERE poll_id = pl.id))
          FROM polls pl WHERE pl.status_id = s.id),
        'reactions', (SELECT json_agg(json_build_object('emoji', r.emoji, 'url', r.emoji_url, 'accountId', r.account_id) ORDER BY r.id)
          FROM reactions r WHERE r.status_id = s.id)
        ) END,
        'favourited', ${viewer(viewerFlagSql.favourited(reader, Prisma.sql`s.id`))},
        'reblogged', ${viewer(viewerFlagSql.reblogged(reader, Prisma.sql`s.id`))},
        'bookmarked', ${viewer(viewerFlagSql.bookmarked(reader, Prisma.sql`s.id`))},
        'bookmarkFolder', ${viewer(Prisma.sql`(SELECT b.folder_id FROM bookmarks b WHERE b.account_id = ${me} AND b.status_id = s.id)`)},
        'own', ${viewer(Prisma.sql`(SELECT ${viewerFlagSql.ownVotes(reader, Prisma.sql`pl.id`)} FROM polls pl WHERE pl.status_id = s.id)`)}
      )) FROM s) AS statuses,
      (SELECT json_agg(json_build_object(
        'id', p.id, 'accountId', p.account_id, 'visibility', p.visibility, 'recipientIds', p.recipient_ids,
        'following', ${viewer(Prisma.sql`EXISTS (SELECT 1 FROM follows f WHERE f.follower_id = ${me} AND f.following_id = p.account_id AND f.state = 'accept')`)},
        'blocked', ${viewer(Prisma.sql`EXISTS (SELECT 1 FROM user_relationships r WHERE r.source_id = ${me} AND r.target_id = p.account_id AND r.type = 'block')
          OR EXISTS (SELECT 1 FROM user_relationships r WHERE r.source_id = p.account_id AND r.target_id = ${me} AND r.type = 'block')`)}
      )) FROM p) AS parents,
      -- the accounts shown, but those the account cache holds
      ${modelJsonById(db, "Account", Prisma.sql`SELECT _shown.id FROM (SELECT account_id FROM s UNION SELECT account_id FROM p
        UNION SELECT account_id FROM mentions WHERE status_id IN (SELECT id FROM s) ${andThese(list.map((s) => s.accountId), "text")}) AS _shown(id)
        WHERE array_position(${cachedAccounts}::text[], _shown.id) IS NULL`)} AS accounts,
      ${accountCountsSql(Prisma.sql`SELECT account_id FROM s ${alsoCountedSql}`, cachedCounts)} AS counts,
      ${modelJsonById(db, "OAuthApp", Prisma.sql`SELECT application_id FROM s ${andThese(list.map((s) => s.applicationId), "int")}`)} AS applications,
      ${viewer(Prisma.sql`(SELECT json_agg(t.context) FROM thread_mutes t WHERE t.account_id = ${me} AND (t.expires_at IS NULL OR t.expires_at > ${now})
        AND t.context IN (SELECT context FROM s ${andThese(list.map((s) => s.context), "text")}))`)} AS muted,
      ${viewer(filtersJson(db, Prisma.sql`SELECT ${me ?? ""}::text`, ctx.clock()))} AS filters`;
}

function reactionGroups(rows: NonNullable<SharedStatusData["reactions"]>, viewerId: string | undefined): ReactionGroup[] {
  const groups: ReactionGroup[] = [];
  for (const r of rows) {
    let g = groups.find((x) => x.name === r.emoji);
    if (!g) groups.push((g = { name: r.emoji, count: 0, me: false, accountIds: [], ...(r.url ? { url: r.url } : {}) }));
    g.count++;
    g.accountIds.push(r.accountId);
    if (r.accountId === viewerId) g.me = true;
  }
  return groups;
}

/**
 * `alsoCounted`: accounts the caller renders beside the statuses (a notification's account), whose
 * follower and following counts come with the same statement (`accountCounts`).
 */
export async function loadStatusData(ctx: Ctx, list: Status[], alsoCounted: readonly string[] = []): Promise<StatusData> {
  if (list.length === 0) return emptyData();
  // the page statement of a timeline loaded them already, with its rows (loadPageWithStatusData)
  const loaded = (ctx.loaders ? pageData.get(ctx.loaders) : undefined)?.find((d) => list.every((s) => d.statuses.get(s.id) === s) && alsoCounted.every((id) => d.accountCounts.has(id)));
  if (loaded) return loaded;
  const inner = originalsBeside(list);
  const known = [...list.map((s) => s.id), ...inner, ...list.map((s) => s.quoteId)];
  const prepared = prepare(ctx, known, inner, [...list.map((s) => s.accountId)], [...list.map((s) => s.accountId), ...alsoCounted]);
  // stored rows (nearly always) are read as a page of their ids: PostgreSQL keeps the page form's plan, while it
  // planned the rows-at-hand form anew at every run (7.3 ms a run against 1.5 with its generic plan: thirteenth
  // round). A row not stored (a preview, a status just deleted) leaves the page short: the rows-at-hand form then.
  const ids = [...new Set(list.map((s) => s.id))];
  const stored = await rows<StatementResult & { page_ids: string[] | null }>(ctx.db, statement(ctx, { page: storedRows(ids, alsoCounted) }, ...prepared.hints(alsoCounted)));
  const [result] = stored[0].page_ids?.length === ids.length ? stored : await rows<StatementResult>(ctx.db, statement(ctx, { list, inner }, ...prepared.hints(alsoCounted)));
  absorbShared(ctx, prepared, result);
  return finish(ctx, prepared, list, inner, result);
}

/** Stored statuses as a page (their ids' order does not matter), and the accounts counted beside their authors. */
function storedRows(ids: string[], alsoCounted: readonly string[]): PageQuery {
  return {
    rows: Prisma.sql`SELECT id, reblog_of_id FROM statuses WHERE id = ANY(${ids}::text[])`,
    direction: Prisma.raw("ASC"),
    columns: [],
    alsoCounted: alsoCounted.length ? Prisma.sql`SELECT unnest(${[...alsoCounted]}::text[])` : undefined,
  };
}

/** The originals the reblogs of `list` carry, but those in `list` itself. */
function originalsBeside(list: Status[]): string[] {
  const ids = new Set(list.map((s) => s.id));
  return [...new Set(list.map((s) => s.reblogOfId).filter((id): id is string => !!id && !ids.has(id)))];
}

/** The statement's rows are the statuses at hand (`list`, with the originals they reblog), or a timeline's page, read by the same statement. */
type Source = { list: Status[]; inner: string[] } | { page: PageQuery };

/**
 * A page as its statement selects it: `rows` selects the statuses' `id` and `reblog_of_id` (a timeline's page,
 * timelines.ops.ts; a notification page's statuses, notifications.ops.ts), ordered by `direction`.
 */
export interface PageQuery {
  /** common table expressions `rows` and `columns` may read (`name AS (…)`, comma-separated): a notification page */
  with?: Prisma.Sql;
  rows: Prisma.Sql;
  direction: Prisma.Sql;
  /** the columns the statement returns beside the page, each `expression AS name` (the viewer's `hide` filters; a notification page's rows) */
  columns: Prisma.Sql[];
  /** a query of the accounts whose counts come with the statuses' authors' (a notification's account) */
  alsoCounted?: Prisma.Sql;
}

type StatementResult = { statuses: StatusRow[] | null; parents: ParentRow[] | null; accounts: Json[] | null; counts: CountsRow[] | null; applications: Json[] | null; muted: string[] | null; filters: unknown };

/**
 * What rendering statuses loaded with the page statements of this request's timelines (the rows in hand are
 * one of those statements'), by the request's loaders: they are the one object every copy of the request's
 * context shares (yoga hands resolvers a copy of the context the loaders were made with).
 */
const pageData = new WeakMap<object, StatusData[]>();

/** What a timeline's last page showed (src/domain/page-hints.ts; timelines.ops.ts's pageHintKey names the timeline). */
interface PageHint {
  statuses: string[];
  accounts: string[];
  authors: string[];
}

/**
 * A timeline's page and everything its statuses render with, in ONE statement: the page's rows (`page.rows`),
 * then the statement of loadStatusData over them. Rendering the page (loadStatusData with the same rows, in
 * the same request) then reads nothing. `hintKey` names the timeline (see PageHint).
 */
export async function loadPageWithStatusData<Columns extends object>(ctx: Ctx, page: PageQuery, hintKey: string): Promise<{ rows: Status[]; columns: Columns; data: StatusData }> {
  const hint = lastPage<PageHint>(ctx, hintKey);
  const prepared = prepare(ctx, hint?.statuses ?? [], [], hint?.accounts ?? [], hint?.authors ?? []);
  const [result] = await rows<StatementResult & { page_ids: string[] | null }>(ctx.db, statement(ctx, { page }, ...prepared.hints([])));
  absorbShared(ctx, prepared, result);
  // every status of the page is in `s`: its shared part was read now unless the cache had it
  const list = (result.page_ids ?? []).map((id) => prepared.shared.get(id)!.row);
  const inner = originalsBeside(list);
  const data = finish(ctx, prepared, list, inner, result);
  // (a context made by hand, without loaders, renders by loading again)
  const pages = ctx.loaders ? pageData.get(ctx.loaders) : undefined;
  if (pages) pages.push(data);
  else if (ctx.loaders) pageData.set(ctx.loaders, [data]);
  rememberPage<PageHint>(ctx, hintKey, { statuses: [...data.statuses.keys()], accounts: [...prepared.accounts.keys()], authors: [...data.accountCounts.keys()] });
  return { rows: list, columns: result as unknown as Columns, data };
}

/**
 * What the caches hold for a statement about to run: the shared parts of the statuses named (`known`; and of
 * the quoted statuses of the cached originals among them), the rows of the accounts named, the counts of the
 * authors named. The statement then selects only the rest (hints()).
 */
function prepare(ctx: Ctx, known: (string | null)[], inner: string[], accountIds: string[], authorIds: readonly string[]) {
  const cache = statusCache(ctx);
  // what the cache has of the statuses named so far (the quoted ones of an original it lacks are found by the statement)
  const shared = new Map<string, SharedStatusData>();
  const lookUp = (id: string | null) => {
    const hit = id && !shared.has(id) ? cache.get(id) : undefined;
    if (hit) shared.set(id!, hit);
  };
  for (const id of known) lookUp(id);
  // the statuses quoted by cached originals
  for (const id of inner) lookUp(shared.get(id)?.row.quoteId ?? null);
  // the account rows the cache has of the accounts known to be shown (a parent's author is found by the statement)
  const accountRows = accountCache(ctx);
  const accounts = new Map<string, Account>();
  const shownIds = [...accountIds];
  for (const x of shared.values()) shownIds.push(x.row.accountId, ...(x.mentionIds ?? []));
  for (const id of shownIds) {
    const hit = accounts.has(id) ? undefined : accountRows.get(id);
    if (hit) accounts.set(id, hit);
  }
  // the counts the count cache has of the authors known so far and the accounts shown beside
  const counts = countCache(ctx);
  const accountCounts = new Map<string, AccountCounts>();
  for (const id of [...authorIds, ...[...shared.values()].map((x) => x.row.accountId)]) {
    const hit = accountCounts.has(id) ? undefined : counts.get(id);
    if (hit) accountCounts.set(id, hit);
  }
  return {
    cache,
    shared,
    accountRows,
    accounts,
    counts,
    accountCounts,
    since: cache.begin(),
    accountsSince: accountRows.begin(),
    countsSince: counts.begin(),
    /** statement()'s arguments after the source: what not to select again */
    hints: (alsoCounted: readonly string[]): [string[], string[], readonly string[], string[]] => [[...shared.keys()], [...accounts.keys()], alsoCounted, [...accountCounts.keys()]],
  };
}

/** The shared parts the statement read go to `prepared.shared`, and to the cache (unless a write invalidated them while the statement ran). */
function absorbShared(ctx: Ctx, prepared: ReturnType<typeof prepare>, result: StatementResult): void {
  const { cache, shared, since } = prepared;
  for (const r of result.statuses ?? []) {
    if (!r.shared) continue;
    const x = r.shared;
    const fresh: SharedStatusData = {
      row: decodeModel(ctx.db, "Status", x.row),
      counts: { favourites: x.favourites, reblogs: x.reblogs, replies: x.replies },
      mentionIds: x.mentions,
      tags: x.tags,
      media: x.media?.map((m) => decodeModel(ctx.db, "MediaAttachment", m)) ?? null,
      poll: x.poll ? { poll: decodeModel(ctx.db, "Poll", x.poll.row), votes: x.poll.votes, voters: x.poll.voters } : null,
      reactions: x.reactions,
    };
    shared.set(r.id, fresh);
    cache.store(since, r.id, fresh);
  }
}

/** The data of `list` (and `inner`, the originals they reblog) from the statement's result (absorbShared first) and what the caches held. */
function finish(ctx: Ctx, prepared: ReturnType<typeof prepare>, list: Status[], inner: string[], result: StatementResult): StatusData {
  const data = emptyData();
  const viewerId = ctx.viewer.account?.id;
  const { shared, accountRows, accounts, counts, accountsSince, countsSince } = prepared;
  for (const s of list) data.statuses.set(s.id, s);
  for (const [id, c] of prepared.accountCounts) data.accountCounts.set(id, c);
  for (const id of [...data.statuses.keys(), ...inner]) data.counts.set(id, { favourites: 0, reblogs: 0, replies: 0 });
  for (const context of result.muted ?? []) data.mutedContexts.add(context);
  if (viewerId) data.filters = decodeFilters(ctx.db, result.filters);
  for (const app of (result.applications ?? []).map((j) => decodeModel(ctx.db, "OAuthApp", j))) data.applications.set(app.id, app);

  for (const a of (result.accounts ?? []).map((j) => decodeModel(ctx.db, "Account", j))) {
    accounts.set(a.id, a);
    accountRows.store(accountsSince, a);
  }
  // the caller's rows are the statuses at hand (a preview's differ from what is stored); the others are the stored ones
  for (const r of result.statuses ?? []) if (!data.statuses.has(r.id)) data.statuses.set(r.id, shared.get(r.id)!.row);
  for (const s of data.statuses.values()) {
    const author = accounts.get(s.accountId);
    if (author) data.accounts.set(author.id, author);
  }
  for (const [id, followers, following, statuses] of result.counts ?? []) {
    data.accountCounts.set(id, { followers, following, statuses });
    counts.store(countsSince, id, { followers, following, statuses });
  }
  for (const r of result.statuses ?? []) {
    const id = r.id;
    const x = shared.get(id)!;
    data.counts.set(id, x.counts);
    if (r.favourited) data.favourited.add(id);
    if (r.reblogged) data.reblogged.add(id);
    if (r.bookmarked) data.bookmarked.add(id);
    if (r.bookmarkFolder) data.bookmarkFolders.set(id, r.bookmarkFolder);
    if (x.mentionIds) data.mentions.set(id, x.mentionIds.map((a) => accounts.get(a)).filter((a): a is Account => !!a));
    if (x.tags) data.tags.set(id, x.tags);
    if (x.media) data.media.set(id, x.media);
    if (x.reactions) data.reactions.set(id, reactionGroups(x.reactions, viewerId));
    if (x.poll) {
      const poll = x.poll.poll;
      const votes = new Map(x.poll.votes ?? []);
      data.polls.set(id, {
        poll,
        authorId: data.statuses.get(id)!.accountId,
        // a remote poll counts what its server reported, and local votes it has not counted yet
        votes: poll.options.map((_, i) => Math.max(votes.get(i) ?? 0, poll.remoteCounts[i] ?? 0)),
        votersCount: Math.max(x.poll.voters, poll.remoteVotersCount ?? 0),
        ownVotes: viewerId ? (r.own ?? []) : null,
      });
    }
  }

  const parents = result.parents ?? [];
  const seen: ViewerContext = {
    viewerId: viewerId ?? null,
    following: new Set(parents.filter((p) => p.following).map((p) => p.accountId)),
    blocked: new Set(parents.filter((p) => p.blocked).map((p) => p.accountId)),
  };
  for (const p of parents) {
    const account = accounts.get(p.accountId)!;
    data.parentAccounts.set(p.id, account);
    data.parentVisible.set(p.id, !account.deactivated && canSee(seen, p));
  }
  return data;
}
