// The fixed vocabularies of the runtime settings — admin privileges, object-age actions — on their own,
// so that registry.ts (which describes the settings) and runtime.ts (which defines and applies them)
// can both use them without importing each other. runtime.ts re-exports them.

/** The admin API's privileges, as the family names them; routes and GraphQL fields declare which they need. */
export const ADMIN_PRIVILEGES = [
  "users_read",
  "users_manage_invites",
  "users_manage_activation_state",
  "users_manage_tags",
  "users_manage_credentials",
  "users_delete",
  "messages_read",
  "messages_delete",
  "instances_delete",
  "reports_manage_reports",
  "moderation_log_read",
  "announcements_manage_announcements",
  "emoji_manage_emoji",
  "statistics_read",
] as const;
export type Privilege = (typeof ADMIN_PRIVILEGES)[number];

/** What the object-age policy does to an old post. */
export const OBJECT_AGE_ACTIONS = ["delist", "strip_followers", "reject"] as const;
export type ObjectAgeAction = (typeof OBJECT_AGE_ACTIONS)[number];
