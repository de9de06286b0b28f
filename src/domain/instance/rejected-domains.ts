// The instance's refusal of whole servers (the family's SimplePolicy `reject` list, runtime setting
// `mrf_simple.reject`, and its allow-list mode `mrf_simple.accept`): their activities are refused before
// any processing, and nothing of theirs is fetched or stored. `*.host` covers the subdomains of `host`; a
// plain `host` covers its subdomains too, as the family matches them.
import type { HostReason } from "../../config/runtime.ts";
import type { Ctx } from "../context.ts";

/** The rule of `rules` that names `host` (or one of its parents), or null. */
export function hostRule(rules: readonly HostReason[], host: string | null | undefined): HostReason | null {
  if (!host) return null;
  const h = host.toLowerCase().replace(/\.$/, "");
  for (const rule of rules) {
    const pattern = rule.host.toLowerCase().trim().replace(/^\*\./, "");
    if (pattern && (h === pattern || h.endsWith(`.${pattern}`))) return rule;
  }
  return null;
}

/**
 * The rule refusing `host`, or null when the host is welcome: listed in `reject`, or, when `accept` is
 * not empty (allow-list mode), not listed there. This instance's own host is always welcome.
 */
export function rejectedBy(ctx: Pick<Ctx, "config" | "settings">, host: string | null | undefined): HostReason | null {
  if (!host) return null;
  const rejected = hostRule(ctx.config.get("mrf_simple", "reject"), host);
  if (rejected) return rejected;
  const accept = ctx.config.get("mrf_simple", "accept");
  if (accept.length === 0 || host.toLowerCase() === ctx.settings.domain.toLowerCase() || hostRule(accept, host)) return null;
  return { host, reason: "not in the accepted instances" };
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
