// The answers of the own and admin tools that are not entities: emoji packs, the stored settings,
// frontends and their settings profiles, instance documents, media-proxy bans, permission groups,
// captcha, health, the reference admin's measures, and the small acknowledgements of actions.
//
// Loose on purpose (the data is stored or fetched JSON whose fields the server does not own):
// a pack's metadata beyond its known keys (pack.json may carry more), a remote instance's pack list
// (passed through as it answers), setting values and their descriptions (any JSON a setting holds),
// a frontend's settings profile and the frontend configurations (stored as the frontend sends them).
import { z } from "zod";
import { TokenSchema } from "./misc.ts";
import { NotificationSchema } from "./notification.ts";
import { shape, timestamp, view } from "./view.ts";

const packMeta = z.looseObject({
  license: z.string().optional(),
  homepage: z.string().optional(),
  description: z.string().optional(),
  "fallback-src": z.string().optional(),
  "fallback-src-sha256": z.string().optional(),
  "share-files": z.boolean().optional(),
});

/** shortcode → file name in the pack's folder */
export const PackFilesSchema = shape(() => z.record(z.string(), z.string()));

export const EmojiPackSchema = view("EmojiPack", () =>
  z.object({
    files: z.record(z.string(), z.string()),
    files_count: z.number().int(),
    pack: packMeta.extend({ "can-download": z.boolean(), "download-sha256": z.string().optional() }),
  }),
);

export const EmojiPacksSchema = shape((w) => z.object({ packs: z.record(z.string(), EmojiPackSchema(w)), count: z.number().int() }));
export const PackMetaSchema = shape(() => packMeta);
/** another instance's answer, passed through */
export const RemotePacksSchema = shape(() => z.looseObject({}));
export const ImportedPacksSchema = shape(() => z.array(z.string()));

const configValue = z.unknown();
export const ConfigListSchema = view("ConfigList", () =>
  z.object({
    configs: z.array(z.object({ group: z.string(), key: z.string(), value: configValue, db: z.array(z.string()).optional() })),
    need_reboot: z.boolean(),
  }),
);
/** the descriptions' tree (groups, children, suggestions): generated from the settings' registry */
export const ConfigDescriptionsSchema = shape(() => z.array(z.looseObject({})));

export const FrontendInfoSchema = view("Frontend", () =>
  z.object({ name: z.string(), git: z.string(), build_url: z.string(), ref: z.string(), installed: z.boolean(), installed_refs: z.array(z.string()) }),
);
export const FrontendsSchema = shape((w) => z.array(FrontendInfoSchema(w)));
/** frontend name → its configuration, as stored */
export const FrontendConfigurationsSchema = shape(() => z.record(z.string(), z.unknown()));
export const FrontendProfilesSchema = shape(() => z.array(z.object({ name: z.string(), version: z.number().int() })));
/** a profile's settings, the JSON object the frontend stored */
export const FrontendProfileSettingsSchema = shape(() => z.record(z.string(), z.unknown()));
export const DeletedOkSchema = shape(() => z.object({ deleted: z.literal("ok") }));

export const DocumentUrlSchema = shape(() => z.object({ url: z.string() }));

export const MediaProxyBansSchema = shape(() => z.object({ page_size: z.number().int(), count: z.number().int(), urls: z.array(z.string()) }));

export const PermissionGroupsSchema = shape(() => z.object({ is_moderator: z.boolean(), is_admin: z.boolean() }));
/** `{is_<group>: flag}` of the group the path names */
export const PermissionFlagSchema = shape(() => z.record(z.string().regex(/^is_(admin|moderator)$/), z.boolean()));
export const PasswordResetLinkSchema = shape(() => z.object({ token: z.string(), link: z.string() }));
export const NicknameSchema = shape(() => z.string());
export const CreatedUsersSchema = shape(() =>
  z.array(z.object({ code: z.literal(200), type: z.literal("success"), data: z.object({ nickname: z.string(), email: z.string() }) })),
);

export const CaptchaSchema = view("Captcha", () =>
  z.union([
    z.object({ type: z.literal("none") }),
    z.object({ type: z.literal("native"), token: z.string(), url: z.string(), answer_data: z.string(), seconds_valid: z.number().int() }),
  ]),
);

export const HealthSchema = shape(() =>
  z.object({
    pool_size: z.number().int(),
    active: z.number().int(),
    idle: z.number().int(),
    memory_used: z.number(),
    healthy: z.boolean(),
    job_queue_stats: z.record(z.string(), z.number()),
    /** whether the database answered within the check's time */
    database: z.enum(["ok", "unreachable"]),
    /** whether Redis answered (only when the instance has REDIS_URL) */
    redis: z.enum(["ok", "unreachable"]).optional(),
  }),
);

/** host → since when it has been unreachable */
export const FederationStatusSchema = shape(() => z.object({ unreachable: z.record(z.string(), timestamp()) }));
/** the interaction page's URL; an unknown profile answers 200 `{error}`, the family's documented shape */
export const RemoteInteractionSchema = shape(() => z.union([z.object({ url: z.string() }), z.object({ error: z.string() })]));
export const JobStartedSchema = shape(() => z.literal("job started"));
export const EmptyStringSchema = shape(() => z.literal(""));
export const PreferredFrontendSchema = shape(() => z.object({ frontend_name: z.string() }));

/** what registering answers when the account cannot sign in yet */
export const RegistrationPendingSchema = shape(() =>
  z.object({ identifier: z.enum(["awaiting_approval", "missing_confirmed_email"]), message: z.string() }),
);

export const AdminMeasureSchema = view("Admin_Measure", () =>
  z.object({
    key: z.string(),
    unit: z.string().nullable(),
    total: z.string(),
    previous_total: z.string(),
    data: z.array(z.object({ date: timestamp(), value: z.string() })),
  }),
);
export const AdminDimensionSchema = view("Admin_Dimension", () =>
  z.object({
    key: z.string(),
    data: z.array(z.object({ key: z.string(), human_key: z.string(), value: z.string(), unit: z.string().optional(), human_value: z.string().optional() })),
  }),
);
export const AdminCohortSchema = view("Admin_Cohort", () =>
  z.object({
    period: z.string(),
    frequency: z.enum(["day", "month"]),
    data: z.array(z.object({ date: z.string(), rate: z.number(), value: z.string() })),
  }),
);

/** marking one notification read answers it, marking up to `max_id` the list of them */
export const NotificationsReadSchema = shape((w) => z.union([NotificationSchema(w), z.array(NotificationSchema(w))]));

/** registering answers the token, or why the account cannot sign in yet */
export const RegisteredSchema = shape((w) => z.union([TokenSchema(w), RegistrationPendingSchema(w)]));

/** trending links: always none (no preview cards are fetched) */
export const NoLinksSchema = shape(() => z.array(z.never()));

// The discovery documents outside the client API, in their own JSON media types (`produces`).
const jrdLink = z.object({ rel: z.string(), type: z.string().optional(), href: z.string().optional(), template: z.string().optional() });
export const JrdSchema = view("Jrd", () => z.object({ subject: z.string(), aliases: z.array(z.string()), links: z.array(jrdLink) }));
export const HostMetaJrdSchema = shape(() => z.object({ links: z.array(jrdLink) }));
export const NodeinfoLinksSchema = shape(() => z.object({ links: z.array(z.object({ rel: z.string(), href: z.string() })) }));
/** NodeInfo 2.0/2.1: `metadata` is the schema's free-form object (the family's fields: limits, federation policy…) */
export const NodeinfoSchema = view("Nodeinfo", () =>
  z.object({
    version: z.enum(["2.0", "2.1"]),
    software: z.object({ name: z.string(), version: z.string() }),
    protocols: z.array(z.string()),
    services: z.object({ inbound: z.array(z.string()), outbound: z.array(z.string()) }),
    openRegistrations: z.boolean(),
    usage: z.object({ users: z.object({ total: z.number().int(), activeMonth: z.number().int(), activeHalfyear: z.number().int() }), localPosts: z.number().int() }),
    metadata: z.looseObject({}),
  }),
);
export const WebManifestSchema = shape(() =>
  z.object({
    name: z.string(),
    description: z.string(),
    icons: z.array(z.object({ src: z.string(), type: z.string().optional() })),
    theme_color: z.string(),
    background_color: z.string(),
    display: z.literal("standalone"),
    scope: z.string(),
    start_url: z.string(),
    categories: z.array(z.string()),
    serviceworker: z.object({ src: z.string() }),
  }),
);
