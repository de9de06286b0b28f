// Small public HTML pages: the landing page, accounts and statuses, for browsers that open an instance or
// an ActivityPub URL (the family sends them to its front end; we have none bundled). Every text is
// escaped; bios, field values and status content are the sanitised HTML the API renders. Account and
// status pages name their ActivityStreams document as an alternate and carry OpenGraph metadata and
// `rel="me"` links, as the family's metadata providers write them.
import { escapeHtml } from "../../kernel/escape.ts";
import { htmlToText } from "../../domain/statuses/formatter.ts";

export interface PageAccount {
  display_name: string;
  acct: string;
  fqn: string;
  url: string;
  avatar: string;
  note: string;
  fields: { name: string; value: string }[];
  followers_count: number;
  following_count: number;
  statuses_count: number;
}

export interface PageStatus {
  id: string;
  url: string | null;
  uri: string;
  created_at: string;
  content: string;
  spoiler_text: string;
  sensitive: boolean;
  visibility: string;
  account: PageAccount;
  media_attachments: { url: string; description: string | null; type: string }[];
}

export interface LandingInfo {
  title: string;
  description: string;
  thumbnail: string;
  registrationsOpen: boolean;
  invitesEnabled: boolean;
  domain: string;
  userCount: number;
  statusCount: number;
  domainCount: number;
  rules: { text: string; hint: string | null }[];
}

/** A page's `<meta>` and `<link>` lines besides the title (OpenGraph, robots, rel="me"). */
interface Head {
  alternate?: string;
  /** an Atom feed of the page's subject */
  feed?: string;
  canonical?: string;
  meta?: [string, string][];
  links?: [string, string][];
}

const STYLE = "body{font-family:sans-serif;max-width:40em;margin:2em auto;padding:0 1em;color:#222}img.avatar{width:48px;height:48px;border-radius:4px;vertical-align:middle;margin-right:.5em}article{border-top:1px solid #ddd;padding:1em 0}dt{font-weight:bold}time{color:#666;font-size:.9em}";

const OG_DESCRIPTION_LENGTH = 200;

function layout(title: string, head: Head, body: string): string {
  const lines = [
    head.alternate ? `<link rel="alternate" type="application/activity+json" href="${escapeHtml(head.alternate)}">` : "",
    head.feed ? `<link rel="alternate" type="application/atom+xml" href="${escapeHtml(head.feed)}">` : "",
    head.canonical ? `<link rel="canonical" href="${escapeHtml(head.canonical)}">` : "",
    ...(head.meta ?? []).map(([key, content]) => `<meta ${key.startsWith("og:") ? "property" : "name"}="${escapeHtml(key)}" content="${escapeHtml(content)}">`),
    ...(head.links ?? []).map(([rel, href]) => `<link rel="${escapeHtml(rel)}" href="${escapeHtml(href)}">`),
  ].filter(Boolean);
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
${lines.join("\n")}
<style>${STYLE}</style></head>
<body>${body}</body></html>
`;
}

/**
 * Sanitised HTML shown as plain text, line breaks kept: an author's `no_rich_text` on the public pages
 * (the family applies the setting to what its holder reads; a page's reader is anonymous, so the pages
 * apply the author's — docs/compatibility.md).
 */
export function plainContent(html: string): string {
  const text = htmlToText(html).trim();
  return text ? `<p>${escapeHtml(text).replace(/\n/g, "<br>")}</p>` : "";
}

/** Plain text of sanitised HTML, cut to `max` characters on a word boundary (OpenGraph descriptions). */
export function summaryText(html: string, max = OG_DESCRIPTION_LENGTH): string {
  const text = htmlToText(html).replace(/\s+/g, " ").trim();
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  return `${cut.slice(0, cut.lastIndexOf(" ") > max / 2 ? cut.lastIndexOf(" ") : cut.length)}…`;
}

/** A profile field whose value is one http(s) address (local fields are plain text rendered as HTML). */
function fieldLink(value: string): string | null {
  const text = htmlToText(value).trim();
  return /^https?:\/\/[^\s<>"]+$/i.test(text) ? text : null;
}

/**
 * `rel="me"` identity links: the profile fields that are addresses, each once (the reference API's
 * servers verify such links; the family's RelMe provider reads links marked `rel="me"`, which local
 * bios, being plain text, do not carry).
 */
export function relMeLinks(a: Pick<PageAccount, "fields">): string[] {
  return [...new Set(a.fields.map((f) => fieldLink(f.value)).filter((h): h is string => h !== null))];
}

function fieldValue(value: string): string {
  const href = fieldLink(value);
  return href ? `<a href="${escapeHtml(href)}" rel="me nofollow noopener noreferrer">${escapeHtml(href)}</a>` : value;
}

function byline(a: PageAccount, profile: string): string {
  return `<a href="${escapeHtml(profile)}"><img class="avatar" src="${escapeHtml(a.avatar)}" alt=""><strong>${escapeHtml(a.display_name)}</strong></a> <span>@${escapeHtml(a.fqn)}</span>`;
}

function statusBody(s: PageStatus, profile: string): string {
  const text = s.spoiler_text ? `<details><summary>${escapeHtml(s.spoiler_text)}</summary>${s.content}</details>` : `<div>${s.content}</div>`;
  const media = s.media_attachments
    .map((m) => (m.type === "image" || m.type === "gifv" ? `<img src="${escapeHtml(m.url)}" alt="${escapeHtml(m.description ?? "")}" style="max-width:100%">` : `<a href="${escapeHtml(m.url)}">${escapeHtml(m.description || m.url)}</a>`))
    .join("");
  return `<article>${byline(s.account, profile)}${text}${media}<p><a href="${escapeHtml(s.url ?? s.uri)}"><time datetime="${escapeHtml(s.created_at)}">${escapeHtml(s.created_at)}</time></a></p></article>`;
}

const nameOf = (a: PageAccount) => `${a.display_name || a.acct} (@${a.fqn})`;

export interface AccountPageOptions {
  /** the account opted out of search engines (`discoverable: false`): the family's RestrictIndexing */
  noindex: boolean;
  /** the account's Atom feed, advertised as an alternate */
  feed: string;
  /** the account hides these counts (`hide_followers_count`, `hide_follows_count`): the page says so instead of a number */
  hideFollowersCount: boolean;
  hideFollowsCount: boolean;
}

export function accountPage(a: PageAccount, actorId: string, profile: string, statuses: PageStatus[], opts: AccountPageOptions): string {
  const fields = a.fields.length ? `<dl>${a.fields.map((f) => `<dt>${f.name}</dt><dd>${fieldValue(f.value)}</dd>`).join("")}</dl>` : "";
  const following = opts.hideFollowsCount ? `<span id="following">follows hidden</span>` : `<span id="following">${a.following_count} following</span>`;
  const followers = opts.hideFollowersCount ? `<span id="followers">followers hidden</span>` : `<span id="followers">${a.followers_count} followers</span>`;
  const counts = `<p>${a.statuses_count} posts · ${following} · ${followers}</p>`;
  const body = `<header><h1>${byline(a, profile)}</h1><div>${a.note}</div>${fields}${counts}</header>${statuses.map((s) => statusBody(s, profile)).join("")}`;
  const meta: [string, string][] = [
    ["og:title", nameOf(a)],
    ["og:url", a.url],
    ["og:description", summaryText(a.note)],
    ["og:type", "article"],
    ["og:image", a.avatar],
    ["og:image:width", "150"],
    ["og:image:height", "150"],
    ["twitter:card", "summary"],
    ...(opts.noindex ? [["robots", "noindex, noarchive"] as [string, string]] : []),
  ];
  const links: [string, string][] = relMeLinks(a).map((href) => ["me", href]);
  return layout(nameOf(a), { alternate: actorId, feed: opts.feed, canonical: profile, meta, links }, body);
}

/** The first attachment if it plays (video or audio) and the status is public: what `/notice/:id/embed_player` shows. */
export function playable(s: PageStatus) {
  const first = s.media_attachments[0];
  return s.visibility === "public" && first && (first.type === "video" || first.type === "audio") ? { url: first.url, type: first.type as "video" | "audio" } : null;
}

/** `/notice/:id/embed_player`: the status's video or audio alone, for the `twitter:player` card's frame. */
export function playerPage(media: { url: string; type: "video" | "audio" }): string {
  const tag = media.type;
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Player</title><style>body{margin:0}video{width:100%;height:100vh}</style></head>
<body><${tag} controls loop src="${escapeHtml(media.url)}">Your browser does not support ${tag} playback.</${tag}></body></html>
`;
}

export function statusPage(s: PageStatus, profile: string, baseUrl: string): string {
  const description = s.spoiler_text || summaryText(s.content);
  const images = s.sensitive ? [] : s.media_attachments.filter((m) => m.type === "image" || m.type === "gifv");
  const player = s.sensitive ? null : playable(s);
  const meta: [string, string][] = [
    ["og:title", nameOf(s.account)],
    ["og:url", s.url ?? s.uri],
    ["og:description", description],
    ["og:type", "article"],
    ...(images.length
      ? images.flatMap((m): [string, string][] => [["og:image", m.url], ["og:image:alt", m.description ?? ""]])
      : ([["og:image", s.account.avatar], ["og:image:width", "150"], ["og:image:height", "150"]] as [string, string][])),
    ...(player
      ? ([[`og:${player.type}`, player.url], ["twitter:card", "player"], ["twitter:player", `${baseUrl}/notice/${s.id}/embed_player`], ["twitter:player:width", "480"], ["twitter:player:height", "480"]] as [string, string][])
      : ([["twitter:card", images.length ? "summary_large_image" : "summary"]] as [string, string][])),
  ];
  return layout(`${s.account.display_name}: ${description.slice(0, 80)}`, { alternate: s.uri, canonical: s.url ?? s.uri, meta }, statusBody(s, profile));
}

/** `/`: what the instance is, its rules and figures, how to join, and the staff's way in. */
export function landingPage(i: LandingInfo, baseUrl: string): string {
  const rules = i.rules.length
    ? `<section><h2>Rules</h2><ol>${i.rules.map((r) => `<li>${escapeHtml(r.text)}${r.hint ? `<br><small>${escapeHtml(r.hint)}</small>` : ""}</li>`).join("")}</ol></section>`
    : "";
  const joining = i.registrationsOpen
    ? `<p id="register">Registrations are open: <a id="registration" href="${escapeHtml(`${baseUrl}/registration`)}">create an account</a>, or sign up from any Mastodon-API app by entering the server <strong>${escapeHtml(i.domain)}</strong>.</p>`
    : i.invitesEnabled
      ? `<p>Registration is by invitation only: the invitation e-mail links to the sign-up form.</p>`
      : `<p>Registrations are closed.</p>`;
  const body = `<header><h1>${escapeHtml(i.title)}</h1><p>${escapeHtml(i.description)}</p></header>
<section><h2>About</h2><ul><li><span id="users">${i.userCount}</span> users</li><li><span id="statuses">${i.statusCount}</span> posts</li><li>connected to <span id="domains">${i.domainCount}</span> other servers</li></ul></section>
${rules}
<section><h2>Join</h2>${joining}</section>
<footer><p><a id="sign-in" href="${escapeHtml(`${baseUrl}/admin`)}">Sign in</a> (administration, for staff)</p></footer>`;
  const meta: [string, string][] = [
    ["description", i.description],
    ["og:title", i.title],
    ["og:description", i.description],
    ["og:type", "website"],
    ["og:url", `${baseUrl}/`],
    ["og:image", i.thumbnail],
  ];
  return layout(i.title, { canonical: `${baseUrl}/`, meta, links: [["manifest", `${baseUrl}/manifest.json`]] }, body);
}
