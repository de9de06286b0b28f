// Calls of the family's clients that this suite does not replay against the single test server, each
// with the reason and where the behaviour is tested instead.
export const EXCEPTIONS: Record<string, string> = {
  "POST /api/v1/pleroma/admin/relay":
    "following a relay needs a remote relay actor that accepts the Follow: replayed with admin-fe's body ({relay_url}) between two servers in test/federation/relays.integration.test.ts",
  "GET /api/v2/pleroma/admin/config/descriptions":
    "served by neither family server (absent from both endpoint inventories, ../shared/notes/*-endpoints.tsv): admin-fe's probe of a later API answers 404 there as here, and admin-fe reads the v1 descriptions (replayed)",
};
