// Reference API endpoints this server answers with an empty array: v1 suggestions and identity proofs.
import { route, type RouteDef } from "../../src/http/routes/route.ts";
import { EmptyArraySchema } from "../../src/views/schemas/misc.ts";

function emptyArray(path: string, auth: RouteDef["auth"]): RouteDef {
  return route({ method: "GET", path, view: EmptyArraySchema, summary: "Always an empty array", tags: ["Stubs"], auth, handler: async () => [] });
}

// the spec fixes v1 suggestions as an empty stub; the staff's suggestions are served by v2
export const stubRoutes: RouteDef[] = [
  emptyArray("/api/v1/suggestions", { scopes: ["read"], optional: true }),
  emptyArray("/api/v1/identity_proofs", { scopes: ["read:accounts"], optional: true }),
  // the later family answers an account's identity proofs with [] (megalodon asks for them)
  emptyArray("/api/v1/accounts/:id/identity_proofs", { scopes: ["read:accounts"] }),
];

