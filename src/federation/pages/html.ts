// Small public HTML pages of accounts and statuses, for browsers that open an ActivityPub URL (the family
// sends them to its front end; we have none bundled). Every text is escaped; status content is the
// sanitised HTML stored with the status. Each page names its ActivityStreams document as an alternate.
import { escapeHtml } from "../../domain/escape.ts";

export interface PageAccount {
  display_name: string;
  acct: string;
  fqn: string;
  url: string;
  avatar: string;
  note: string;
  fields: { name: string; value: string }[];
}

export interface PageStatus {
  id: string;
  url: string | null;
  uri: string;
  created_at: string;
  content: string;
  spoiler_text: string;
  account: PageAccount;
  media_attachments: { url: string; description: string | null; type: string }[];
}

const STYLE = "body{font-family:sans-serif;max-width:40em;margin:2em auto;padding:0 1em;color:#222}img.avatar{width:48px;height:48px;border-radius:4px;vertical-align:middle;margin-right:.5em}article{border-top:1px solid #ddd;padding:1em 0}dt{font-weight:bold}time{color:#666;font-size:.9em}";

function layout(title: string, alternate: string, canonical: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="alternate" type="application/activity+json" href="${escapeHtml(alternate)}">
<link rel="canonical" href="${escapeHtml(canonical)}">
<style>${STYLE}</style></head>
<body>${body}</body></html>
`;
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

export function accountPage(a: PageAccount, actorId: string, profile: string, statuses: PageStatus[]): string {
  const fields = a.fields.length ? `<dl>${a.fields.map((f) => `<dt>${f.name}</dt><dd>${f.value}</dd>`).join("")}</dl>` : "";
  const body = `<header><h1>${byline(a, profile)}</h1><div>${a.note}</div>${fields}</header>${statuses.map((s) => statusBody(s, profile)).join("")}`;
  return layout(`${a.display_name} (@${a.fqn})`, actorId, profile, body);
}

export function statusPage(s: PageStatus, profile: string): string {
  return layout(`${s.account.display_name}: ${s.spoiler_text || s.content.replace(/<[^>]*>/g, " ").trim().slice(0, 80)}`, s.uri, s.url ?? s.uri, statusBody(s, profile));
}
