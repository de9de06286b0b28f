// Local statuses as ActivityStreams objects (Note, Question for polls, Article when stored as one):
// used by delivery (Create/Update), by the object dispatcher at `/objects/{id}` and by anything
// else that shows a status to a peer, so every peer sees one shape. Addressing comes from
// `addressing()` in ../activitystreams.ts, which backups use too.
//
// Fedify's vocabulary has no `blurhash`, `focalPoint` or `conversation` property, so those are not
// in what we send (peers compute blurhash themselves; `context` carries the thread).
import { Collection, Document, Emoji, Hashtag, Image, LanguageString, Mention, Note, Question, Article, Source, type Object as APObject } from "@fedify/vocab";
import { Temporal } from "@js-temporal/polyfill";
import type { Db } from "../../db/client.ts";
import type { Account, MediaAttachment, Poll, Status } from "../../generated/prisma/client.ts";
import { addressing } from "../../domain/federation/activitystreams.ts";

type MentionedAccount = Pick<Account, "apId" | "nickname" | "domain" | "url" | "local">;

/** Everything a status's object needs, loaded by `loadStatusParts`. */
export interface StatusParts {
  status: Status;
  author: Pick<Account, "apId" | "nickname">;
  /** the parent's ActivityPub id, for replies */
  parentUri: string | null;
  /** the quoted status's ActivityPub id, for quotes */
  quoteUri: string | null;
  mentioned: MentionedAccount[];
  tags: string[];
  media: MediaAttachment[];
  poll: (Poll & { counts: number[]; voters: number }) | null;
}

/** Loads the parts of several statuses in a constant number of statements (whatever their number). */
export async function loadStatusParts(db: Db, ids: readonly string[]): Promise<Map<string, StatusParts>> {
  const out = new Map<string, StatusParts>();
  if (ids.length === 0) return out;
  const rows = await db.status.findMany({
    where: { id: { in: [...ids] } },
    include: {
      account: { select: { apId: true, nickname: true } },
      inReplyTo: { select: { uri: true } },
      quote: { select: { uri: true } },
      mentions: { include: { account: { select: { apId: true, nickname: true, domain: true, url: true, local: true } } } },
      tags: { include: { tag: { select: { name: true } } } },
      media: { orderBy: { id: "asc" } },
      poll: true,
    },
  });
  const pollIds = rows.flatMap((r) => (r.poll ? [r.poll.id] : []));
  const [counts, voters] = pollIds.length
    ? await Promise.all([
        db.pollVote.groupBy({ by: ["pollId", "choice"], where: { pollId: { in: pollIds } }, _count: { _all: true } }),
        db.pollVote.groupBy({ by: ["pollId", "accountId"], where: { pollId: { in: pollIds } } }),
      ])
    : [[], []];
  for (const r of rows) {
    let poll: StatusParts["poll"] = null;
    if (r.poll) {
      const local = r.poll.options.map((_, i) => counts.find((c) => c.pollId === r.poll!.id && c.choice === i)?._count._all ?? 0);
      const remote = r.poll.remoteCounts;
      poll = {
        ...r.poll,
        counts: local.map((n, i) => n + (remote[i] ?? 0)),
        voters: voters.filter((v) => v.pollId === r.poll!.id).length + (r.poll.remoteVotersCount ?? 0),
      };
    }
    const { account, inReplyTo, quote, mentions, tags, media, poll: _poll, ...status } = r;
    out.set(r.id, {
      status: status as Status,
      author: account,
      parentUri: inReplyTo?.uri ?? null,
      quoteUri: quote?.uri ?? null,
      mentioned: mentions.map((m) => m.account),
      tags: tags.map((t) => t.tag.name),
      media,
      poll,
    });
  }
  return out;
}

export async function loadStatusPartsOne(db: Db, id: string): Promise<StatusParts | null> {
  return (await loadStatusParts(db, [id])).get(id) ?? null;
}

const url = (value: string, baseUrl: string) => new URL(value, baseUrl);
const instant = (d: Date) => Temporal.Instant.fromEpochMilliseconds(d.getTime());
/** `@nick@host` for a mention tag's name. */
const handle = (a: MentionedAccount, domain: string) => `@${a.local ? `${a.nickname}@${domain}` : a.nickname}`;

/** The status's to/cc as URLs. */
export function statusAddressing(parts: Pick<StatusParts, "status" | "author" | "mentioned">): { tos: URL[]; ccs: URL[] } {
  const a = addressing(parts.status, parts.author, parts.mentioned.map((m) => m.apId));
  return { tos: a.to.map((u) => new URL(u)), ccs: a.cc.map((u) => new URL(u)) };
}

/** The object's tags: mentions, hashtags (linking to this server's tag pages) and custom emoji. */
function renderTags(parts: StatusParts, baseUrl: string): (Mention | Hashtag | Emoji)[] {
  const domain = new URL(baseUrl).host;
  return [
    ...parts.mentioned.map((m) => new Mention({ href: new URL(m.apId), name: handle(m, domain) })),
    ...parts.tags.map((name) => new Hashtag({ href: url(`/tag/${encodeURIComponent(name)}`, baseUrl), name: `#${name}` })),
    ...(parts.status.emojis as { shortcode: string; url: string }[]).map(
      (e) => new Emoji({ id: url(e.url, baseUrl), name: `:${e.shortcode}:`, icon: new Image({ url: url(e.url, baseUrl) }) }),
    ),
  ];
}

export function renderAttachment(m: MediaAttachment, baseUrl: string): Document {
  return new Document({ mediaType: m.mimeType, url: url(m.remoteUrl ?? m.url, baseUrl), name: m.description || null });
}

/**
 * The ActivityStreams object of a status: a Question when it has a poll, an Article when it is stored
 * as one, a Note otherwise. `content` in the status's language too (`contentMap`) when it is known.
 */
export function renderStatusObject(parts: StatusParts, baseUrl: string): Note | Question | Article {
  const s = parts.status;
  const values = {
    id: new URL(s.uri),
    attribution: new URL(parts.author.apId),
    ...statusAddressing(parts),
    contents: s.language ? [s.content, new LanguageString(s.content, s.language)] : [s.content],
    source: s.source ? new Source({ content: s.source, mediaType: s.contentType }) : null,
    summary: s.spoilerText || null,
    sensitive: s.sensitive,
    replyTarget: parts.parentUri ? new URL(parts.parentUri) : null,
    // Fedify writes it as `quoteUrl`, `_misskey_quote` and `quoteUri` at once (Misskey, Fedibird, the family)
    quoteUrl: parts.quoteUri ? new URL(parts.quoteUri) : null,
    contexts: [new URL(s.context)],
    published: instant(s.createdAt),
    updated: s.editedAt ? instant(s.editedAt) : null,
    url: url(s.url ?? s.uri, baseUrl),
    attachments: parts.media.map((m) => renderAttachment(m, baseUrl)),
    tags: renderTags(parts, baseUrl),
  };
  if (parts.poll) {
    const p = parts.poll;
    const options = p.options.map((name, i) => new Note({ name, replies: new Collection({ totalItems: p.counts[i] ?? 0 }) }));
    const closed = p.closedAt ?? (p.expiresAt && p.expiresAt <= new Date() ? p.expiresAt : null);
    return new Question({
      ...values,
      ...(p.multiple ? { inclusiveOptions: options } : { exclusiveOptions: options }),
      endTime: p.expiresAt ? instant(p.expiresAt) : null,
      closed: closed ? instant(closed) : null,
      voters: p.voters,
    });
  }
  return s.objectType === "Article" ? new Article(values) : new Note(values);
}

/** Alias under the name other modules look for. */
export const renderNote = renderStatusObject;

/** The object of one status by id, or null when it does not exist. Visibility is the caller's check. */
export async function renderStatusById(db: Db, baseUrl: string, id: string): Promise<Note | Question | Article | null> {
  const parts = await loadStatusPartsOne(db, id);
  return parts ? renderStatusObject(parts, baseUrl) : null;
}

export type StatusObject = ReturnType<typeof renderStatusObject> & APObject;
