// The family's content policies (MRF) applied to a status before it is stored: each returns the
// status as it may be kept (rewritten) or the reason it is refused. They work on the domain's data, after
// the object was read (src/federation/remote/objects.ts), so every way a status comes in — an inbox
// Create or Update, an Announce of an unknown post, a fetch — goes through the same rules.
import type { RuntimeConfig } from "../../../config/runtime.ts";
import { escapeHtml } from "../../../kernel/escape.ts";
import { hostRule } from "../../instance/rejected-domains.ts";
import { htmlToText } from "../../statuses/formatter.ts";
import type { RemoteStatusData } from "../../statuses/remote.ops.ts";
import { matches, patternRegExp } from "./patterns.ts";

export type Filtered<T> = { ok: true; value: T } | { ok: false; reason: string };
const keep = <T>(value: T): Filtered<T> => ({ ok: true, value });
const refuse = <T>(reason: string): Filtered<T> => ({ ok: false, reason });

type Data = RemoteStatusData;
/** What KeywordPolicy and HashtagPolicy read and rewrite: a remote status, or a local post being drafted. */
export type PolicySubject = Pick<RemoteStatusData, "content" | "spoilerText" | "source" | "sensitive" | "visibility" | "tags"> & { poll: { options: string[] } | null };

/** Public → unlisted: off the public timelines, still reachable (the family moves Public from `to` to `cc`). */
const delisted = <D extends PolicySubject>(d: D): D => (d.visibility === "public" ? { ...d, visibility: "unlisted" } : d);

/** SimplePolicy: the rules about the author's server. */
export function simplePolicy(config: RuntimeConfig, host: string, d: Data): Filtered<Data> {
  const rules = config.group("mrf_simple");
  if (hostRule(rules.media_removal, host) && d.media.length > 0) d = { ...d, media: [] };
  if (hostRule(rules.media_nsfw, host) && d.media.length > 0) d = { ...d, sensitive: true };
  if (hostRule(rules.federated_timeline_removal, host)) d = delisted(d);
  if (hostRule(rules.followers_only, host) && (d.visibility === "public" || d.visibility === "unlisted")) d = { ...d, visibility: "private" };
  return keep(d);
}

/** The text KeywordPolicy looks at: content, content warning and poll options, as the family does. */
const keywordText = (d: PolicySubject) => [htmlToText(d.content), d.spoilerText, ...(d.poll?.options ?? [])].join("\n");

/** KeywordPolicy: refusal, delisting and replacement by patterns. */
export function keywordPolicy<D extends PolicySubject>(config: RuntimeConfig, d: D): Filtered<D> {
  const rules = config.group("mrf_keyword");
  const text = keywordText(d);
  const rejected = rules.reject.find((p) => matches(text, p));
  if (rejected !== undefined) return refuse(`[KeywordPolicy] Matches with rejected keyword`);
  if (rules.federated_timeline_removal.some((p) => matches(text, p))) d = delisted(d);
  for (const { pattern, replacement } of rules.replace) {
    const re = patternRegExp(pattern);
    if (!re) continue;
    // the content is HTML: the replacement goes in as text
    const content = d.content.replace(re, () => escapeHtml(replacement));
    const spoilerText = d.spoilerText.replace(patternRegExp(pattern)!, () => replacement);
    const source = d.source.replace(patternRegExp(pattern)!, () => replacement);
    d = { ...d, content, spoilerText, source };
  }
  return keep(d);
}

/** HashtagPolicy: refusal, delisting and the sensitive mark by hashtag (always on, as in the family). */
export function hashtagPolicy<D extends PolicySubject>(config: RuntimeConfig, d: D): Filtered<D> {
  const rules = config.group("mrf_hashtag");
  const has = (names: string[]) => names.some((n) => d.tags.includes(n.replace(/^#/, "").toLowerCase()));
  if (has(rules.reject)) return refuse("[HashtagPolicy] Matches with rejected hashtag");
  if (has(rules.federated_timeline_removal)) d = delisted(d);
  if (has(rules.sensitive)) d = { ...d, sensitive: true };
  return keep(d);
}

/**
 * ObjectAgePolicy: posts older than the threshold when they arrive. `strip_followers` takes the
 * followers out of the audience: a followers-only post then reaches only the accounts it addresses
 * (direct); public and unlisted ones keep their visibility (home timelines here are read from follows).
 */
export function objectAgePolicy(config: RuntimeConfig, now: Date, d: Data): Filtered<Data> {
  const { threshold, actions } = config.group("mrf_object_age");
  if (now.getTime() - d.createdAt.getTime() <= threshold * 1000) return keep(d);
  if (actions.includes("reject")) return refuse("[ObjectAgePolicy] Post is too old");
  if (actions.includes("delist")) d = delisted(d);
  if (actions.includes("strip_followers") && d.visibility === "private") d = { ...d, visibility: "direct" };
  return keep(d);
}
