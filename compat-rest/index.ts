// Every REST route of the server, in one list: mounted by src/server.ts, described by compat-rest/openapi.ts.
import { wellKnownRoutes } from "../src/federation/wellknown.routes.ts";
import { pageRoutes } from "../src/federation/pages/pages.routes.ts";
import { adminUserLookupRoutes, adminUserRoutes } from "./admin/users.routes.ts";
import { oauthRoutes } from "./oauth/oauth.routes.ts";
import { oauthMfaRoutes } from "./oauth/mfa.routes.ts";
import { ownMfaRoutes } from "./own/mfa.routes.ts";
import { adminDocumentFrontendRoutes } from "./admin/documents-frontends.routes.ts";
import { backupRoutes } from "./own/backups.routes.ts";
import { captchaRoutes } from "./own/captcha.routes.ts";
import { mascotRoutes } from "./own/mascot.routes.ts";
import { frontendConfigurationRoutes } from "./own/frontend-configurations.routes.ts";
import { passwordResetRoutes } from "./oauth/password-reset.routes.ts";
import { inviteRegistrationRoutes } from "./oauth/invite-registration.routes.ts";
import { ownAccountActionRoutes } from "./own/account-actions.routes.ts";
import { ownInstanceRoutes } from "./own/instance.routes.ts";
import { ownRelationshipRoutes } from "./own/relationships.routes.ts";
import { remoteInteractionRoutes } from "./own/remote-interaction.routes.ts";
import { remoteFollowRoutes } from "./own/remote-follow.routes.ts";
import { ownTokenRoutes } from "./own/tokens.routes.ts";
import { reactionRoutes } from "./own/reactions.routes.ts";
import { emojiPackRoutes } from "./own/emoji-packs.routes.ts";
import { customEmojiRoutes } from "./reference/custom-emojis.routes.ts";
import { adminEmojiRoutes } from "./admin/emoji.routes.ts";
import { accountRoutes } from "./reference/accounts.routes.ts";
import { conversationRoutes } from "./reference/conversations.routes.ts";
import { chatRoutes } from "./own/chats.routes.ts";
import { adminChatRoutes } from "./admin/chats.routes.ts";
import { listRoutes } from "./reference/lists.routes.ts";
import { bookmarkRoutes } from "./reference/bookmarks.routes.ts";
import { favouriteRoutes } from "./reference/favourites.routes.ts";
import { suggestionRoutes } from "./reference/suggestions.routes.ts";
import { stubRoutes } from "./reference/stubs.routes.ts";
import { filterRoutes } from "./reference/filters.routes.ts";
import { notificationRoutes } from "./reference/notifications.routes.ts";
import { notificationRequestRoutes } from "./reference/notification-requests.routes.ts";
import { searchRoutes } from "./reference/search.routes.ts";
import { timelineRoutes } from "./reference/timelines.routes.ts";
import { appRoutes } from "./reference/apps.routes.ts";
import { instanceRoutes } from "./reference/instance.routes.ts";
import { trendRoutes } from "./reference/trends.routes.ts";
import { mediaRoutes } from "./reference/media.routes.ts";
import { pollRoutes } from "./reference/polls.routes.ts";
import { registrationRoutes } from "./reference/registration.routes.ts";
import { reportRoutes } from "./reference/reports.routes.ts";
import { adminReportRoutes } from "./admin/reports.routes.ts";
import { adminStatusRoutes } from "./admin/statuses.routes.ts";
import { adminInstanceRoutes } from "./admin/instances.routes.ts";
import { adminModerationLogRoutes } from "./admin/moderation-log.routes.ts";
import { adminStatsRoutes } from "./admin/stats.routes.ts";
import { adminInviteRoutes } from "./admin/invites.routes.ts";
import { adminRelayRoutes } from "./admin/relays.routes.ts";
import { adminMediaProxyRoutes } from "./admin/media-proxy.routes.ts";
import { adminOAuthAppRoutes } from "./admin/oauth-apps.routes.ts";
import { adminAnnouncementRoutes } from "./admin/announcements.routes.ts";
import { adminConfigRoutes } from "./admin/config.routes.ts";
import { announcementRoutes } from "./reference/announcements.routes.ts";
import { scheduledStatusRoutes } from "./reference/scheduled-statuses.routes.ts";
import { pushRoutes } from "./reference/push.routes.ts";
import { statusActionRoutes } from "./reference/status-actions.routes.ts";
import { relationshipRoutes } from "./reference/relationships.routes.ts";
import { severedRelationshipRoutes } from "./reference/severed-relationships.routes.ts";
import { statusRoutes } from "./reference/statuses.routes.ts";
import { ownAppRoutes } from "./own/apps.routes.ts";
import { appSettingsRoutes } from "./own/app-settings.routes.ts";
import { federationStatusRoutes } from "./own/federation-status.routes.ts";
import { manifestRoutes } from "./own/manifest.routes.ts";
import { adminRuleRoutes } from "./admin/rules.routes.ts";
import { bookmarkFolderRoutes } from "./own/bookmark-folders.routes.ts";
import { scrobbleRoutes } from "./own/scrobbles.routes.ts";
import { quoteRoutes } from "./own/quotes.routes.ts";
import { birthdayRoutes } from "./own/birthdays.routes.ts";
import { frontendProfileRoutes } from "./own/frontend-profiles.routes.ts";
import { frontendSwitcherRoutes } from "./own/frontend-switcher.routes.ts";
import { akkomaMetricsRoutes } from "./own/akkoma-metrics.routes.ts";
import { tagRoutes } from "./reference/tags.routes.ts";
import { referenceAccountRoutes } from "./admin/reference-accounts.routes.ts";
import { referenceDomainBlockRoutes } from "./admin/reference-domain-blocks.routes.ts";
import { referenceTrendRoutes } from "./admin/reference-trends.routes.ts";
import { referenceBlocklistRoutes } from "./admin/reference-blocklists.routes.ts";
import { referenceWarningPresetRoutes } from "./admin/reference-warning-presets.routes.ts";
import { referenceMetricRoutes } from "./admin/reference-metrics.routes.ts";
import type { RouteDef } from "./route.ts";

export const allRoutes: readonly RouteDef[] = [
  ...oauthRoutes,
  ...oauthMfaRoutes,
  ...adminDocumentFrontendRoutes,
  ...backupRoutes,
  ...captchaRoutes,
  ...mascotRoutes,
  ...frontendConfigurationRoutes,
  ...manifestRoutes,
  ...federationStatusRoutes,
  ...ownAppRoutes,
  ...appSettingsRoutes,
  ...bookmarkFolderRoutes,
  ...scrobbleRoutes,
  ...quoteRoutes,
  ...birthdayRoutes,
  ...frontendProfileRoutes,
  ...frontendSwitcherRoutes,
  ...akkomaMetricsRoutes,
  ...passwordResetRoutes,
  ...inviteRegistrationRoutes,
  ...appRoutes,
  ...instanceRoutes,
  ...trendRoutes,
  ...registrationRoutes,
  // fixed account paths (relationships, verify_credentials, search, …) come before /api/v1/accounts/:id
  ...relationshipRoutes,
  ...severedRelationshipRoutes,
  ...listRoutes,
  ...bookmarkRoutes,
  ...favouriteRoutes,
  ...suggestionRoutes,
  ...stubRoutes,
  ...filterRoutes,
  ...accountRoutes,
  ...mediaRoutes,
  ...statusRoutes,
  ...statusActionRoutes,
  ...pollRoutes,
  ...scheduledStatusRoutes,
  ...pushRoutes,
  ...reportRoutes,
  ...adminReportRoutes,
  ...adminStatusRoutes,
  ...adminInstanceRoutes,
  ...adminModerationLogRoutes,
  ...adminStatsRoutes,
  // fixed /users/invite_token, /users/invites, … paths: before the users helper's /users/:nickname_or_id
  ...adminInviteRoutes,
  ...adminRelayRoutes,
  ...adminMediaProxyRoutes,
  ...adminOAuthAppRoutes,
  ...adminAnnouncementRoutes,
  ...adminConfigRoutes,
  ...adminRuleRoutes,
  // the reference admin API (/api/v1/admin/…, /api/v2/admin/accounts)
  ...referenceAccountRoutes,
  ...referenceDomainBlockRoutes,
  ...referenceTrendRoutes,
  ...referenceBlocklistRoutes,
  ...referenceWarningPresetRoutes,
  ...referenceMetricRoutes,
  ...announcementRoutes,
  ...reactionRoutes,
  ...emojiPackRoutes,
  ...customEmojiRoutes,
  ...adminEmojiRoutes,
  ...timelineRoutes,
  ...tagRoutes,
  // before notificationRoutes: `/api/v1/notifications/:id` would take `requests` and `policy`
  ...notificationRequestRoutes,
  ...notificationRoutes,
  ...conversationRoutes,
  ...chatRoutes,
  ...adminChatRoutes,
  ...searchRoutes,
  ...ownTokenRoutes,
  ...ownInstanceRoutes,
  ...ownAccountActionRoutes,
  ...ownMfaRoutes,
  ...ownRelationshipRoutes,
  ...remoteInteractionRoutes,
  ...remoteFollowRoutes,
  ...adminUserRoutes,
  ...wellKnownRoutes,
  ...pageRoutes,
  // GET admin /users/:nickname_or_id stays last: every fixed GET /users/<word> path (invites, …) must match first
  ...adminUserLookupRoutes,
];
