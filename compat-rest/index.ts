// Every REST route of the server, in one list: mounted by src/server.ts, described by compat-rest/openapi.ts.
import { oauthRoutes } from "./oauth/oauth.routes.ts";
import { ownInstanceRoutes } from "./own/instance.routes.ts";
import { ownTokenRoutes } from "./own/tokens.routes.ts";
import { appRoutes } from "./reference/apps.routes.ts";
import { instanceRoutes } from "./reference/instance.routes.ts";
import type { RouteDef } from "./route.ts";

export const allRoutes: readonly RouteDef[] = [...oauthRoutes, ...appRoutes, ...instanceRoutes, ...ownTokenRoutes, ...ownInstanceRoutes];
