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
