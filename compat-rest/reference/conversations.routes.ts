// (filled in by the reading-side issue)
import type { RouteDef } from "../route.ts";

export const conversationRoutes: RouteDef[] = [];
