// (filled in by the accounts issue)
import type { RouteDef } from "../route.ts";

export const accountRoutes: RouteDef[] = [];
