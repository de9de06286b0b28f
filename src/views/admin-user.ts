// The admin API's user object and user credentials. The user object carries the fields of both
// variants of the family (earlier: deactivated, *_pending; later: is_active, is_confirmed, …), so
// either generation of admin clients reads it. Rendering needs no queries.
import type { Account } from "../../src/generated/prisma/client.ts";
import type { Ctx } from "../../src/domain/context.ts";
import type { CreateItemResult } from "../../src/domain/accounts/admin-users.ops.ts";
import { avatarUrl, headerUrl } from "../domain/media/defaults.ts";
import { plainToHtml } from "./html.ts";

const displayName = (a: Account) => a.displayName || (a.local ? a.nickname : a.nickname.split("@")[0]!);

export function renderAdminUser(ctx: Ctx, a: Account) {
  return {
    id: a.id,
    nickname: a.nickname,
    email: a.email,
    avatar: avatarUrl(ctx, a),
    display_name: displayName(a),
    deactivated: a.deactivated,
    is_active: !a.deactivated,
    local: a.local,
    // the instance of a remote user (null for local users; an extension)
    domain: a.domain ?? null,
    roles: { admin: a.isAdmin, moderator: a.isModerator },
    tags: a.tags,
    confirmation_pending: a.confirmationPending,
    is_confirmed: !a.confirmationPending,
    approval_pending: a.approvalPending,
    is_approved: !a.approvalPending,
    is_suggested: a.isSuggested,
    url: a.apId,
    registration_reason: a.registrationReason,
    actor_type: a.actorType,
    created_at: a.createdAt.toISOString(),
  };
}

export const renderAdminUsers = (ctx: Ctx, accounts: Account[]) => accounts.map((a) => renderAdminUser(ctx, a));

/** The user credentials object of the spec: what PATCH …/credentials edits, as it is now. */
export function renderCredentials(ctx: Ctx, a: Account) {
  const fields = (a.fields as { name: string; value: string }[]) ?? [];
  return {
    id: a.id,
    nickname: a.nickname,
    email: a.email,
    name: displayName(a),
    bio: a.note,
    avatar: avatarUrl(ctx, a),
    banner: headerUrl(ctx, a),
    background: a.background,
    actor_type: a.actorType,
    allow_following_move: a.allowFollowingMove,
    default_scope: a.defaultScope,
    discoverable: a.discoverable,
    fields: fields.map((f) => ({ name: f.name, value: a.local ? plainToHtml(f.value) : f.value })),
    raw_fields: fields.map((f, id) => ({ id, name: f.name, value: f.value })),
    hide_favorites: a.hideFavorites,
    hide_followers: a.hideFollowers,
    hide_followers_count: a.hideFollowersCount,
    hide_follows: a.hideFollows,
    hide_follows_count: a.hideFollowsCount,
    locked: a.locked,
    no_rich_text: a.noRichText,
    [`${ctx.settings.namespace}_settings_store`]: a.settingsStore,
    show_role: a.showRole,
    skip_thread_containment: a.skipThreadContainment,
  };
}

/** The family's item for a created user. */
export const renderCreated = (a: Pick<Account, "nickname" | "email">): CreateItemResult => ({ code: 200, type: "success", data: { nickname: a.nickname, email: a.email ?? "" } });
