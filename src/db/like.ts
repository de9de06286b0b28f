/** Escapes LIKE wildcards: Prisma's `contains`/`startsWith` pass `%` and `_` through as wildcards. */
export const likeLiteral = (s: string) => s.replace(/[\\%_]/g, "\\$&");
