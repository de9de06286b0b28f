// The smaller entities: List, Tag, FeaturedTag, ScheduledStatus, Application, Token, Rule,
// PushSubscription, Announcement, Search results, status history and source, BookmarkFolder, and the
// empty answer `{}` of actions.
import { z } from "zod";
import { AccountSchema, EmojiSchema } from "./account.ts";
import { MediaAttachmentSchema, StatusSchema, StatusTagSchema } from "./status.ts";
import { extensions, shape, timestamp, view } from "./view.ts";

/** What posting answers: the Status, or the ScheduledStatus when `scheduled_at` was given. */
export const PostedSchema = shape((w) => z.union([StatusSchema(w), ScheduledStatusSchema(w)]));

/** `{}`: what most actions answer. */
export const EmptySchema = shape(() => z.object({}));

export const ListSchema = view("List", () => z.object({ id: z.string(), title: z.string(), replies_policy: z.string(), exclusive: z.boolean() }));

const historyDay = z.object({ day: z.string(), uses: z.string(), accounts: z.string() });

export const TagSchema = view("Tag", () =>
  z.object({ id: z.string(), name: z.string(), url: z.string(), history: z.array(historyDay), following: z.boolean().optional() }),
);

export const FeaturedTagSchema = view("FeaturedTag", () =>
  z.object({ id: z.string(), name: z.string(), url: z.string(), statuses_count: z.string(), last_status_at: z.string().nullable() }),
);

export const ScheduledStatusSchema = view("ScheduledStatus", (w) =>
  z.object({
    id: z.string(),
    scheduled_at: timestamp(),
    // the parameters as they were given (a form's values may be strings)
    params: z.object({
      text: z.unknown(),
      media_ids: z.array(z.string()).nullable(),
      sensitive: z.unknown(),
      spoiler_text: z.unknown(),
      visibility: z.unknown(),
      scheduled_at: z.null(),
      poll: z.unknown(),
      idempotency: z.null(),
      in_reply_to_id: z.unknown(),
      application_id: z.null(),
      language: z.unknown(),
      expires_in: z.unknown(),
    }),
    media_attachments: z.array(MediaAttachmentSchema(w)),
  }),
);

export const ApplicationSchema = view("Application", () =>
  z.object({
    id: z.string(),
    name: z.string(),
    website: z.string().nullable(),
    scopes: z.array(z.string()),
    redirect_uri: z.string(),
    redirect_uris: z.array(z.string()),
    vapid_key: z.string().nullable(),
    /** when the app is created */
    client_id: z.string().optional(),
    client_secret: z.string().optional(),
  }),
);

export const TokenSchema = view("Token", () =>
  z.object({
    token_type: z.literal("Bearer"),
    access_token: z.string(),
    refresh_token: z.string().optional(),
    scope: z.string(),
    created_at: z.number().int(),
    expires_in: z.number().int(),
    id: z.number().int(),
    me: z.string().optional(),
  }),
);

export const RuleSchema = view("Rule", () => z.object({ id: z.string(), text: z.string(), hint: z.string() }));
export const AdminRuleSchema = view("AdminRule", () => z.object({ id: z.string(), text: z.string(), hint: z.string(), priority: z.number().int() }));

export const PushSubscriptionSchema = view("WebPushSubscription", () =>
  z.object({ id: z.string(), endpoint: z.string(), alerts: z.record(z.string(), z.boolean()), server_key: z.string(), policy: z.string() }),
);

export const AnnouncementSchema = view("Announcement", (w) =>
  z.object({
    id: z.string(),
    content: z.string(),
    starts_at: timestamp().nullable(),
    ends_at: timestamp().nullable(),
    all_day: z.boolean(),
    published: z.boolean(),
    published_at: timestamp(),
    updated_at: timestamp(),
    /** for a signed-in viewer */
    read: z.boolean().optional(),
    mentions: z.array(z.object({ id: z.string(), username: z.string(), acct: z.string(), url: z.string() })),
    statuses: z.array(z.unknown()),
    tags: z.array(StatusTagSchema(w)),
    emojis: z.array(EmojiSchema(w)),
    reactions: z.array(z.object({ name: z.string(), count: z.number().int(), me: z.boolean() })),
  }),
);

/** The admin API's Announcement: the raw text under the namespace key. */
export const AdminAnnouncementSchema = view("AdminAnnouncement", (w) =>
  AnnouncementSchema(w).omit({ read: true }).extend(extensions(w, { namespace: true })),
);

export const SearchV2Schema = view("Search", (w) =>
  z.object({
    accounts: z.array(AccountSchema(w)),
    statuses: z.array(StatusSchema(w)),
    hashtags: z.array(z.object({ name: z.string(), url: z.string(), history: z.array(historyDay) })),
  }),
);

export const SearchV1Schema = view("SearchV1", (w) => z.object({ accounts: z.array(AccountSchema(w)), statuses: z.array(StatusSchema(w)), hashtags: z.array(z.string()) }));

export const StatusEditSchema = view("StatusEdit", (w) =>
  z.object({
    content: z.string(),
    spoiler_text: z.string(),
    sensitive: z.boolean(),
    created_at: timestamp(),
    account: AccountSchema(w),
    poll: z.object({ options: z.array(z.object({ title: z.string() })) }).nullable(),
    media_attachments: z.array(MediaAttachmentSchema(w)),
    emojis: z.array(EmojiSchema(w)),
  }),
);

export const StatusSourceSchema = view("StatusSource", () => z.object({ id: z.string(), text: z.string(), spoiler_text: z.string(), content_type: z.string() }));

export const BookmarkFolderSchema = view("BookmarkFolder", () => z.object({ id: z.string(), name: z.string(), emoji: z.string().nullable(), emoji_url: z.string().nullable() }));

/** An Account with when its mute ends (GET /api/v1/mutes). */
export const MutedAccountSchema = view("MutedAccount", (w) => AccountSchema(w).extend({ mute_expires_at: timestamp().nullable() }));

export const FamiliarFollowersSchema = view("FamiliarFollowers", (w) => z.object({ id: z.string(), accounts: z.array(AccountSchema(w)) }));

export const SuggestionSchema = view("Suggestion", (w) => z.object({ source: z.string(), account: AccountSchema(w) }));

export const CountSchema = shape(() => z.object({ count: z.number().int() }));

/** `{url}` of a profile image just set or cleared (null when cleared) */
export const ImageUrlSchema = shape(() => z.object({ url: z.string().nullable() }));

/** domain names */
export const DomainListSchema = shape(() => z.array(z.string()));

/** `[]`: what the stubs of features not kept answer */
export const EmptyArraySchema = shape(() => z.array(z.unknown()).max(0));

/** The family's bare `"ok"` answer. */
export const OkSchema = shape(() => z.literal("ok"));

/** A bare string (a nickname, a host, a relay's URL). */
export const StringSchema = shape(() => z.string());

/** Settings stored for a client as it sent them (free-form JSON objects). */
export const FreeObjectSchema = shape(() => z.record(z.string(), z.unknown()));

/** The custom emoji map of the family: `{shortcode: {image_url, tags}}`. */
export const EmojiMapSchema = shape(() => z.record(z.string(), z.object({ image_url: z.string(), tags: z.array(z.string()) })));
