// The activities we send, as Fedify vocabulary objects. Ids: a status's Create is `<object>/activity`,
// a reblog's Announce is the reblog's uri; everything else hangs off the actor's id with a fragment
// (`#likes/<id>`, `#follows/<id>`, …, as the reference server does), and an Undo is `<activity>/undo`.
// These ids need not be dereferenceable; peers use them for idempotence and to match Undos.
import {
  Accept,
  Announce,
  Block,
  Create,
  Delete,
  Emoji,
  EmojiReact,
  Follow,
  Image,
  Like,
  Move,
  Note,
  PUBLIC_COLLECTION,
  Reject,
  Tombstone,
  Undo,
  Update,
  type Activity,
  type Actor,
  type Object as APObject,
} from "@fedify/vocab";
import { Temporal } from "@js-temporal/polyfill";
import type { Visibility } from "../../generated/prisma/client.ts";
import { addressing, followersOf } from "../../domain/federation/activitystreams.ts";
import { renderStatusObject, statusAddressing, type StatusParts } from "./status.ts";

const instant = (d: Date) => Temporal.Instant.fromEpochMilliseconds(d.getTime());
const urls = (list: string[]) => list.map((u) => new URL(u));

/** The Create of a local status: its id is the object's id + `/activity`, as the family's. */
export function renderCreate(parts: StatusParts, baseUrl: string): Create {
  return new Create({
    id: new URL(`${parts.status.uri}/activity`),
    actor: new URL(parts.author.apId),
    ...statusAddressing(parts),
    published: instant(parts.status.createdAt),
    object: renderStatusObject(parts, baseUrl),
  });
}

/** The Update of an edited status, or of a poll's results (each Update its own id). */
export function renderStatusUpdate(parts: StatusParts, baseUrl: string, now = new Date()): Update {
  const at = parts.status.editedAt ?? now;
  return new Update({
    id: new URL(`${parts.status.uri}#updates/${now.getTime()}`),
    actor: new URL(parts.author.apId),
    ...statusAddressing(parts),
    published: instant(at),
    object: renderStatusObject(parts, baseUrl),
  });
}

/** The Delete of a status, addressed as the status was; the object is a Tombstone. */
export function renderStatusDelete(s: { uri: string; visibility: Visibility; addressed: string[] }, authorApId: string): Delete {
  const a = addressing(s, { apId: authorApId }, s.addressed);
  return new Delete({
    id: new URL(`${s.uri}#delete`),
    actor: new URL(authorApId),
    tos: urls(a.to),
    ccs: urls(a.cc),
    object: new Tombstone({ id: new URL(s.uri) }),
  });
}

/** A reblog's addressing: as its visibility says, plus the original's author in cc. */
function announceAddressing(visibility: Visibility, actorApId: string, originalAuthorApId?: string) {
  const a = addressing({ visibility }, { apId: actorApId }, originalAuthorApId && originalAuthorApId !== actorApId ? [originalAuthorApId] : []);
  return { tos: urls(a.to), ccs: urls(a.cc) };
}

/** A reblog's Announce: the reblog's uri is the Announce's id. */
export function renderAnnounce(
  reblog: { uri: string; visibility: Visibility; createdAt: Date },
  author: { apId: string },
  objectUri: string,
  originalAuthorApId?: string,
): Announce {
  return new Announce({
    id: new URL(reblog.uri),
    actor: new URL(author.apId),
    ...announceAddressing(reblog.visibility, author.apId, originalAuthorApId),
    published: instant(reblog.createdAt),
    object: new URL(objectUri),
  });
}

/** Undo of `activity` by `actorApId`, with the same addressing. */
export function renderUndo(activity: Activity, actorApId: string): Undo {
  return new Undo({
    id: new URL(`${activity.id!.href}/undo`),
    actor: new URL(actorApId),
    tos: activity.toIds,
    ccs: activity.ccIds,
    object: activity,
  });
}

export function renderLike(likeId: string, actorApId: string, objectUri: string, objectAuthorApId: string): Like {
  return new Like({ id: new URL(`${actorApId}#likes/${likeId}`), actor: new URL(actorApId), object: new URL(objectUri), to: new URL(objectAuthorApId) });
}

/** An EmojiReact: `content` is the emoji, or `:shortcode:` with an Emoji tag for a custom one. */
export function renderEmojiReact(
  reactionId: string,
  actorApId: string,
  objectUri: string,
  objectAuthorApId: string,
  reaction: { emoji: string; emojiUrl: string | null },
): EmojiReact {
  const custom = reaction.emojiUrl ? `:${reaction.emoji}:` : null;
  return new EmojiReact({
    id: new URL(`${actorApId}#reactions/${reactionId}`),
    actor: new URL(actorApId),
    object: new URL(objectUri),
    to: new URL(objectAuthorApId),
    content: custom ?? reaction.emoji,
    tags: custom ? [new Emoji({ id: new URL(reaction.emojiUrl!), name: custom, icon: new Image({ url: new URL(reaction.emojiUrl!) }) })] : [],
  });
}

/** Our Follow: its id is stored on the follow row (follows.ap_id) so the peer's Accept can name it. */
export const followId = (followerApId: string, followRowId: string) => `${followerApId}#follows/${followRowId}`;

export function renderFollow(id: string, followerApId: string, targetApId: string): Follow {
  return new Follow({ id: new URL(id), actor: new URL(followerApId), object: new URL(targetApId), to: new URL(targetApId) });
}

/** Accept or Reject of a remote follower's Follow (`followApId` is theirs when we have it). */
export function renderFollowAnswer(kind: "accept" | "reject", followRowId: string, followApId: string | null, followerApId: string, targetApId: string): Accept | Reject {
  const follow = new Follow({ id: followApId ? new URL(followApId) : null, actor: new URL(followerApId), object: new URL(targetApId) });
  const values = { id: new URL(`${targetApId}#${kind}s/follows/${followRowId}`), actor: new URL(targetApId), object: follow, to: new URL(followerApId) };
  return kind === "accept" ? new Accept(values) : new Reject(values);
}

export function renderBlock(blockId: string, actorApId: string, targetApId: string): Block {
  return new Block({ id: new URL(`${actorApId}#blocks/${blockId}`), actor: new URL(actorApId), object: new URL(targetApId), to: new URL(targetApId) });
}

/** The Update of an actor (profile changes, key rotation): public, to its followers. */
export function renderActorUpdate(actor: Actor | APObject, actorApId: string, at: Date): Update {
  return new Update({ id: new URL(`${actorApId}#updates/${at.getTime()}`), actor: new URL(actorApId), to: PUBLIC_COLLECTION, cc: new URL(followersOf({ apId: actorApId })), object: actor });
}

/** The Delete of an actor: peers remove the account and its content. */
export function renderActorDelete(actorApId: string): Delete {
  return new Delete({ id: new URL(`${actorApId}#delete`), actor: new URL(actorApId), to: PUBLIC_COLLECTION, cc: new URL(followersOf({ apId: actorApId })), object: new URL(actorApId) });
}

export function renderMove(originApId: string, targetApId: string, at: Date): Move {
  return new Move({
    id: new URL(`${originApId}#moves/${at.getTime()}`),
    actor: new URL(originApId),
    object: new URL(originApId),
    target: new URL(targetApId),
    to: new URL(followersOf({ apId: originApId })),
  });
}

/** A poll vote as the family sends it: a Create of a Note with only `name` (the option), replying to the Question. */
export function renderPollVote(voteId: string, voterApId: string, pollAuthorApId: string, questionUri: string, option: string, at: Date): Create {
  const note = new Note({
    id: new URL(`${voterApId}#votes/${voteId}`),
    attribution: new URL(voterApId),
    to: new URL(pollAuthorApId),
    name: option,
    replyTarget: new URL(questionUri),
    published: instant(at),
  });
  return new Create({ id: new URL(`${voterApId}#votes/${voteId}/activity`), actor: new URL(voterApId), to: new URL(pollAuthorApId), object: note, published: instant(at) });
}
