// (filled in by the accounts issue)
import type { RouteDef } from "../../compat-rest/route.ts";

export const wellKnownRoutes: RouteDef[] = [];
