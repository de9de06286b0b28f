// Atom and RSS feeds of public statuses: an account's (`/users/:nickname/feed`) and a hashtag's
// (`/tags/:tag`), in the formats the family serves. Written by hand: two small fixed documents, every
// text through the XML escaper, status HTML carried as escaped text (`type="html"`, RSS `description`),
// as feed readers expect; a feed library would add a dependency for what fits on one screen.
import { escapeHtml as x } from "../../kernel/escape.ts";
import { summaryText, type PageStatus } from "./html.ts";

export type FeedFormat = "atom" | "rss";

export interface FeedMeta {
  /** the feed's own address (Atom id, `rel="self"`) */
  self: string;
  title: string;
  subtitle: string;
  /** the page the feed is about (the profile, the instance) */
  link: string;
  /** the account the feed is of; a tag's feed names none */
  author?: { name: string; uri: string; avatar: string };
  /** where the next (older) page is, when the page was full */
  next?: string;
}

export const FEED_TYPES: Record<FeedFormat, string> = { atom: "application/atom+xml", rss: "application/rss+xml" };

const titleOf = (s: PageStatus) => s.spoiler_text || summaryText(s.content, 80) || "…";

/** Status HTML with its attachments linked, for readers that show the entry's content. */
function entryHtml(s: PageStatus): string {
  const media = s.media_attachments.map((m) => `<p><a href="${x(m.url)}">${x(m.description || m.url)}</a></p>`).join("");
  return s.spoiler_text ? `<p><strong>${x(s.spoiler_text)}</strong></p>${s.content}${media}` : `${s.content}${media}`;
}

function atom(meta: FeedMeta, statuses: PageStatus[]): string {
  const updated = statuses[0]?.created_at ?? new Date(0).toISOString();
  const author = meta.author ? `<author><name>${x(meta.author.name)}</name><uri>${x(meta.author.uri)}</uri></author>\n<logo>${x(meta.author.avatar)}</logo>\n` : "";
  const entries = statuses.map(
    (s) => `<entry>
<id>${x(s.uri)}</id>
<title>${x(titleOf(s))}</title>
<link rel="alternate" type="text/html" href="${x(s.url ?? s.uri)}"/>
<published>${x(s.created_at)}</published>
<updated>${x(s.created_at)}</updated>
<author><name>${x(s.account.display_name || s.account.acct)}</name><uri>${x(s.account.url)}</uri></author>
${s.media_attachments.map((m) => `<link rel="enclosure" href="${x(m.url)}"/>`).join("\n")}
<content type="html">${x(entryHtml(s))}</content>
</entry>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
<id>${x(meta.self)}</id>
<title>${x(meta.title)}</title>
<subtitle>${x(meta.subtitle)}</subtitle>
<updated>${x(updated)}</updated>
<link rel="self" type="application/atom+xml" href="${x(meta.self)}"/>
<link rel="alternate" type="text/html" href="${x(meta.link)}"/>
${meta.next ? `<link rel="next" type="application/atom+xml" href="${x(meta.next)}"/>\n` : ""}${author}${entries.join("\n")}
</feed>
`;
}

function rss(meta: FeedMeta, statuses: PageStatus[]): string {
  const items = statuses.map(
    (s) => `<item>
<guid isPermaLink="false">${x(s.uri)}</guid>
<title>${x(titleOf(s))}</title>
<link>${x(s.url ?? s.uri)}</link>
<pubDate>${new Date(s.created_at).toUTCString()}</pubDate>
<description>${x(entryHtml(s))}</description>
</item>`,
  );
  const image = meta.author ? `<image><url>${x(meta.author.avatar)}</url><title>${x(meta.title)}</title><link>${x(meta.link)}</link></image>\n` : "";
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">
<channel>
<title>${x(meta.title)}</title>
<link>${x(meta.link)}</link>
<description>${x(meta.subtitle)}</description>
<atom:link rel="self" type="application/rss+xml" href="${x(meta.self)}"/>
${meta.next ? `<atom:link rel="next" type="application/rss+xml" href="${x(meta.next)}"/>\n` : ""}${image}${items.join("\n")}
</channel>
</rss>
`;
}

export function renderFeed(format: FeedFormat, meta: FeedMeta, statuses: PageStatus[]): string {
  return format === "atom" ? atom(meta, statuses) : rss(meta, statuses);
}
