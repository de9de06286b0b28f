// The instance information, v1 and v2, and the small public documents beside it (views/instance.ts,
// reference/instance.routes.ts).
import { z } from "zod";
import { AccountSchema } from "./account.ts";
import { RuleSchema } from "./misc.ts";
import { extensions, shape, timestamp, view } from "./view.ts";

const int = () => z.number().int();

export const InstanceV1Schema = view("InstanceV1", (w) =>
  z.object({
    uri: z.string(),
    title: z.string(),
    short_description: z.string(),
    description: z.string(),
    email: z.string(),
    version: z.string(),
    urls: z.object({ streaming_api: z.string() }),
    stats: z.object({ user_count: int(), status_count: int(), domain_count: int() }),
    thumbnail: z.string(),
    languages: z.array(z.string()),
    registrations: z.boolean(),
    approval_required: z.boolean(),
    invites_enabled: z.boolean(),
    contact_account: z.null(),
    rules: z.array(RuleSchema(w)),
    max_toot_chars: int(),
    description_limit: int(),
    chat_limit: int(),
    poll_limits: z.object({ max_options: int(), max_option_chars: int(), min_expiration: int(), max_expiration: int() }),
    upload_limit: int(),
    avatar_upload_limit: int(),
    background_upload_limit: int(),
    banner_upload_limit: int(),
    background_image: z.string(),
    vapid_public_key: z.string().nullable(),
    ...extensions(w, { namespace: true }),
  }),
);

export const InstanceV2Schema = view("Instance", (w) =>
  z.object({
    domain: z.string(),
    title: z.string(),
    version: z.string(),
    source_url: z.string(),
    description: z.string(),
    usage: z.object({ users: z.object({ active_month: int() }) }),
    thumbnail: z.object({ url: z.string(), blurhash: z.null(), versions: z.object({ "@1x": z.string(), "@2x": z.string() }), description: z.string() }),
    icon: z.array(z.unknown()),
    languages: z.array(z.string()),
    configuration: z.object({
      urls: z.object({ streaming: z.string(), status: z.null() }),
      vapid: z.object({ public_key: z.string() }),
      accounts: z.record(z.string(), int()),
      statuses: z.object({ max_characters: int(), max_media_attachments: int(), characters_reserved_per_url: int() }),
      media_attachments: z.object({
        supported_mime_types: z.array(z.string()),
        description_limit: int(),
        image_size_limit: int(),
        image_matrix_limit: int(),
        video_size_limit: int(),
        video_frame_rate_limit: int(),
        video_matrix_limit: int(),
      }),
      polls: z.object({ max_options: int(), max_characters_per_option: int(), min_expiration: int(), max_expiration: int() }),
      translation: z.object({ enabled: z.boolean() }),
    }),
    registrations: z.object({
      enabled: z.boolean(),
      approval_required: z.boolean(),
      message: z.null(),
      url: z.null(),
      min_age: z.null(),
      reason_required: z.boolean(),
    }),
    api_versions: z.object({ mastodon: int() }),
    contact: z.object({ email: z.string(), account: AccountSchema(w).nullable() }),
    rules: z.array(RuleSchema(w)),
    ...extensions(w, { namespace: true }),
  }),
);

export const ExtendedDescriptionSchema = shape(() => z.object({ updated_at: z.null(), content: z.string() }));
export const TermsOfServiceSchema = shape(() => z.object({ effective_date: z.string(), effective: z.boolean(), content: z.string(), succeeded_by: z.null() }));
export const PrivacyPolicySchema = shape(() => z.object({ updated_at: timestamp(), content: z.string() }));
export const InstanceDomainBlockSchema = view("DomainBlock", () => z.object({ domain: z.string(), digest: z.string(), severity: z.string(), comment: z.string().nullable() }));
export const ActivityWeekSchema = view("InstanceActivity", () => z.object({ week: z.string(), statuses: z.string(), logins: z.string(), registrations: z.string() }));
export const PreferencesSchema = shape(() =>
  z.object({
    "posting:default:visibility": z.string(),
    "posting:default:sensitive": z.boolean(),
    "posting:default:language": z.string().nullable(),
    "posting:default:quote_policy": z.string(),
    "reading:expand:media": z.string(),
    "reading:expand:spoilers": z.boolean(),
    "reading:autoplay:gifs": z.boolean(),
  }),
);
