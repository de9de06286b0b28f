// GraphQL parity with the admin REST API (issue 15, criterion 1). The admin operations are read from the
// route table itself (every route under an admin prefix, and every route guarded by an admin role or
// privilege elsewhere, such as the emoji pack writes); each must name its GraphQL counterpart below or sit
// in EXCEPTIONS with a reason. The checks themselves (field exists, guarded alike, same domain operation)
// are test/support/graphql-parity.ts, shared with the client table (graphql-client-parity.unit.test.ts).
import { allRoutes } from "../../src/routes.ts";
import { authOf, pathsOf, type RouteDef } from "../../src/http/routes/route.ts";
import { describeParity } from "../support/graphql-parity.ts";

/** `METHOD path` (first path, namespace `ext`) → `Query.field` or `Mutation.field`. */
const COUNTERPARTS: Record<string, string> = {
  "GET /api/v1/ext/admin/instance_document/:name": "Query.instanceDocument",
  "PATCH /api/v1/ext/admin/instance_document/:name": "Mutation.updateInstanceDocument",
  "DELETE /api/v1/ext/admin/instance_document/:name": "Mutation.deleteInstanceDocument",
  "GET /api/v1/ext/admin/frontends": "Query.frontends",
  "GET /api/v1/own/metrics": "Query.serverMetrics",
  "POST /api/v1/ext/admin/frontends/install": "Mutation.installFrontend",
  "POST /api/v1/ext/admin/backups": "Mutation.requestUserBackup",
  "GET /api/v1/ext/admin/reports": "Query.adminReports",
  "GET /api/v1/ext/admin/grouped_reports": "Query.adminGroupedReports",
  "GET /api/v1/ext/admin/reports/:id": "Query.adminReport",
  "PATCH /api/v1/ext/admin/reports": "Mutation.updateReportState",
  "POST /api/v1/ext/admin/reports/:id/notes": "Mutation.addReportNote",
  "DELETE /api/v1/ext/admin/reports/:report_id/notes/:id": "Mutation.deleteReportNote",
  "GET /api/v1/ext/admin/statuses": "Query.adminStatuses",
  "GET /api/v1/ext/admin/statuses/:id": "Query.adminStatus",
  "PUT /api/v1/ext/admin/statuses/:id": "Mutation.adminUpdateStatus",
  "DELETE /api/v1/ext/admin/statuses/:id": "Mutation.adminDeleteStatus",
  "GET /api/v1/ext/admin/instances": "Query.adminInstances",
  "GET /api/v1/ext/admin/instances/:instance": "Query.adminInstance",
  "GET /api/v1/ext/admin/instances/:instance/statuses": "Query.adminInstanceStatuses",
  "DELETE /api/v1/ext/admin/instances/:instance": "Mutation.purgeInstance",
  "GET /api/v1/ext/admin/moderation_log": "Query.moderationLog",
  "GET /api/v1/ext/admin/stats": "Query.stats",
  "POST /api/v1/ext/admin/users/invite_token": "Mutation.createInvite",
  "GET /api/v1/ext/admin/users/invites": "Query.adminInvites",
  "POST /api/v1/ext/admin/users/revoke_invite": "Mutation.revokeInvite",
  "POST /api/v1/ext/admin/users/email_invite": "Mutation.emailInvite",
  "GET /api/v1/ext/admin/relay": "Query.adminRelays",
  "POST /api/v1/ext/admin/relay": "Mutation.followRelay",
  "DELETE /api/v1/ext/admin/relay": "Mutation.unfollowRelay",
  "GET /api/v1/ext/admin/media_proxy_caches": "Query.mediaProxyBans",
  "POST /api/v1/ext/admin/media_proxy_caches/delete": "Mutation.unbanMediaProxyUrls",
  "POST /api/v1/ext/admin/media_proxy_caches/purge": "Mutation.purgeMediaProxyUrls",
  "GET /api/v1/ext/admin/oauth_app": "Query.adminOAuthApps",
  "POST /api/v1/ext/admin/oauth_app": "Mutation.createOAuthApp",
  "PATCH /api/v1/ext/admin/oauth_app/:id": "Mutation.updateOAuthApp",
  "DELETE /api/v1/ext/admin/oauth_app/:id": "Mutation.deleteOAuthApp",
  "GET /api/v1/ext/admin/announcements": "Query.adminAnnouncements",
  "GET /api/v1/ext/admin/announcements/:id": "Query.adminAnnouncement",
  "POST /api/v1/ext/admin/announcements": "Mutation.createAnnouncement",
  "PATCH /api/v1/ext/admin/announcements/:id": "Mutation.updateAnnouncement",
  "DELETE /api/v1/ext/admin/announcements/:id": "Mutation.deleteAnnouncement",
  "GET /api/v1/ext/admin/config": "Query.config",
  "POST /api/v1/ext/admin/config": "Mutation.updateConfig",
  "GET /api/v1/ext/admin/config/descriptions": "Query.configDescriptions",
  "GET /api/v1/ext/admin/need_reboot": "Query.needReboot",
  "GET /api/v1/ext/admin/restart": "Mutation.restart",
  "GET /api/v1/ext/admin/rules": "Query.adminRules",
  "POST /api/v1/ext/admin/rules": "Mutation.createRule",
  "PATCH /api/v1/ext/admin/rules/:id": "Mutation.updateRule",
  "DELETE /api/v1/ext/admin/rules/:id": "Mutation.deleteRule",
  "POST /api/v1/ext/emoji/pack": "Mutation.createEmojiPack",
  "PATCH /api/v1/ext/emoji/pack": "Mutation.updateEmojiPackMetadata",
  "DELETE /api/v1/ext/emoji/pack": "Mutation.deleteEmojiPack",
  "GET /api/v1/ext/emoji/packs/import": "Mutation.importEmojiPacks",
  "GET /api/v1/ext/emoji/packs/remote": "Query.remoteEmojiPacksJson",
  "POST /api/v1/ext/emoji/packs/download": "Mutation.downloadEmojiPack",
  "POST /api/v1/ext/emoji/packs/files": "Mutation.addEmoji",
  "PATCH /api/v1/ext/emoji/packs/files": "Mutation.renameEmoji",
  "DELETE /api/v1/ext/emoji/packs/files": "Mutation.deleteEmoji",
  "POST /api/v1/ext/admin/reload_emoji": "Mutation.reloadEmoji",
  "GET /api/v1/ext/admin/users/:nickname/chats": "Query.adminUserChats",
  "GET /api/v1/ext/admin/chats/:id": "Query.adminChat",
  "GET /api/v1/ext/admin/chats/:id/messages": "Query.adminChatMessages",
  "DELETE /api/v1/ext/admin/chats/:id/messages/:message_id": "Mutation.adminDeleteChatMessage",
  "GET /api/v1/ext/admin/users": "Query.adminUsers",
  "POST /api/v1/ext/admin/users": "Mutation.adminCreateUsers",
  "DELETE /api/v1/ext/admin/users": "Mutation.adminDeleteUsers",
  "POST /api/v1/ext/admin/users/follow": "Mutation.adminFollow",
  "POST /api/v1/ext/admin/users/unfollow": "Mutation.adminUnfollow",
  "PUT /api/v1/ext/admin/users/tag": "Mutation.adminTagUsers",
  "DELETE /api/v1/ext/admin/users/tag": "Mutation.adminUntagUsers",
  "PATCH /api/v1/ext/admin/users/activate": "Mutation.adminActivateUsers",
  "PATCH /api/v1/ext/admin/users/deactivate": "Mutation.adminDeactivateUsers",
  "PATCH /api/v1/ext/admin/users/approve": "Mutation.adminApproveUsers",
  "PATCH /api/v1/ext/admin/users/suggest": "Mutation.adminSuggestUsers",
  "PATCH /api/v1/ext/admin/users/unsuggest": "Mutation.adminUnsuggestUsers",
  "PATCH /api/v1/ext/admin/users/confirm_email": "Mutation.adminConfirmEmail",
  "PATCH /api/v1/ext/admin/users/resend_confirmation_email": "Mutation.adminResendConfirmationEmail",
  "PATCH /api/v1/ext/admin/users/force_password_reset": "Mutation.adminForcePasswordReset",
  "PUT /api/v1/ext/admin/users/disable_mfa": "Mutation.adminDisableMfa",
  "POST /api/v1/ext/admin/users/permission_group/:permission_group": "Mutation.adminGrantPermission",
  "DELETE /api/v1/ext/admin/users/permission_group/:permission_group": "Mutation.adminRevokePermission",
  "GET /api/v1/ext/admin/users/:nickname/permission_group": "Query.adminPermissionGroups",
  "POST /api/v1/ext/admin/users/:nickname/permission_group/:permission_group": "Mutation.adminGrantPermission",
  "DELETE /api/v1/ext/admin/users/:nickname/permission_group/:permission_group": "Mutation.adminRevokePermission",
  "PATCH /api/v1/ext/admin/users/:nickname/toggle_activation": "Mutation.adminToggleActivation",
  "GET /api/v1/ext/admin/users/:nickname_or_id/statuses": "Query.adminUserStatuses",
  "GET /api/v1/ext/admin/users/:nickname/password_reset": "Mutation.adminPasswordReset",
  "GET /api/v1/ext/admin/users/:nickname/credentials": "Query.adminUserCredentials",
  "PATCH /api/v1/ext/admin/users/:nickname/credentials": "Mutation.adminUpdateCredentials",
  "GET /api/v1/ext/admin/users/:nickname_or_id": "Query.adminUser",
  // the reference admin API
  "GET /api/v1/admin/accounts": "Query.adminAccounts",
  "GET /api/v1/admin/accounts/:id": "Query.adminUser",
  "POST /api/v1/admin/accounts/:id/approve": "Mutation.adminApproveUsers",
  "POST /api/v1/admin/accounts/:id/reject": "Mutation.adminRejectUsers",
  "POST /api/v1/admin/accounts/:id/action": "Mutation.adminAccountAction",
  "POST /api/v1/admin/accounts/:id/enable": "Mutation.adminActivateUsers",
  "POST /api/v1/admin/accounts/:id/unsuspend": "Mutation.adminActivateUsers",
  "POST /api/v1/admin/accounts/:id/unsilence": "Mutation.adminUntagUsers",
  "POST /api/v1/admin/accounts/:id/unsensitive": "Mutation.adminUntagUsers",
  "DELETE /api/v1/admin/accounts/:id": "Mutation.adminDeleteUsers",
  "GET /api/v1/admin/reports": "Query.adminReferenceReports",
  "GET /api/v1/admin/reports/:id": "Query.adminReferenceReport",
  "PUT /api/v1/admin/reports/:id": "Mutation.adminUpdateReportDetails",
  "POST /api/v1/admin/reports/:id/assign_to_self": "Mutation.adminAssignReport",
  "POST /api/v1/admin/reports/:id/unassign": "Mutation.adminAssignReport",
  "POST /api/v1/admin/reports/:id/resolve": "Mutation.adminSetReportResolved",
  "POST /api/v1/admin/reports/:id/reopen": "Mutation.adminSetReportResolved",
  "GET /api/v1/admin/domain_blocks": "Query.adminDomainBlocks",
  "GET /api/v1/admin/domain_blocks/:id": "Query.adminDomainBlock",
  "POST /api/v1/admin/domain_blocks": "Mutation.createDomainBlock",
  "PUT /api/v1/admin/domain_blocks/:id": "Mutation.updateDomainBlock",
  "DELETE /api/v1/admin/domain_blocks/:id": "Mutation.deleteDomainBlock",
  "GET /api/v1/admin/domain_allows": "Query.adminDomainAllows",
  "GET /api/v1/admin/domain_allows/:id": "Query.adminDomainAllow",
  "POST /api/v1/admin/domain_allows": "Mutation.createDomainAllow",
  "DELETE /api/v1/admin/domain_allows/:id": "Mutation.deleteDomainAllow",
  "GET /api/v1/admin/warning_presets": "Query.adminWarningPresets",
  "GET /api/v1/admin/warning_presets/:id": "Query.adminWarningPreset",
  "POST /api/v1/admin/warning_presets": "Mutation.createWarningPreset",
  "PUT /api/v1/admin/warning_presets/:id": "Mutation.updateWarningPreset",
  "DELETE /api/v1/admin/warning_presets/:id": "Mutation.deleteWarningPreset",
  "GET /api/v1/admin/email_domain_blocks": "Query.adminEmailDomainBlocks",
  "GET /api/v1/admin/email_domain_blocks/:id": "Query.adminEmailDomainBlock",
  "POST /api/v1/admin/email_domain_blocks": "Mutation.createEmailDomainBlock",
  "DELETE /api/v1/admin/email_domain_blocks/:id": "Mutation.deleteEmailDomainBlock",
  "GET /api/v1/admin/canonical_email_blocks": "Query.adminCanonicalEmailBlocks",
  "POST /api/v1/admin/canonical_email_blocks/test": "Query.adminTestCanonicalEmailBlocks",
  "GET /api/v1/admin/canonical_email_blocks/:id": "Query.adminCanonicalEmailBlock",
  "POST /api/v1/admin/canonical_email_blocks": "Mutation.createCanonicalEmailBlock",
  "DELETE /api/v1/admin/canonical_email_blocks/:id": "Mutation.deleteCanonicalEmailBlock",
  "GET /api/v1/admin/ip_blocks": "Query.adminIpBlocks",
  "GET /api/v1/admin/ip_blocks/:id": "Query.adminIpBlock",
  "POST /api/v1/admin/ip_blocks": "Mutation.createIpBlock",
  "PUT /api/v1/admin/ip_blocks/:id": "Mutation.updateIpBlock",
  "DELETE /api/v1/admin/ip_blocks/:id": "Mutation.deleteIpBlock",
  "POST /api/v1/admin/measures": "Query.adminMeasures",
  "POST /api/v1/admin/dimensions": "Query.adminDimensions",
  "POST /api/v1/admin/retention": "Query.adminRetention",
  "GET /api/v1/admin/trends/tags": "Query.adminTrendingTags",
  "POST /api/v1/admin/trends/tags/:id/approve": "Mutation.reviewTrendingTag",
  "POST /api/v1/admin/trends/tags/:id/reject": "Mutation.reviewTrendingTag",
  "GET /api/v1/admin/trends/statuses": "Query.adminTrendingStatuses",
  "POST /api/v1/admin/trends/statuses/:id/approve": "Mutation.reviewTrendingStatus",
  "POST /api/v1/admin/trends/statuses/:id/reject": "Mutation.reviewTrendingStatus",
};

/** Admin REST operations with no GraphQL counterpart, each with the reason. */
const EXCEPTIONS: Record<string, string> = {
  "GET /api/v1/admin/trends/links": "links never trend here (no preview cards are fetched): the route answers [] without an operation",
  "POST /api/v1/admin/trends/links/:id/approve": "links never trend here (no preview cards are fetched): the route answers 404",
  "POST /api/v1/admin/trends/links/:id/reject": "links never trend here (no preview cards are fetched): the route answers 404",
};

/**
 * Guard differences that are deliberate: the field is guarded differently from the route, and why.
 * (Everything else must match exactly.)
 */
const GUARD_EXCEPTIONS: Record<string, string> = {};

/**
 * Domain-call differences that are deliberate: the REST handler and the resolver reach the same
 * operation through different helpers.
 */
const CALL_EXCEPTIONS: Record<string, string> = {};

function isAdminRoute(r: RouteDef): boolean {
  if (pathsOf(r, "ext").some((p) => p.includes("/admin/"))) return true;
  const auth = authOf(r);
  return auth !== "public" && !!(auth.role || auth.privilege);
}

describeParity({
  name: "admin",
  routes: allRoutes.filter(isAdminRoute),
  atLeast: 80,
  counterparts: COUNTERPARTS,
  exceptions: EXCEPTIONS,
  guardExceptions: GUARD_EXCEPTIONS,
  callExceptions: CALL_EXCEPTIONS,
});
