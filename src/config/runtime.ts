// Runtime settings: defaults (seeded from the environment) overridden by `config_entries` rows when
// CONFIGURABLE_FROM_DATABASE is on. Reads are synchronous from memory; writers call reload() and publish
// `config_changed` so every process reloads. Each setting is described in src/config/registry.ts.
import type { Settings } from "./env.ts";
import type { Db } from "../db/client.ts";
import type { Bus } from "../realtime/bus.ts";
import { canonicalName, fromJson } from "./convert.ts";
import { applyDomainRules } from "./domain-rules.ts";
import { applyFamilyValue, INTERNAL_GROUP, NEED_REBOOT_KEY, SERVICE_GROUP } from "./registry.ts";
import { ADMIN_PRIVILEGES, type ObjectAgeAction, type Privilege } from "./vocabulary.ts";
export { ADMIN_PRIVILEGES, OBJECT_AGE_ACTIONS, type ObjectAgeAction, type Privilege } from "./vocabulary.ts";

const MB = 1024 * 1024;


/** A fixed window: at most `limit` requests per `scale_ms` milliseconds. */
export interface RateWindow {
  scale_ms: number;
  limit: number;
}
/** A rate limit as the family writes it: one window for anonymous requests (per IP), one for signed-in ones (per account); null = unlimited. */
export interface RateLimitRule {
  unauthenticated: RateWindow | null;
  authenticated: RateWindow | null;
}
const both = (scale_ms: number, limit: number): RateLimitRule => ({ unauthenticated: { scale_ms, limit }, authenticated: { scale_ms, limit } });

/** An instance rule of the family's policies: `{"host", "reason"}`. */
export interface HostReason {
  host: string;
  reason: string;
}

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
      /** the later family's limit on one synced frontend settings profile, in JSON characters */
      max_frontend_settings_json_chars: 100_000,
      /** the later family's switch for the Prometheus scrape (`GET /api/v1/<family>/metrics`); off: 404 */
      export_prometheus_metrics: true,
    },
    mailer: smtpDefaults(settings),
    /** ActivityPub (the family's :activitypub key) */
    activitypub: {
      /** object, collection and outbox GETs need an HTTP signature from a non-blocked domain (off, as in the family) */
      authorized_fetch_mode: false,
    },
    /** the family's SimplePolicy (:mrf_simple): instance-wide rules about other servers */
    mrf_simple: {
      /** servers whose activities are refused (403) before any processing; `*.host` covers subdomains */
      reject: [] as HostReason[],
      /** allow-list mode: when not empty, only these servers (and subdomains) federate */
      accept: [] as HostReason[],
      /** attachments of their statuses are dropped */
      media_removal: [] as HostReason[],
      /** their statuses with attachments are marked sensitive */
      media_nsfw: [] as HostReason[],
      /** their public statuses are stored unlisted (kept off the public timelines) */
      federated_timeline_removal: [] as HostReason[],
      /** their public and unlisted statuses are stored followers-only */
      followers_only: [] as HostReason[],
      /** their reports (Flag) are dropped */
      report_removal: [] as HostReason[],
      /** their accounts are stored without avatar */
      avatar_removal: [] as HostReason[],
      /** their accounts are stored without header */
      banner_removal: [] as HostReason[],
      /** their deletes are ignored */
      reject_deletes: [] as HostReason[],
    },
    /** the family's :mrf: which optional content policies run, and what NodeInfo tells about them */
    mrf: {
      /** short names (SimplePolicy, KeywordPolicy, HashtagPolicy, ObjectAgePolicy); SimplePolicy and HashtagPolicy always run */
      policies: [] as string[],
      /** publish the policies' settings in NodeInfo `metadata.federation` */
      transparency: true,
      /** hosts left out of what NodeInfo publishes */
      transparency_exclusions: [] as HostReason[],
    },
    /** the family's KeywordPolicy: patterns are substrings, or regexes written `~r/…/flags` */
    mrf_keyword: {
      reject: [] as string[],
      federated_timeline_removal: [] as string[],
      replace: [] as { pattern: string; replacement: string }[],
    },
    /** the family's HashtagPolicy (names without `#`) */
    mrf_hashtag: {
      reject: [] as string[],
      federated_timeline_removal: [] as string[],
      sensitive: ["nsfw"] as string[],
    },
    /** the family's ObjectAgePolicy: what happens to incoming posts older than `threshold` seconds */
    mrf_object_age: {
      threshold: 604_800,
      actions: ["delist", "strip_followers"] as ObjectAgeAction[],
    },
    /** the family's :media_proxy: remote media, avatars, headers and emoji served through signed /proxy URLs */
    media_proxy: {
      enabled: false,
      /** another origin serving the proxy (empty: this server's base URL) */
      base_url: "",
      /** hosts whose media are linked as they are, not proxied */
      whitelist: [] as string[],
      proxy_opts: {
        /** the largest remote file proxied, in bytes */
        max_body_length: 25 * MB,
      },
      /** how long a cached copy is served before it is fetched again, in seconds (extension) */
      cache_ttl_seconds: 86_400,
      /** the cache's total size; the oldest copies go first beyond it, in bytes (extension) */
      cache_max_bytes: 512 * MB,
    },
    /** the family's :media_preview_proxy: remote attachments' `preview_url` as a downscaled copy (/proxy/preview/…), with the media proxy on */
    media_preview_proxy: {
      enabled: false,
      thumbnail_max_width: 600,
      thumbnail_max_height: 600,
      image_quality: 85,
    },
    /** the guarded fetcher (src/net/guarded-fetch.ts): every fetch made on someone's behalf */
    http: {
      /** reach private, loopback and link-local addresses (ALLOW_PRIVATE_FETCH; for tests and closed networks) */
      allow_private_addresses: settings.allowPrivateFetch,
      /** CIDRs (or single addresses) reachable even when private addresses are refused, e.g. a local relay */
      private_address_exceptions: [] as string[],
      fetch_timeout_ms: 20_000,
      max_body_bytes: 50 * MB,
    },
    /** the family's :frontends: installed builds (admin frontends install) served at `/` and `/<ns>/admin` (`{name, ref}`; empty: none) */
    frontends: {
      primary: {} as Record<string, unknown>,
      admin: {} as Record<string, unknown>,
    },
    /** the GraphQL explorer (GraphiQL) at GET /graphql: always in development (NODE_ENV=development), else when this is on (extension) */
    graphql: {
      explorer: false,
    },
    /** settings handed to frontends as they are (`GET {ext}/frontend_configurations`); the family's defaults */
    frontend_configurations: {
      pleroma_fe: {
        alwaysShowSubjectInput: true,
        background: "/images/background.png",
        collapseMessageWithSubject: false,
        disableChat: false,
        greentext: false,
        hideFilteredStatuses: false,
        hideMutedPosts: false,
        hidePostStats: false,
        hideSitename: false,
        hideUserStats: false,
        loginMethod: "password",
        logo: "/images/avi.png",
        logoMargin: ".1em",
        logoMask: true,
        minimalScopesMode: false,
        noAttachmentLinks: false,
        nsfwCensorImage: "",
        postContentType: "text/plain",
        redirectRootLogin: "/main/friends",
        redirectRootNoLogin: "/main/all",
        scopeCopy: true,
        showFeaturesPanel: true,
        showInstanceSpecificPanel: false,
        sidebarRight: false,
        subjectLineBehavior: "email",
        theme: "pleroma-dark",
        webPushNotifications: false,
      } as Record<string, unknown>,
      masto_fe: { showInstanceSpecificPanel: true } as Record<string, unknown>,
    },
    /** the registration captcha (the family's Pleroma.Captcha; only the native provider) */
    captcha: {
      enabled: false,
      /** how long a captcha can be answered (the family applies a change after a restart) */
      seconds_valid: 300,
      method: "native" as "native",
    },
    /** the family's `:rate_limit` (src/http/rate-limit.ts, docs/security.md): the family's defaults where it has the key */
    rate_limit: {
      /** off: no route is limited (RATE_LIMITS_ENABLED; an extension) */
      enabled: settings.rateLimitsEnabled,
      /** sign-in: the token endpoint, the authorization page, the MFA challenge, the admin UI's sign-in */
      authentication: both(60_000, 15),
      /** registration (POST /api/v1/accounts) */
      app_account_creation: both(1_800_000, 25),
      /** asking for a password reset e-mail */
      password_reset: both(1_800_000, 5),
      /** posting and editing statuses */
      statuses_actions: both(10_000, 15),
      /** media uploads (an extension) */
      media_upload: both(60_000, 30),
      /** search */
      search: { unauthenticated: { scale_ms: 1000, limit: 10 }, authenticated: { scale_ms: 1000, limit: 30 } } as RateLimitRule,
      /** public, bubble and hashtag timelines read without an account */
      timeline: { unauthenticated: { scale_ms: 500, limit: 3 }, authenticated: null } as RateLimitRule,
    },
    /** the web app manifest (`/manifest.json`; the family's `:manifest`) */
    manifest: {
      theme_color: "#282c37",
      background_color: "#191b22",
    },
    /** account backups (the family's Pleroma.User.Backup) */
    backup: {
      /** a user may ask for one backup per this many days */
      limit_days: 7,
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
  let generation = 0;
  let latest: Promise<void> = Promise.resolve();
  const config: RuntimeConfig = {
    get: (group, key) => current[group][key],
    group: (group) => current[group],
    reload() {
      const mine = ++generation;
      const run = (async () => {
        const next = defaultRuntimeSettings(settings);
        if (settings.configurableFromDatabase) applyStoredSettings(next, await db.configEntry.findMany({ orderBy: { id: "asc" } }), settings.namespace);
        // the reference admin API's domain blocks and allows apply whether or not settings are stored
        const [blocks, allows] = await Promise.all([db.instanceDomainBlock.findMany({ orderBy: { id: "asc" } }), db.instanceDomainAllow.findMany({ orderBy: { id: "asc" } })]);
        applyDomainRules(next, blocks, allows);
        // reloads may overlap (an admin write and the bus event): an older one never wins, and it
        // returns only once the newer one has applied what it read
        if (mine === generation) current = next;
        else await latest;
      })();
      latest = run;
      return run;
    },
  };
  // a start applies every setting, so nothing waits for a restart any more
  if (settings.configurableFromDatabase) await db.configEntry.deleteMany({ where: { group: INTERNAL_GROUP, key: NEED_REBOOT_KEY } });
  await config.reload();
  return config;
}

/**
 * Overrides the defaults with the stored rows: values in the family's form (group `:pleroma`, keyword
 * values; see src/config/registry.ts) through the registry, then rows in our own form (group and key
 * named as in RuntimeSettings, the value as it is), which win.
 */
function applyStoredSettings(next: RuntimeSettings, rows: { group: string; key: string; value: unknown }[], namespace: string) {
  for (const row of rows) {
    if (!row.group.startsWith(":") || canonicalName(row.group, namespace) !== SERVICE_GROUP) continue;
    try {
      applyFamilyValue(next, canonicalName(row.key, namespace), fromJson(row.value, namespace));
    } catch {
      // a stored value that no longer converts leaves the defaults in place
    }
  }
  for (const row of rows) {
    const group = (next as Record<string, Record<string, unknown>>)[row.group];
    if (group && row.key in group) group[row.key] = row.value;
  }
}

/** Every process reloads its settings when any of them announces a change; returns the unsubscribe. */
export function followConfigChanges(bus: Bus, config: RuntimeConfig): () => Promise<void> {
  const changes = bus.subscribe("config_changed");
  const reload = () => config.reload().catch((error) => console.error("runtime configuration reload failed:", error));
  void (async () => {
    for await (const _ of changes) await reload();
  })();
  // a change announced while Redis was away (or before the first SUBSCRIBE took effect) was missed: read again once it is
  const stopGaps = bus.onGap((down) => void (down || reload()));
  return async () => {
    stopGaps();
    await changes.return();
  };
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
