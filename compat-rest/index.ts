// Every REST route of the server, in one list: mounted by src/server.ts, described by compat-rest/openapi.ts.
import { wellKnownRoutes } from "../src/federation/wellknown.routes.ts";
import { oauthRoutes } from "./oauth/oauth.routes.ts";
import { adminDocumentFrontendRoutes } from "./admin/documents-frontends.routes.ts";
import { passwordResetRoutes } from "./oauth/password-reset.routes.ts";
import { ownAccountActionRoutes } from "./own/account-actions.routes.ts";
import { ownInstanceRoutes } from "./own/instance.routes.ts";
import { ownRelationshipRoutes } from "./own/relationships.routes.ts";
import { ownTokenRoutes } from "./own/tokens.routes.ts";
import { reactionRoutes } from "./own/reactions.routes.ts";
import { accountRoutes } from "./reference/accounts.routes.ts";
import { conversationRoutes } from "./reference/conversations.routes.ts";
import { listFilterRoutes } from "./reference/lists-filters.routes.ts";
import { notificationRoutes } from "./reference/notifications.routes.ts";
import { searchRoutes } from "./reference/search.routes.ts";
import { timelineRoutes } from "./reference/timelines.routes.ts";
import { appRoutes } from "./reference/apps.routes.ts";
import { instanceRoutes } from "./reference/instance.routes.ts";
import { mediaRoutes } from "./reference/media.routes.ts";
import { pollRoutes } from "./reference/polls.routes.ts";
import { registrationRoutes } from "./reference/registration.routes.ts";
import { reportRoutes } from "./reference/reports.routes.ts";
import { scheduledStatusRoutes } from "./reference/scheduled-statuses.routes.ts";
import { statusActionRoutes } from "./reference/status-actions.routes.ts";
import { relationshipRoutes } from "./reference/relationships.routes.ts";
import { statusRoutes } from "./reference/statuses.routes.ts";
import type { RouteDef } from "./route.ts";

export const allRoutes: readonly RouteDef[] = [
  ...oauthRoutes,
  ...adminDocumentFrontendRoutes,
  ...passwordResetRoutes,
  ...appRoutes,
  ...instanceRoutes,
  ...registrationRoutes,
  // fixed account paths (relationships, verify_credentials, search, …) come before /api/v1/accounts/:id
  ...relationshipRoutes,
  ...listFilterRoutes,
  ...accountRoutes,
  ...mediaRoutes,
  ...statusRoutes,
  ...statusActionRoutes,
  ...pollRoutes,
  ...scheduledStatusRoutes,
  ...reportRoutes,
  ...reactionRoutes,
  ...timelineRoutes,
  ...notificationRoutes,
  ...conversationRoutes,
  ...searchRoutes,
  ...ownTokenRoutes,
  ...ownInstanceRoutes,
  ...ownAccountActionRoutes,
  ...ownRelationshipRoutes,
  ...wellKnownRoutes,
];
