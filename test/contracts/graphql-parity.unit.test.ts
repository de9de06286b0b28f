// GraphQL parity with the admin REST API (issue 15, criterion 1). The admin operations are read from the
// route table itself (every route under an admin prefix, and every route guarded by an admin role or
// privilege elsewhere, such as the emoji pack writes); each must name its GraphQL counterpart below or sit
// in EXCEPTIONS with a reason. For each pair the test checks that the field exists, that it is guarded as
// the route is (the same privilege or admin role, with the same OAuth scopes), and that its resolver calls
// a domain operation the route's handler calls too.
import type { GraphQLField } from "graphql";
import { describe, expect, test } from "vitest";
import { allRoutes } from "../../compat-rest/index.ts";
import { pathsOf, type RouteDef } from "../../compat-rest/route.ts";
import { schema } from "../../src/graphql/schema.ts";

/** `METHOD path` (first path, namespace `ext`) → `Query.field` or `Mutation.field`. */
const COUNTERPARTS: Record<string, string> = {
  "GET /api/v1/ext/admin/instance_document/:name": "Query.instanceDocument",
  "PATCH /api/v1/ext/admin/instance_document/:name": "Mutation.updateInstanceDocument",
  "DELETE /api/v1/ext/admin/instance_document/:name": "Mutation.deleteInstanceDocument",
  "GET /api/v1/ext/admin/frontends": "Query.frontends",
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

/** REST routes built by a helper that closes over the operation (`batch(path, …, activateUsers)`): the operation it is given. */
const REST_HELPER_OPERATION: Record<string, string> = {
  "PATCH /api/v1/ext/admin/users/activate": "activateUsers",
  "PATCH /api/v1/ext/admin/users/deactivate": "deactivateUsers",
  "PATCH /api/v1/ext/admin/users/approve": "approveUsers",
  "PATCH /api/v1/ext/admin/users/suggest": "suggestUsers",
  "PATCH /api/v1/ext/admin/users/unsuggest": "unsuggestUsers",
};

const keyOf = (r: RouteDef) => `${r.method} ${pathsOf(r, "ext")[0]}`;

function isAdminRoute(r: RouteDef): boolean {
  if (pathsOf(r, "ext").some((p) => p.includes("/admin/"))) return true;
  return r.auth !== "public" && !!(r.auth.role || r.auth.privilege);
}

const adminRoutes = allRoutes.filter(isAdminRoute);

function field(name: string): GraphQLField<unknown, unknown> | undefined {
  const [type, fieldName] = name.split(".");
  const t = type === "Query" ? schema.getQueryType() : schema.getMutationType();
  return t?.getFields()[fieldName!];
}

interface Guard {
  admin?: boolean;
  privilege?: string;
  scopes: string[];
}

function routeGuard(r: RouteDef): Guard | null {
  if (r.auth === "public") return null;
  const scopes = r.auth.scopes === "any" ? [] : [...r.auth.scopes];
  if (r.auth.privilege) return { privilege: r.auth.privilege, scopes };
  return { admin: r.auth.role === "admin", scopes };
}

function fieldGuard(f: GraphQLField<unknown, unknown>): Guard | null {
  const auth = (f.extensions?.pothosOptions as { authScopes?: { $all?: Record<string, unknown> } } | undefined)?.authScopes?.$all;
  if (!auth) return null;
  const scopes = [...((auth.scopes as string[]) ?? [])];
  if (auth.privilege) return { privilege: String(auth.privilege), scopes };
  return { admin: auth.admin === true, scopes };
}

/** Names called as `name(ctx` in a function's source: the domain operations it runs. */
function ctxCalls(fn: unknown): Set<string> {
  const source = typeof fn === "function" ? fn.toString() : "";
  // generic helper parameters (`op`) say nothing: those fields name their operation in `extensions.domainOperation`
  return new Set([...source.matchAll(/([A-Za-z_$][\w$]*)\)?\(\s*ctx\b/g)].map((m) => m[1]!).filter((n) => !/^render|^ctx$|^op$|^handler$/.test(n)));
}

describe("GraphQL parity with the admin REST API", () => {
  test("the route table yields the admin operations", () => {
    expect(adminRoutes.length).toBeGreaterThan(80);
  });

  test("every admin REST operation has a GraphQL counterpart or a justified exception", () => {
    const missing = adminRoutes.map(keyOf).filter((k) => !COUNTERPARTS[k] && !EXCEPTIONS[k]);
    expect(missing, `admin routes with no GraphQL counterpart:\n${missing.join("\n")}`).toEqual([]);
    for (const [k, reason] of Object.entries(EXCEPTIONS)) expect(reason.length, k).toBeGreaterThan(20);
  });

  test("the table names only routes that exist and fields that exist", () => {
    const keys = new Set(adminRoutes.map(keyOf));
    const stale = Object.keys(COUNTERPARTS).filter((k) => !keys.has(k));
    expect(stale, "counterparts naming no admin route").toEqual([]);
    const absent = Object.entries(COUNTERPARTS).filter(([, f]) => !field(f)).map(([k, f]) => `${k} → ${f}`);
    expect(absent, "GraphQL fields missing from the schema").toEqual([]);
  });

  test("each counterpart is guarded as its route is: the same privilege or admin role, with the same scopes", () => {
    const differing: string[] = [];
    for (const r of adminRoutes) {
      const k = keyOf(r);
      const name = COUNTERPARTS[k];
      if (!name || GUARD_EXCEPTIONS[k]) continue;
      const expected = routeGuard(r);
      const actual = fieldGuard(field(name)!);
      const norm = (g: Guard | null) => (g ? { ...g, scopes: [...g.scopes].sort() } : null);
      if (JSON.stringify(norm(expected)) !== JSON.stringify(norm(actual))) differing.push(`${k} ${JSON.stringify(expected)} ≠ ${name} ${JSON.stringify(actual)}`);
    }
    expect(differing).toEqual([]);
  });

  test("each counterpart's resolver calls a domain operation its route's handler calls", () => {
    const differing: string[] = [];
    for (const r of adminRoutes) {
      const k = keyOf(r);
      const name = COUNTERPARTS[k];
      if (!name || CALL_EXCEPTIONS[k]) continue;
      const f = field(name)!;
      const resolver = (f.extensions?.pothosOriginalResolve as unknown) ?? f.resolve;
      const rest = REST_HELPER_OPERATION[k] ? new Set([REST_HELPER_OPERATION[k]]) : ctxCalls(r.handler);
      const gql = ctxCalls(resolver);
      const declared = f.extensions?.domainOperation;
      if (typeof declared === "string") gql.add(declared);
      if (![...rest].some((n) => gql.has(n))) differing.push(`${k} calls [${[...rest]}]; ${name} calls [${[...gql]}]`);
    }
    expect(differing).toEqual([]);
  });
});
