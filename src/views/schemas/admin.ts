// The admin API's shapes (views/admin-user.ts, admin-report.ts; compat-rest/admin/): the family's
// user object, the reference Account merged with it (the admin Account), statuses and reports with
// such accounts.
import { z } from "zod";
import { AccountSchema } from "./account.ts";
import { StatusSchema } from "./status.ts";
import { shape, timestamp, view } from "./view.ts";

const adminUserFields = {
  id: z.string(),
  nickname: z.string(),
  email: z.string().nullable(),
  avatar: z.string(),
  display_name: z.string(),
  deactivated: z.boolean(),
  is_active: z.boolean(),
  local: z.boolean(),
  domain: z.string().nullable(),
  roles: z.object({ admin: z.boolean(), moderator: z.boolean() }),
  tags: z.array(z.string()),
  confirmation_pending: z.boolean(),
  is_confirmed: z.boolean(),
  approval_pending: z.boolean(),
  is_approved: z.boolean(),
  is_suggested: z.boolean(),
  url: z.string(),
  registration_reason: z.string().nullable(),
  actor_type: z.string(),
  created_at: timestamp(),
};

export const AdminUserSchema = view("AdminUser", () => z.object(adminUserFields));

/** The reference Account with the admin user's fields over it. */
export const AdminAccountSchema = view("AdminAccount", (w) => AccountSchema(w).extend(adminUserFields));

/** A Status whose account (and its reblog's) is an admin Account. */
export const AdminStatusSchema = view("AdminStatus", (w) => {
  const status: z.ZodObject = StatusSchema(w).extend({
    account: AdminAccountSchema(w),
    get reblog(): z.ZodNullable<z.ZodObject> {
      return status.nullable();
    },
  });
  return status;
});

const reportFields = (w: Parameters<typeof AccountSchema>[0], people: z.ZodType) => ({
  id: z.string(),
  state: z.string(),
  content: z.string().nullable(),
  category: z.string(),
  rule_ids: z.array(z.string()),
  created_at: timestamp(),
  account: people,
  actor: people,
  // live statuses, or the snapshot taken when the report was filed for those since deleted
  statuses: z.array(z.looseObject({ id: z.string() })),
  notes: z.array(z.object({ id: z.string(), user_id: z.string().nullable(), content: z.string(), created_at: timestamp(), user: people.nullable() })),
});

export const AdminReportSchema = view("AdminReport", (w) => z.object(reportFields(w, AdminAccountSchema(w))));

/** The reporter's own reports: the admin Report with plain Accounts and no notes. */
export const OwnReportSchema = view("OwnReport", (w) => z.object(reportFields(w, AccountSchema(w))));

export const AdminCredentialsSchema = view("AdminUserCredentials", (w) =>
  z
    .object({
      id: z.string(),
      nickname: z.string(),
      email: z.string().nullable(),
      name: z.string(),
      bio: z.string(),
      avatar: z.string(),
      banner: z.string(),
      background: z.string().nullable(),
      actor_type: z.string(),
      allow_following_move: z.boolean(),
      default_scope: z.string(),
      discoverable: z.boolean(),
      fields: z.array(z.object({ name: z.string(), value: z.string() })),
      raw_fields: z.array(z.object({ id: z.number().int(), name: z.string(), value: z.string() })),
      hide_favorites: z.boolean(),
      hide_followers: z.boolean(),
      hide_followers_count: z.boolean(),
      hide_follows: z.boolean(),
      hide_follows_count: z.boolean(),
      locked: z.boolean(),
      no_rich_text: z.boolean(),
      show_role: z.boolean(),
      skip_thread_containment: z.boolean(),
    })
    .extend({ [`${w.namespace}_settings_store`]: z.unknown() }),
);

export const AdminUsersPageSchema = shape((w) => z.object({ page_size: z.number().int(), count: z.number().int(), users: z.array(AdminUserSchema(w)) }));
export const AdminUsersSchema = shape((w) => z.object({ users: z.array(AdminUserSchema(w)) }));
export const AdminActivitiesSchema = shape((w) => z.object({ total: z.number().int(), activities: z.array(StatusSchema(w)) }));
export const AdminStatusActivitiesSchema = shape((w) => z.object({ total: z.number().int(), activities: z.array(AdminStatusSchema(w)) }));
export const AdminReportsSchema = shape((w) => z.object({ total: z.number().int(), reports: z.array(AdminReportSchema(w)) }));
export const OwnReportsSchema = shape((w) => z.object({ total: z.number().int(), reports: z.array(OwnReportSchema(w)) }));
export const GroupedReportsSchema = shape((w) =>
  z.object({
    reports: z.array(
      z.object({
        date: timestamp(),
        // the reported status's account (an admin Account, or the snapshot's), else the reported account
        account: z.looseObject({ id: z.string() }).optional(),
        status: z.looseObject({ id: z.string() }).nullable(),
        actors: z.array(AdminAccountSchema(w)),
        reports: z.array(AdminReportSchema(w)),
      }),
    ),
  }),
);
export const ModerationLogSchema = shape(() =>
  z.object({ items: z.array(z.object({ id: z.number().int(), data: z.unknown(), time: z.number().int(), message: z.string() })), total: z.number().int() }),
);
export const StatusVisibilityStatsSchema = shape(() =>
  z.object({ status_visibility: z.object({ public: z.number().int(), unlisted: z.number().int(), private: z.number().int(), direct: z.number().int() }) }),
);
export const NicknamesSchema = shape(() => z.array(z.string()));

export const InviteSchema = view("Invite", () =>
  z.object({
    id: z.number().int(),
    token: z.string(),
    used: z.boolean(),
    /** a date (YYYY-MM-DD) */
    expires_at: z.string().nullable(),
    uses: z.number().int(),
    max_use: z.number().int().nullable(),
    invite_type: z.string(),
  }),
);

export const InvitesSchema = shape((w) => z.object({ invites: z.array(InviteSchema(w)) }));

export const AdminAppSchema = view("AdminOAuthApp", () =>
  z.object({
    id: z.number().int(),
    name: z.string(),
    client_id: z.string(),
    client_secret: z.string(),
    redirect_uri: z.string(),
    website: z.string().nullable(),
    trusted: z.boolean(),
  }),
);

export const AdminAppsSchema = shape((w) => z.object({ apps: z.array(AdminAppSchema(w)), count: z.number().int(), page_size: z.number().int() }));

export const AdminInstanceSchema = view("AdminInstance", () =>
  z.object({
    domain: z.string(),
    software_name: z.string().nullable(),
    software_version: z.string().nullable(),
    last_success_at: timestamp().nullable(),
    last_failure_at: timestamp().nullable(),
    unreachable_since: timestamp().nullable(),
    failure_count: z.number().int(),
    reachable: z.boolean(),
    delivery_suspended: z.boolean(),
    users_count: z.number().int(),
    statuses_count: z.number().int(),
  }),
);

export const AdminInstancesSchema = shape((w) => z.object({ total: z.number().int(), instances: z.array(AdminInstanceSchema(w)) }));

export const RelaySchema = view("Relay", () => z.object({ actor: z.string(), followed_back: z.boolean() }));

/** The relays: the spec's array, or `{relays}` in the pleroma profile. */
export const RelaysSchema = shape((w) => z.union([z.array(RelaySchema(w)), z.object({ relays: z.array(RelaySchema(w)) })]));

/** Deleting users answers their nicknames (one nickname for `nickname`). */
export const DeletedUsersSchema = shape(() => z.union([z.array(z.string()), z.string()]));
