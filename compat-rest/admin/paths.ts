// The admin API answers under both prefixes the family's clients use.
export const ADMIN_PREFIXES = ["/api/v1/$ns/admin", "/api/$ns/admin"] as const;

/** `admin("/users")` → the path under every admin prefix. */
export function admin(...paths: string[]): string[] {
  return ADMIN_PREFIXES.flatMap((prefix) => paths.map((p) => prefix + p));
}
