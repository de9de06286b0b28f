// OAuth scopes are hierarchical: a granted scope covers every scope below it
// (`read` covers `read:accounts`; `admin` covers `admin:read` covers `admin:read:accounts`).
/** The legacy `follow` scope predates the split scopes; the family keeps it meaning these. */
const FOLLOW_COVERS = ["read:follows", "write:follows", "read:blocks", "write:blocks", "read:mutes", "write:mutes"];

export function covers(granted: string, required: string): boolean {
  if (granted === required || required.startsWith(granted + ":")) return true;
  return granted === "follow" && FOLLOW_COVERS.some((s) => required === s || required.startsWith(s + ":"));
}

/** True when any of the `granted` scopes covers any one of `anyOf` (a route lists alternatives). */
export function hasScope(granted: readonly string[], anyOf: readonly string[]): boolean {
  return anyOf.some((required) => granted.some((g) => covers(g, required)));
}

/** Parses "read write" / "read,write" / ["read"] into a de-duplicated list. */
export function parseScopes(input: string | readonly string[] | undefined | null): string[] {
  const parts = typeof input === "string" ? input.split(/[\s,+]+/) : [...(input ?? [])];
  return [...new Set(parts.map((s) => s.trim()).filter(Boolean))];
}

export function isKnownScope(scope: string): boolean {
  return /^(read|write|follow|push|admin)(:[a-z_]+)*$/.test(scope);
}

/** The scopes of a request limited to what the app registered; every requested scope must be allowed. */
export function narrowScopes(requested: string[], allowed: string[]): string[] | null {
  if (requested.length === 0) return allowed;
  return requested.every((s) => allowed.some((a) => covers(a, s))) ? requested : null;
}
