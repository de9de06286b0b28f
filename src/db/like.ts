/**
 * A host as remote accounts, emoji and instances store it: lowered (`new URL(apId).host.toLowerCase()`), so
 * an exact comparison finds it. Never `{ equals, mode: "insensitive" }` on a domain: that is ILIKE, where `_`
 * is a wildcard (purging `ex_mple.com` would take `example.com` with it).
 */
export const storedHost = (host: string) => host.trim().toLowerCase();

/** Escapes LIKE wildcards: Prisma's `contains`/`startsWith` pass `%` and `_` through as wildcards. */
export const likeLiteral = (s: string) => s.replace(/[\\%_]/g, "\\$&");
