// The instance's refusal of whole servers (the family's SimplePolicy `reject` list, runtime setting
// `mrf_simple.reject`): their activities are refused before any processing, and nothing of theirs is
// fetched or stored. `*.host` covers the subdomains of `host`; a plain `host` covers its subdomains too,
// as the family matches them.
import type { Ctx } from "../context.ts";

/** The rule refusing `host`, or null when the host is welcome. */
export function rejectedBy(ctx: Pick<Ctx, "config">, host: string | null | undefined): { host: string; reason: string } | null {
  if (!host) return null;
  const h = host.toLowerCase().replace(/\.$/, "");
  for (const rule of ctx.config.get("mrf_simple", "reject")) {
    const pattern = rule.host.toLowerCase().trim().replace(/^\*\./, "");
    if (pattern && (h === pattern || h.endsWith(`.${pattern}`))) return rule;
  }
  return null;
}

/** The host of a URL (with its port), or null when it is not one. */
export function hostOf(url: string | URL | null | undefined): string | null {
  if (!url) return null;
  try {
    return new URL(url).host;
  } catch {
    return null;
  }
}
