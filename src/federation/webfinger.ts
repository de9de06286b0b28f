// WebFinger (RFC 7033) for local accounts and host-meta (RFC 6415): resource parsing, the lookup
// operation, and the JRD / XRD documents.
import { z } from "zod";
import type { Ctx } from "../domain/context.ts";
import { NotFound } from "../kernel/errors.ts";
import { operation } from "../domain/operation.ts";
import { accountByName } from "../db/account-names.ts";

const XRD_NS = "http://docs.oasis-open.org/ns/xri/xrd-1.0";
export const PROFILE_PAGE_REL = "http://webfinger.net/rel/profile-page";
/** The remote-follow template the family publishes (OStatus subscribe): `{uri}` is the account to follow. */
export const SUBSCRIBE_REL = "http://ostatus.org/schema/1.0/subscribe";
export const AS_PROFILE_TYPE = 'application/ld+json; profile="https://www.w3.org/ns/activitystreams"';

export type WebfingerTarget = { kind: "nickname"; nickname: string } | { kind: "apId"; apId: string };

/**
 * What a `resource` names on this server: `acct:nick@domain` (the `acct:` and a leading `@` are
 * optional, the domain must be ours, compared without case) or an http(s) URL taken as an ActivityPub id.
 */
export function parseResource(resource: string, domain: string): WebfingerTarget | null {
  const value = resource.trim();
  if (/^https?:\/\//i.test(value)) return { kind: "apId", apId: value };
  const acct = value.replace(/^acct:/i, "").replace(/^@/, "");
  const at = acct.lastIndexOf("@");
  if (at <= 0) return null;
  const nickname = acct.slice(0, at);
  const host = acct.slice(at + 1);
  if (host.toLowerCase() !== domain.toLowerCase() || !/^[A-Za-z0-9_.-]+$/.test(nickname)) return null;
  return { kind: "nickname", nickname };
}

/** Like the family, a server that does not federate answers WebFinger and host-meta with 404. */
export function requireFederating(ctx: Pick<Ctx, "config">) {
  if (!ctx.config.get("instance", "federating")) throw NotFound();
}

/** The local, active account a WebFinger resource names. */
export const webfingerAccount = operation({
  name: "federation.webfinger",
  input: z.object({ resource: z.string().min(1) }),
  async run(ctx, { resource }) {
    requireFederating(ctx);
    const target = parseResource(resource, ctx.settings.domain);
    const notFound = NotFound("Couldn't find user");
    if (!target) throw notFound;
    const where = { local: true, deactivated: false } as const;
    if (target.kind === "apId") {
      const account = await ctx.db.account.findFirst({ where: { ...where, apId: target.apId } });
      if (!account) throw notFound;
      return account;
    }
    const account = await accountByName(ctx.db, { nicknames: [target.nickname], local: true, active: true });
    if (!account) throw notFound;
    return account;
  },
});

export interface JrdLink {
  rel: string;
  type?: string;
  href?: string;
  template?: string;
}

export interface Jrd {
  subject: string;
  aliases: string[];
  links: JrdLink[];
}

/**
 * The family's JRD: the actor as `self` in both ActivityStreams media types (Fedify and Mastodon pick
 * `application/activity+json`), the profile page, and the remote-follow template.
 */
export function accountJrd(account: { nickname: string; apId: string }, domain: string, baseUrl: string): Jrd {
  return {
    subject: `acct:${account.nickname}@${domain}`,
    aliases: [account.apId],
    links: [
      { rel: "self", type: "application/activity+json", href: account.apId },
      { rel: "self", type: AS_PROFILE_TYPE, href: account.apId },
      { rel: PROFILE_PAGE_REL, type: "text/html", href: account.apId },
      { rel: SUBSCRIBE_REL, template: `${baseUrl}/ostatus_subscribe?acct={uri}` },
    ],
  };
}

/** The instance's service actors (instance actor, relay) by `acct:` or by id: Mastodon checks a key owner's handle. */
export function serviceActorJrd(target: WebfingerTarget, actors: Record<string, string>, domain: string): Jrd | null {
  const found = Object.entries(actors).find(([nickname, apId]) => (target.kind === "apId" ? target.apId === apId : target.nickname.toLowerCase() === nickname));
  if (!found) return null;
  const [nickname, apId] = found;
  return {
    subject: `acct:${nickname}@${domain}`,
    aliases: [apId],
    links: [
      { rel: "self", type: "application/activity+json", href: apId },
      { rel: "self", type: AS_PROFILE_TYPE, href: apId },
    ],
  };
}

export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[c]!);
}

function linkElement(link: JrdLink): string {
  const attrs = (["rel", "type", "href", "template"] as const)
    .filter((k) => link[k] !== undefined)
    .map((k) => ` ${k}="${escapeXml(link[k]!)}"`)
    .join("");
  return `<Link${attrs}/>`;
}

function xrdDocument(children: string[]): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<XRD xmlns="${XRD_NS}">${children.join("")}</XRD>\n`;
}

/** The same description as XRD (the XML form of RFC 6415). */
export function jrdToXrd(jrd: Jrd): string {
  return xrdDocument([
    `<Subject>${escapeXml(jrd.subject)}</Subject>`,
    ...jrd.aliases.map((a) => `<Alias>${escapeXml(a)}</Alias>`),
    ...jrd.links.map(linkElement),
  ]);
}

/** host-meta: where to ask WebFinger (the LRDD template). */
export function hostMetaXrd(baseUrl: string): string {
  return xrdDocument([linkElement({ rel: "lrdd", type: "application/xrd+xml", template: `${baseUrl}/.well-known/webfinger?resource={uri}` })]);
}

/** host-meta as JSON (RFC 6415 JRD, `/.well-known/host-meta.json`). */
export function hostMetaJrd(baseUrl: string) {
  return { links: [{ rel: "lrdd", type: "application/jrd+json", template: `${baseUrl}/.well-known/webfinger?resource={uri}` }] };
}
