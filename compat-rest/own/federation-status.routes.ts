// Own API: which instances this server no longer reaches (the family's federation status).
import { federationStatus } from "../../src/domain/instance/federation-status.ops.ts";
import { route } from "../../src/http/routes/route.ts";
import { FederationStatusSchema } from "../../src/views/schemas/tools.ts";

export const federationStatusRoutes = [
  route({
    method: "GET",
    path: "/api/v1/$ns/federation_status",
    view: FederationStatusSchema,
    summary: "`{unreachable: {host: since}}`: instances whose deliveries have failed for 7 days or more",
    tags: ["Instance"],
    operation: federationStatus,
    handler: (ctx) => federationStatus(ctx, {}),
  }),
];
