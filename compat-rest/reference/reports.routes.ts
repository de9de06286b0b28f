// (filled in by the statuses issue)
import type { RouteDef } from "../route.ts";

export const reportRoutes: RouteDef[] = [];
