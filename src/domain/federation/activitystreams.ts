// ActivityStreams documents of local objects: the actor and its statuses as Note/Create/Announce.
// Used by account backups now and by federation's outbox later, so both agree on the shapes.
import type { Account, MediaAttachment, Status } from "../../generated/prisma/client.ts";

export const AS_CONTEXT = ["https://www.w3.org/ns/activitystreams", "https://w3id.org/security/v1"];
export const PUBLIC = "https://www.w3.org/ns/activitystreams#Public";

export const followersOf = (a: Pick<Account, "apId">) => `${a.apId}/followers`;

export function actorDocument(a: Account) {
  const image = (url: string | null) => (url ? { type: "Image", url } : undefined);
  return {
    "@context": AS_CONTEXT,
    id: a.apId,
    type: a.actorType,
    preferredUsername: a.nickname.split("@")[0],
    name: a.displayName,
    summary: a.note,
    url: a.apId,
    inbox: `${a.apId}/inbox`,
    outbox: `${a.apId}/outbox`,
    followers: followersOf(a),
    following: `${a.apId}/following`,
    manuallyApprovesFollowers: a.locked,
    discoverable: a.discoverable,
    alsoKnownAs: a.alsoKnownAs,
    attachment: (a.fields as { name: string; value: string }[]).map((f) => ({ type: "PropertyValue", name: f.name, value: f.value })),
    icon: image(a.avatar),
    image: image(a.header),
    published: a.createdAt.toISOString(),
    ...(a.publicKey ? { publicKey: { id: `${a.apId}#main-key`, owner: a.apId, publicKeyPem: a.publicKey } } : {}),
  };
}

/** to/cc of a status by visibility, as the family addresses them. */
export function addressing(status: Pick<Status, "visibility">, author: Pick<Account, "apId">, mentioned: string[]) {
  switch (status.visibility) {
    case "public":
      return { to: [PUBLIC], cc: [followersOf(author), ...mentioned] };
    case "unlisted":
      return { to: [followersOf(author)], cc: [PUBLIC, ...mentioned] };
    case "private":
    case "list":
      return { to: [followersOf(author)], cc: mentioned };
    case "local":
      // local-only posts are never federated; a backup still keeps who could read them
      return { to: [PUBLIC], cc: [followersOf(author), ...mentioned] };
    case "direct":
      return { to: mentioned, cc: [] };
  }
}

export interface NoteParts {
  status: Status;
  author: Account;
  inReplyTo?: string | null;
  mentioned: string[];
  media: MediaAttachment[];
  tags: string[];
}

export function noteDocument({ status: s, author, inReplyTo, mentioned, media, tags }: NoteParts) {
  return {
    id: s.uri,
    type: "Note",
    attributedTo: author.apId,
    ...addressing(s, author, mentioned),
    content: s.content,
    source: { content: s.source, mediaType: s.contentType },
    summary: s.spoilerText || null,
    sensitive: s.sensitive,
    inReplyTo: inReplyTo ?? null,
    context: s.context,
    conversation: s.context,
    published: s.createdAt.toISOString(),
    ...(s.editedAt ? { updated: s.editedAt.toISOString() } : {}),
    url: s.url ?? s.uri,
    attachment: media.map((m) => ({ type: "Document", mediaType: m.mimeType, url: m.remoteUrl ?? m.url, name: m.description })),
    tag: [
      ...mentioned.map((href) => ({ type: "Mention", href })),
      ...tags.map((name) => ({ type: "Hashtag", name: `#${name}` })),
      ...(s.emojis as { shortcode: string; url: string }[]).map((e) => ({ type: "Emoji", name: `:${e.shortcode}:`, icon: { type: "Image", url: e.url } })),
    ],
  };
}

export function createActivity(note: ReturnType<typeof noteDocument>, status: Status) {
  return { id: `${status.uri}/activity`, type: "Create", actor: note.attributedTo, to: note.to, cc: note.cc, published: note.published, object: note };
}

export function announceActivity(reblog: Status, author: Account, objectUri: string) {
  return { id: reblog.uri, type: "Announce", actor: author.apId, ...addressing(reblog, author, []), published: reblog.createdAt.toISOString(), object: objectUri };
}

export function orderedCollection(id: string, items: unknown[]) {
  return { "@context": AS_CONTEXT, id, type: "OrderedCollection", totalItems: items.length, orderedItems: items };
}
