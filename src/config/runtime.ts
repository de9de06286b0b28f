// Runtime settings: defaults (seeded from the environment) overridden by `config_entries` rows when
// CONFIGURABLE_FROM_DATABASE is on. Reads are synchronous from memory; writers call reload().
import type { Settings } from "./env.ts";
import type { Db } from "../db/client.ts";

const MB = 1024 * 1024;

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

export function defaultRuntimeSettings(settings: Settings) {
  return {
    instance: {
      name: settings.instanceName,
      email: settings.instanceEmail,
      description: "A federated microblogging server",
      short_description: "",
      /** max_toot_chars */
      limit: 5000,
      description_limit: 5000,
      chat_limit: 5000,
      upload_limit: 16 * MB,
      avatar_upload_limit: 2 * MB,
      background_upload_limit: 4 * MB,
      banner_upload_limit: 4 * MB,
      poll_limits: { max_options: 20, max_option_chars: 200, min_expiration: 0, max_expiration: 365 * 24 * 60 * 60 },
      registrations_open: settings.registrationsOpen,
      invites_enabled: false,
      account_approval_required: false,
      account_activation_required: false,
      federating: true,
      max_account_fields: 10,
      account_field_name_length: 512,
      account_field_value_length: 2048,
      max_remote_account_fields: 20,
      max_pinned_statuses: 5,
      /** relative to the base URL, or absolute */
      instance_thumbnail: "/instance/thumbnail.jpeg",
      languages: ["en"] as string[],
      allowed_post_formats: ["text/plain", "text/html", "text/markdown"] as string[],
      /** false makes the instance private (nodeinfo `private`) */
      public: true,
      federated_timeline_available: true,
      background_image: "/images/background.png",
      /** hosts of the bubble timeline (the later variant) */
      local_bubble: [] as string[],
      /** the software name nodeinfo reports; family clients look for "pleroma" or "akkoma" */
      software_name: settings.namespace === "ext" ? "pleroma" : settings.namespace,
      /** what each staff role may do in the admin API (the family's defaults) */
      admin_privileges: [...ADMIN_PRIVILEGES] as Privilege[],
      moderator_privileges: ["messages_delete", "reports_manage_reports"] as Privilege[],
    },
    mailer: smtpDefaults(settings),
    /** the guarded fetcher (src/net/guarded-fetch.ts): every fetch made on someone's behalf */
    http: {
      /** reach private, loopback and link-local addresses (ALLOW_PRIVATE_FETCH; for tests and closed networks) */
      allow_private_addresses: settings.allowPrivateFetch,
      /** CIDRs (or single addresses) reachable even when private addresses are refused, e.g. a local relay */
      private_address_exceptions: [] as string[],
      fetch_timeout_ms: 20_000,
      max_body_bytes: 50 * MB,
    },
  };
}

export type RuntimeSettings = ReturnType<typeof defaultRuntimeSettings>;
export type Group = keyof RuntimeSettings;

export interface RuntimeConfig {
  get<G extends Group, K extends keyof RuntimeSettings[G]>(group: G, key: K): RuntimeSettings[G][K];
  /** the whole group, for renderers that need many values */
  group<G extends Group>(group: G): RuntimeSettings[G];
  /** re-reads the database overrides (after the admin API wrote them) */
  reload(): Promise<void>;
}

export async function loadRuntimeConfig(db: Db, settings: Settings): Promise<RuntimeConfig> {
  let current = defaultRuntimeSettings(settings);
  const config: RuntimeConfig = {
    get: (group, key) => current[group][key],
    group: (group) => current[group],
    async reload() {
      const next = defaultRuntimeSettings(settings);
      if (settings.configurableFromDatabase) {
        for (const row of await db.configEntry.findMany()) {
          const group = (next as Record<string, Record<string, unknown>>)[row.group];
          if (group && row.key in group) group[row.key] = row.value;
        }
      }
      current = next;
    },
  };
  await config.reload();
  return config;
}

/** The mailer's defaults: SMTP when SMTP_URL is set, else .eml files under DATA_DIR/mail. */
function smtpDefaults(settings: Settings) {
  const url = settings.smtpUrl ? new URL(settings.smtpUrl) : null;
  return {
    /** "file" writes .eml files under DATA_DIR/mail; "smtp" sends through `smtp` */
    transport: (url ? "smtp" : "file") as "file" | "smtp",
    from: settings.mailFrom || settings.instanceEmail || `noreply@${settings.domain.split(":")[0]}`,
    smtp: {
      host: url?.hostname ?? "",
      port: url?.port ? Number(url.port) : url?.protocol === "smtps:" ? 465 : 587,
      secure: url?.protocol === "smtps:",
      user: decodeURIComponent(url?.username ?? ""),
      password: decodeURIComponent(url?.password ?? ""),
    },
  };
}
