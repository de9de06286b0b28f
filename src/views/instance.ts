// GET /api/v1/instance in the reference shape (API level 2.7.2) with the family's extras.
import type { Settings } from "../../src/config/env.ts";
import type { Rule } from "../../src/generated/prisma/client.ts";
import { renderRule } from "./rule.ts";
import { API_LEVEL, type instanceInfo, type instanceUsage } from "../../src/domain/instance/instance.ops.ts";

type Info = Awaited<ReturnType<typeof instanceInfo>>;
type Usage = Awaited<ReturnType<typeof instanceUsage>>;

/** Clients recognise the family by "(compatible; <Name> x.y.z)"; the name follows the namespace word. */
export function versionString(settings: Settings, softwareVersion: string) {
  const name = settings.namespace[0].toUpperCase() + settings.namespace.slice(1);
  return `${API_LEVEL} (compatible; ${name} ${softwareVersion})`;
}

/** A configured path ("/images/city.jpg") made absolute against the base URL; absolute URLs stay. */
export function absoluteUrl(baseUrl: string, pathOrUrl: string) {
  if (/^[a-z][a-z0-9+.-]*:/i.test(pathOrUrl)) return pathOrUrl;
  return `${baseUrl}${pathOrUrl.startsWith("/") ? "" : "/"}${pathOrUrl}`;
}

export function renderInstance(settings: Settings, info: Info, usage: Pick<Usage, "activeMonth">, vapidPublicKey: string | null = null, rules: Rule[] = []) {
  const cfg = info.config;
  return {
    uri: info.domain,
    title: cfg.name,
    short_description: cfg.short_description,
    description: cfg.description,
    email: cfg.email,
    version: versionString(settings, info.softwareVersion),
    urls: { streaming_api: info.baseUrl.replace(/^http/, "ws") },
    stats: { user_count: info.userCount, status_count: info.statusCount, domain_count: info.domainCount },
    thumbnail: absoluteUrl(info.baseUrl, cfg.instance_thumbnail),
    languages: cfg.languages,
    registrations: cfg.registrations_open,
    approval_required: cfg.account_approval_required,
    invites_enabled: cfg.invites_enabled,
    contact_account: null,
    rules: rules.map(renderRule),
    // the family's extras
    max_toot_chars: cfg.limit,
    description_limit: cfg.description_limit,
    chat_limit: cfg.chat_limit,
    poll_limits: {
      max_options: cfg.poll_limits.max_options,
      max_option_chars: cfg.poll_limits.max_option_chars,
      min_expiration: cfg.poll_limits.min_expiration,
      max_expiration: cfg.poll_limits.max_expiration,
    },
    upload_limit: cfg.upload_limit,
    avatar_upload_limit: cfg.avatar_upload_limit,
    background_upload_limit: cfg.background_upload_limit,
    banner_upload_limit: cfg.banner_upload_limit,
    background_image: absoluteUrl(info.baseUrl, cfg.background_image),
    // the server's VAPID key (base64url), the `server_key` of push subscriptions
    vapid_public_key: vapidPublicKey,
    [settings.namespace]: {
      metadata: {
        account_activation_required: cfg.account_activation_required,
        features: info.features,
        federation: info.federation,
        fields_limits: {
          max_fields: cfg.max_account_fields,
          max_remote_fields: cfg.max_remote_account_fields,
          name_length: cfg.account_field_name_length,
          value_length: cfg.account_field_value_length,
        },
        post_formats: cfg.allowed_post_formats,
      },
      stats: { mau: usage.activeMonth },
      vapid_public_key: vapidPublicKey,
    },
  };
}

/** GET /api/v2/instance: the reference's v2 Instance from the same settings and figures as v1. */
export function renderInstanceV2(
  settings: Settings,
  info: Info,
  usage: Pick<Usage, "activeMonth">,
  opts: { vapidPublicKey: string | null; rules: Rule[]; contact: unknown; imageTypes: string[] },
) {
  const cfg = info.config;
  const thumbnail = absoluteUrl(info.baseUrl, cfg.instance_thumbnail);
  return {
    domain: info.domain,
    title: cfg.name,
    version: versionString(settings, info.softwareVersion),
    // no source repository is published for this software yet (as NodeInfo says)
    source_url: "",
    description: cfg.short_description || cfg.description,
    usage: { users: { active_month: usage.activeMonth } },
    thumbnail: { url: thumbnail, blurhash: null, versions: { "@1x": thumbnail, "@2x": thumbnail }, description: "" },
    icon: [],
    languages: cfg.languages,
    configuration: {
      urls: { streaming: info.baseUrl.replace(/^http/, "ws"), status: null },
      vapid: { public_key: opts.vapidPublicKey ?? "" },
      accounts: {
        max_featured_tags: 0,
        max_pinned_statuses: cfg.max_pinned_statuses,
        max_display_name_length: 100,
        max_note_length: 5000,
        max_avatar_description_length: cfg.description_limit,
        max_header_description_length: cfg.description_limit,
        max_profile_fields: cfg.max_account_fields,
        profile_field_name_limit: cfg.account_field_name_length,
        profile_field_value_limit: cfg.account_field_value_length,
      },
      statuses: { max_characters: cfg.limit, max_media_attachments: 4, characters_reserved_per_url: 0 },
      media_attachments: {
        supported_mime_types: opts.imageTypes,
        description_limit: cfg.description_limit,
        image_size_limit: cfg.upload_limit,
        image_matrix_limit: 16_777_216,
        video_size_limit: cfg.upload_limit,
        video_frame_rate_limit: 60,
        video_matrix_limit: 2_304_000,
      },
      polls: {
        max_options: cfg.poll_limits.max_options,
        max_characters_per_option: cfg.poll_limits.max_option_chars,
        min_expiration: cfg.poll_limits.min_expiration,
        max_expiration: cfg.poll_limits.max_expiration,
      },
      translation: { enabled: false },
    },
    registrations: { enabled: cfg.registrations_open, approval_required: cfg.account_approval_required, message: null, url: null, min_age: null, reason_required: cfg.account_approval_required },
    api_versions: { mastodon: 0 },
    contact: { email: cfg.email, account: opts.contact },
    rules: opts.rules.map(renderRule),
    [settings.namespace]: {
      metadata: { account_activation_required: cfg.account_activation_required, features: info.features, federation: info.federation, post_formats: cfg.allowed_post_formats },
      stats: { mau: usage.activeMonth },
      vapid_public_key: opts.vapidPublicKey,
    },
  };
}
