// Turns what an author typed into safe HTML: Markdown through markdown-it, HTML input and the
// result through sanitize-html, plain text escaped and linkified with markdown-it's linkify-it. Mentions and
// hashtags are found in the text (never inside links or code) and linked.
import MarkdownIt from "markdown-it";
import sanitizeHtml from "sanitize-html";
import type { Account } from "../../generated/prisma/client.ts";
import type { Ctx } from "../context.ts";
import { escapeHtml } from "../../kernel/escape.ts";
import { Unprocessable } from "../../kernel/errors.ts";
import { accountsByName } from "../../db/account-names.ts";

export const CONTENT_TYPES = ["text/plain", "text/markdown", "text/html"] as const;

const markdown = new MarkdownIt({ html: false, linkify: true, breaks: true });
const linkify = markdown.linkify; // the same URL detection for plain text as for Markdown

// @nick, @nick@host, @nick@host:port — not inside words or e-mail addresses
const MENTION = /(^|[^\p{L}\p{N}_@/&;])@([A-Za-z0-9_][A-Za-z0-9_.-]*?)(?:@([A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*(?::\d+)?))?(?=$|[^A-Za-z0-9_@-]|\.(?:$|\s))/gu;
const HASHTAG = /(^|[^\p{L}\p{N}_&#/])#([\p{L}\p{N}_]*\p{L}[\p{L}\p{N}_]*)/gu;

const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: ["p", "br", "span", "a", "em", "strong", "b", "i", "u", "del", "s", "code", "pre", "blockquote", "ul", "ol", "li", "h1", "h2", "h3", "h4", "h5", "h6", "sup", "sub", "hr"],
  allowedAttributes: { a: ["href", "class", "rel", "title"], span: ["class"], code: ["class"], ol: ["start"] },
  allowedClasses: { a: ["mention", "hashtag", "u-url"], span: ["h-card", "invisible", "ellipsis"], code: [/^language-[\w-]+$/] },
  allowedSchemes: ["http", "https", "mailto", "xmpp", "gopher", "dat", "ipfs", "ipns", "magnet"],
  transformTags: { a: (tagName, attribs) => ({ tagName, attribs: { ...attribs, rel: attribs.class?.includes("hashtag") ? "tag" : "nofollow noopener noreferrer" } }) },
};

export interface Formatted {
  html: string;
  mentions: Account[];
  /** lower-cased, unique, in order of appearance */
  tags: string[];
}

/** The accounts named by @-mentions in `text` that exist here (local, or remote already known). */
export async function findMentions(ctx: Ctx, text: string): Promise<Account[]> {
  const handles = new Set<string>();
  for (const m of text.matchAll(MENTION)) handles.add(handleOf(ctx, m[2], m[3]));
  if (handles.size === 0) return [];
  const rows = await accountsByName(ctx.db, { nicknames: [...handles], active: true });
  return [...handles].map((h) => rows.find((r) => r.nickname.toLowerCase() === h)).filter((a): a is Account => !!a);
}

function handleOf(ctx: Ctx, nick: string, host: string | undefined) {
  return (!host || host.toLowerCase() === ctx.settings.domain.toLowerCase() ? nick : `${nick}@${host}`).toLowerCase();
}

export async function formatStatus(ctx: Ctx, text: string, contentType: string): Promise<Formatted> {
  const allowed = ctx.config.get("instance", "allowed_post_formats");
  if (!(CONTENT_TYPES as readonly string[]).includes(contentType) || !allowed.includes(contentType))
    throw Unprocessable(`content_type ${contentType} is not allowed (allowed: ${allowed.join(", ")})`, { content_type: "is not allowed" });
  const mentions = await findMentions(ctx, text);
  const tags: string[] = [];
  const byHandle = new Map(mentions.map((a) => [a.nickname.toLowerCase(), a]));

  const linkText = (segment: string) =>
    segment
      .replace(MENTION, (all, pre: string, nick: string, host: string | undefined) => {
        const account = byHandle.get(handleOf(ctx, nick, host));
        if (!account) return all;
        return `${pre}<span class="h-card"><a class="u-url mention" href="${escapeHtml(account.apId)}">@<span>${escapeHtml(account.nickname.split("@")[0])}</span></a></span>`;
      })
      .replace(HASHTAG, (_all, pre: string, name: string) => {
        const tag = name.toLowerCase();
        if (!tags.includes(tag)) tags.push(tag);
        return `${pre}<a class="hashtag" href="${ctx.settings.baseUrl}/tag/${encodeURIComponent(tag)}">#<span>${name}</span></a>`;
      });

  let html: string;
  if (contentType === "text/plain") html = mapTextOutsideLinks(linkifyPlain(text), linkText).replace(/\r?\n/g, "<br/>");
  else {
    const rendered = contentType === "text/markdown" ? markdown.render(text) : sanitizeHtml(text, SANITIZE);
    html = mapTextOutsideLinks(rendered, linkText);
  }
  return { html: sanitizeHtml(html, SANITIZE).trim(), mentions, tags };
}

/** HTML from another server (content, bios, profile field values), cleaned as local HTML input is. */
export function sanitizeRemoteHtml(html: string): string {
  return sanitizeHtml(html, SANITIZE).trim();
}

/** Escapes plain text and turns its URLs into links. */
function linkifyPlain(text: string): string {
  const matches = linkify.match(text) ?? [];
  let out = "";
  let last = 0;
  for (const m of matches) {
    out += escapeHtml(text.slice(last, m.index));
    out += `<a href="${escapeHtml(m.url)}">${escapeHtml(m.text)}</a>`;
    last = m.lastIndex;
  }
  return out + escapeHtml(text.slice(last));
}

/** Applies `fn` to the text between tags, skipping what is inside <a>, <code> and <pre>. */
function mapTextOutsideLinks(html: string, fn: (text: string) => string): string {
  let depth = 0;
  return html
    .split(/(<[^>]*>)/)
    .map((part) => {
      const tag = part.match(/^<(\/?)(a|code|pre)\b/i);
      if (tag) depth += tag[1] ? -1 : 1;
      if (part.startsWith("<") || depth > 0) return part;
      return fn(part);
    })
    .join("");
}

// Timelines render the same statuses over and over, and sanitize-html's parse was ~3 % of a home request's
// CPU: the function is pure, so the last texts are remembered (a Map keeps insertion order: the oldest goes first).
const recentTexts = new Map<string, string>();
const RECENT_TEXTS = 2_000;

/** Plain-text rendition of HTML (the `<ns>.content["text/plain"]` map, previews). */
export function htmlToText(html: string): string {
  const known = recentTexts.get(html);
  if (known !== undefined) return known;
  const text = parseToText(html);
  if (recentTexts.size >= RECENT_TEXTS) recentTexts.delete(recentTexts.keys().next().value!);
  recentTexts.set(html, text);
  return text;
}

function parseToText(html: string): string {
  const withBreaks = html.replace(/<br\s*\/?>/gi, "\n").replace(/<\/p>\s*<p>/gi, "\n\n");
  return sanitizeHtml(withBreaks, { allowedTags: [], allowedAttributes: {} })
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&#039;/g, "'")
    .replace(/&amp;/g, "&")
    .trim();
}
