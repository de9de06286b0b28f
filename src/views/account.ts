// The Account entity in the reference API's shape with the family's `<ns>` and `<family>` objects.
// `renderAccounts` loads what every account needs in a fixed number of queries, then renders.
import type { Account } from "../../src/generated/prisma/client.ts";
import type { Ctx } from "../../src/domain/context.ts";
import { loadAccountCounts, loadOwnerCounts, visibleCounts, type AccountCounts } from "../../src/domain/accounts/account-counts.ts";
import { loadFound } from "../../src/domain/loaders.ts";
import { loadRelationships, type RelationshipState } from "../../src/domain/relationships/relationships.read.ts";
import { renderRelationship } from "./relationship.ts";
import { renderEmojis } from "./emoji.ts";
import { escapeHtml, plainToHtml } from "./html.ts";
import { avatarUrl, headerUrl } from "../domain/media/defaults.ts";
import { rolePrivileges } from "../../src/domain/auth/policy.ts";
import { extensionObjects } from "./extensions.ts";

export interface AccountRenderOptions {
  /** embed the viewer's relationship in `<ns>.relationship` (with_relationships) */
  withRelationships?: boolean;
  /** the owner's own view (verify_credentials, update_credentials): source, settings store, private flags */
  asOwner?: boolean;
  /** counts already read with the accounts (loadStatusData reads the authors' with the page): only the others are loaded */
  counts?: ReadonlyMap<string, AccountCounts>;
}

type Rendered = ReturnType<typeof renderOne>;

export async function renderAccounts(ctx: Ctx, accounts: Account[], opts: AccountRenderOptions = {}): Promise<Rendered[]> {
  if (accounts.length === 0) return [];
  const viewer = ctx.viewer.account;
  const known = opts.counts;
  const missing = known ? accounts.filter((a) => !known.has(a.id)) : accounts;
  const [loaded, relationships, movedTo, ownerCounts] = await Promise.all([
    missing.length > 0 ? loadAccountCounts(ctx, missing.map((a) => a.id)) : Promise.resolve(new Map<string, AccountCounts>()),
    viewer && opts.withRelationships ? loadRelationships(ctx, viewer.id, accounts) : Promise.resolve(new Map<string, RelationshipState>()),
    loadMovedTo(ctx, accounts),
    viewer && opts.asOwner ? loadOwnerCounts(ctx, viewer.id) : Promise.resolve(undefined),
  ]);
  return accounts.map((a) => renderOne(ctx, a, known?.get(a.id) ?? loaded.get(a.id)!, relationships.get(a.id), movedTo, opts, ownerCounts));
}

export async function renderAccount(ctx: Ctx, account: Account, opts: AccountRenderOptions = {}) {
  return (await renderAccounts(ctx, [account], opts))[0];
}

async function loadMovedTo(ctx: Ctx, accounts: Account[]) {
  const ids = accounts.map((a) => a.movedToId).filter((id): id is string => !!id);
  const rows = await loadFound(ctx.loaders.account, [...new Set(ids)]);
  return new Map(rows.map((r) => [r.id, r]));
}

export function acctOf(a: Pick<Account, "nickname">) {
  return a.nickname; // local: "alice"; remote accounts are stored as "alice@host"
}

function renderOne(
  ctx: Ctx,
  a: Account,
  counts: AccountCounts,
  relationship: RelationshipState | undefined,
  movedTo: Map<string, Account>,
  opts: AccountRenderOptions,
  ownerCounts = { followRequests: 0, unreadNotifications: 0 },
  depth = 0,
): any {
  const ns = ctx.settings.namespace;
  const isOwner = ctx.viewer.account?.id === a.id;
  const owner = !!opts.asOwner && isOwner;
  const fields = (a.fields as { name: string; value: string }[]) ?? [];
  const avatar = avatarUrl(ctx, a);
  const header = headerUrl(ctx, a);
  const showRole = a.showRole || isOwner;
  const moved = a.movedToId ? movedTo.get(a.movedToId) : undefined;
  const shown = visibleCounts(a, counts, ctx.viewer.account?.id);
  return {
    id: a.id,
    username: a.local ? a.nickname : a.nickname.split("@")[0],
    acct: acctOf(a),
    fqn: a.local ? `${a.nickname}@${ctx.settings.domain}` : a.nickname,
    display_name: a.displayName || (a.local ? a.nickname : a.nickname.split("@")[0]),
    locked: a.locked,
    bot: a.actorType === "Service" || a.actorType === "Application",
    group: a.actorType === "Group",
    discoverable: a.discoverable,
    created_at: a.createdAt.toISOString(),
    note: a.local ? plainToHtml(a.note) : a.note,
    // a remote actor's profile page when it names one
    url: a.url ?? a.apId,
    avatar,
    avatar_static: avatar,
    header,
    header_static: header,
    followers_count: shown.followers,
    following_count: shown.following,
    statuses_count: shown.statuses,
    last_status_at: a.lastStatusAt ? a.lastStatusAt.toISOString().slice(0, 10) : null,
    emojis: renderEmojis(a.emojis, ctx),
    fields: fields.map((f) => ({ name: escapeHtml(f.name), value: a.local ? plainToHtml(f.value) : f.value, verified_at: null })),
    moved: moved && depth === 0 ? renderOne(ctx, moved, { followers: 0, following: 0, statuses: 0 }, undefined, movedTo, {}, undefined, 1) : null,
    ...(owner
      ? {
          source: {
            note: a.note,
            fields: fields.map((f) => ({ name: f.name, value: f.value })),
            privacy: a.defaultScope,
            sensitive: false,
            language: a.language,
            follow_requests_count: ownerCounts.followRequests,
            [ns]: { show_role: a.showRole, no_rich_text: a.noRichText, discoverable: a.discoverable, actor_type: a.actorType, show_birthday: a.showBirthday },
          },
        }
      : {}),
    ...extensionObjects(
      ctx.settings,
      {
      ap_id: a.apId,
      background_image: a.background,
      tags: a.tags,
      relationship: relationship ? renderRelationship(relationship) : {},
      is_moderator: showRole ? a.isModerator : null,
      is_admin: showRole ? a.isAdmin : null,
      // what the account may do in the admin API, where its role is shown (the family's admin front end signs in on it)
      ...(showRole ? { privileges: rolePrivileges(ctx, a) } : {}),
      confirmation_pending: a.confirmationPending,
      hide_favorites: a.hideFavorites,
      hide_followers: a.hideFollowers,
      hide_follows: a.hideFollows,
      hide_followers_count: a.hideFollowersCount,
      hide_follows_count: a.hideFollowsCount,
      deactivated: a.deactivated,
      allow_following_move: a.allowFollowingMove,
      accepts_chat_messages: a.acceptsChatMessages,
      also_known_as: a.alsoKnownAs,
      favicon: null,
      skip_thread_containment: a.skipThreadContainment,
      // the family's birthday (YYYY-MM-DD), shown when the account allows it, and to itself
      birthday: a.birthday && (a.showBirthday || isOwner) ? a.birthday.toISOString().slice(0, 10) : null,
      ...(owner
        ? {
            settings_store: a.settingsStore,
            notification_settings: a.notificationSettings,
            unread_conversation_count: 0,
            unread_notifications_count: ownerCounts.unreadNotifications,
            chat_token: "",
            email: a.email,
          }
        : {}),
    },
      {
        instance: a.local ? null : { name: a.domain, favicon: null, nodeinfo: null },
        status_ttl_days: a.statusTtlDays,
        permit_followback: a.permitFollowback,
        web_feed: null,
      },
    ),
  };
}
