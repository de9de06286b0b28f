// Every REST route of the server, in one list: mounted by src/server.ts, described by src/http/routes/openapi.ts.
import { wellKnownRoutes } from "../src/federation/wellknown.routes.ts";
import { pageRoutes } from "../src/federation/pages/pages.routes.ts";
import { adminUserLookupRoutes, adminUserRoutes } from "../compat-rest/admin/users.routes.ts";
import { oauthRoutes } from "../compat-rest/oauth/oauth.routes.ts";
import { oauthMfaRoutes } from "../compat-rest/oauth/mfa.routes.ts";
import { ownMfaRoutes } from "../compat-rest/own/mfa.routes.ts";
import { adminDocumentFrontendRoutes } from "../compat-rest/admin/documents-frontends.routes.ts";
import { backupRoutes } from "../compat-rest/own/backups.routes.ts";
import { captchaRoutes } from "../compat-rest/own/captcha.routes.ts";
import { mascotRoutes } from "../compat-rest/own/mascot.routes.ts";
import { frontendConfigurationRoutes } from "../compat-rest/own/frontend-configurations.routes.ts";
import { passwordResetRoutes } from "../compat-rest/oauth/password-reset.routes.ts";
import { inviteRegistrationRoutes } from "../compat-rest/oauth/invite-registration.routes.ts";
import { ownAccountActionRoutes } from "../compat-rest/own/account-actions.routes.ts";
import { ownInstanceRoutes } from "../compat-rest/own/instance.routes.ts";
import { ownRelationshipRoutes } from "../compat-rest/own/relationships.routes.ts";
import { remoteInteractionRoutes } from "../compat-rest/own/remote-interaction.routes.ts";
import { remoteFollowRoutes } from "../compat-rest/own/remote-follow.routes.ts";
import { ownTokenRoutes } from "../compat-rest/own/tokens.routes.ts";
import { reactionRoutes } from "../compat-rest/own/reactions.routes.ts";
import { emojiPackRoutes } from "../compat-rest/own/emoji-packs.routes.ts";
import { customEmojiRoutes } from "../compat-rest/reference/custom-emojis.routes.ts";
import { adminEmojiRoutes } from "../compat-rest/admin/emoji.routes.ts";
import { accountRoutes } from "../compat-rest/reference/accounts.routes.ts";
import { conversationRoutes } from "../compat-rest/reference/conversations.routes.ts";
import { chatRoutes } from "../compat-rest/own/chats.routes.ts";
import { adminChatRoutes } from "../compat-rest/admin/chats.routes.ts";
import { listRoutes } from "../compat-rest/reference/lists.routes.ts";
import { bookmarkRoutes } from "../compat-rest/reference/bookmarks.routes.ts";
import { favouriteRoutes } from "../compat-rest/reference/favourites.routes.ts";
import { suggestionRoutes } from "../compat-rest/reference/suggestions.routes.ts";
import { stubRoutes } from "../compat-rest/reference/stubs.routes.ts";
import { filterRoutes } from "../compat-rest/reference/filters.routes.ts";
import { notificationRoutes } from "../compat-rest/reference/notifications.routes.ts";
import { notificationRequestRoutes } from "../compat-rest/reference/notification-requests.routes.ts";
import { searchRoutes } from "../compat-rest/reference/search.routes.ts";
import { timelineRoutes } from "../compat-rest/reference/timelines.routes.ts";
import { appRoutes } from "../compat-rest/reference/apps.routes.ts";
import { instanceRoutes } from "../compat-rest/reference/instance.routes.ts";
import { trendRoutes } from "../compat-rest/reference/trends.routes.ts";
import { mediaRoutes } from "../compat-rest/reference/media.routes.ts";
import { pollRoutes } from "../compat-rest/reference/polls.routes.ts";
import { registrationRoutes } from "../compat-rest/reference/registration.routes.ts";
import { reportRoutes } from "../compat-rest/reference/reports.routes.ts";
import { adminReportRoutes } from "../compat-rest/admin/reports.routes.ts";
import { adminStatusRoutes } from "../compat-rest/admin/statuses.routes.ts";
import { adminInstanceRoutes } from "../compat-rest/admin/instances.routes.ts";
import { adminModerationLogRoutes } from "../compat-rest/admin/moderation-log.routes.ts";
import { adminStatsRoutes } from "../compat-rest/admin/stats.routes.ts";
import { adminInviteRoutes } from "../compat-rest/admin/invites.routes.ts";
import { adminRelayRoutes } from "../compat-rest/admin/relays.routes.ts";
import { adminMediaProxyRoutes } from "../compat-rest/admin/media-proxy.routes.ts";
import { adminOAuthAppRoutes } from "../compat-rest/admin/oauth-apps.routes.ts";
import { adminAnnouncementRoutes } from "../compat-rest/admin/announcements.routes.ts";
import { adminConfigRoutes } from "../compat-rest/admin/config.routes.ts";
import { announcementRoutes } from "../compat-rest/reference/announcements.routes.ts";
import { scheduledStatusRoutes } from "../compat-rest/reference/scheduled-statuses.routes.ts";
import { pushRoutes } from "../compat-rest/reference/push.routes.ts";
import { statusActionRoutes } from "../compat-rest/reference/status-actions.routes.ts";
import { relationshipRoutes } from "../compat-rest/reference/relationships.routes.ts";
import { severedRelationshipRoutes } from "../compat-rest/reference/severed-relationships.routes.ts";
import { statusRoutes } from "../compat-rest/reference/statuses.routes.ts";
import { ownAppRoutes } from "../compat-rest/own/apps.routes.ts";
import { appSettingsRoutes } from "../compat-rest/own/app-settings.routes.ts";
import { federationStatusRoutes } from "../compat-rest/own/federation-status.routes.ts";
import { manifestRoutes } from "../compat-rest/own/manifest.routes.ts";
import { adminRuleRoutes } from "../compat-rest/admin/rules.routes.ts";
import { bookmarkFolderRoutes } from "../compat-rest/own/bookmark-folders.routes.ts";
import { scrobbleRoutes } from "../compat-rest/own/scrobbles.routes.ts";
import { quoteRoutes } from "../compat-rest/own/quotes.routes.ts";
import { birthdayRoutes } from "../compat-rest/own/birthdays.routes.ts";
import { frontendProfileRoutes } from "../compat-rest/own/frontend-profiles.routes.ts";
import { frontendSwitcherRoutes } from "../compat-rest/own/frontend-switcher.routes.ts";
import { akkomaMetricsRoutes } from "../compat-rest/own/akkoma-metrics.routes.ts";
import { tagRoutes } from "../compat-rest/reference/tags.routes.ts";
import { referenceAccountRoutes } from "../compat-rest/admin/reference-accounts.routes.ts";
import { referenceDomainBlockRoutes } from "../compat-rest/admin/reference-domain-blocks.routes.ts";
import { referenceTrendRoutes } from "../compat-rest/admin/reference-trends.routes.ts";
import { referenceBlocklistRoutes } from "../compat-rest/admin/reference-blocklists.routes.ts";
import { referenceWarningPresetRoutes } from "../compat-rest/admin/reference-warning-presets.routes.ts";
import { referenceMetricRoutes } from "../compat-rest/admin/reference-metrics.routes.ts";
import type { RouteDef } from "./http/routes/route.ts";

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
