// The web app manifest, for browsers installing the web client as an app.
import { webManifest } from "../../src/domain/instance/manifest.ops.ts";
import { route } from "../../src/http/routes/route.ts";
import { WebManifestSchema } from "../../src/views/schemas/tools.ts";

export const manifestRoutes = [
  route({
    method: "GET",
    path: "/manifest.json",
    summary: "Web app manifest: instance name and description, icon, theme and background colours (the `:manifest` settings)",
    view: WebManifestSchema,
    produces: "application/manifest+json",
    tags: ["Instance"],
    operation: webManifest,
    async handler(ctx, { res }) {
      res.type("application/manifest+json").json(await webManifest(ctx, {}));
      return undefined;
    },
  }),
];
