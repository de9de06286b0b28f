// Own API: the frontends' configuration, a runtime setting passed through as it is.
import { route } from "../../src/http/routes/route.ts";
import { FrontendConfigurationsSchema } from "../../src/views/schemas/tools.ts";

export const frontendConfigurationRoutes = [
  route({
    method: "GET",
    // the family's web client calls the legacy /api/<ns>/ path at boot
    path: ["/api/v1/$ns/frontend_configurations", "/api/$ns/frontend_configurations"],
    summary: "Settings for the frontends, keyed by frontend",
    view: FrontendConfigurationsSchema,
    tags: ["Instance"],
    auth: "public",
    handler: async (ctx) => ctx.config.group("frontend_configurations"),
  }),
];
