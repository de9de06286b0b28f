// One typed registry of every runtime setting the server reads (src/config/runtime.ts): where the family
// keeps it (a keyword path under the service group `:pleroma`), its description type, description and
// suggestions, whether changing it needs a restart, and how its value converts from and to the family's
// terms. GET /config/descriptions is generated from it, GET /config shows its defaults in the family's
// form, and stored family values reach `ctx.config` through it. The mapped type below makes a setting
// added to runtime.ts without an entry here a compile error.
import type { RateLimitRule, RateWindow, RuntimeSettings } from "./runtime.ts";
import { ADMIN_PRIVILEGES, OBJECT_AGE_ACTIONS, type ObjectAgeAction, type Privilege } from "./vocabulary.ts";
import { atom, isAtom, isKeyword, isModule, isTuple, keyword, keywordGet, module, toJson, tuple, type Json, type Keyword, type Term } from "./convert.ts";

/** The service group as the conversion rules know it; the API shows and stores it under the namespace word (`serviceGroupName`). */
export const SERVICE_GROUP = ":pleroma";

/** The service group as the admin API names it: `:<namespace>` (`:ext` by default, `:pleroma` in the family's profile). */
export function serviceGroupName(namespace: string): string {
  return `:${namespace}`;
}
/** Rows of the server's own bookkeeping in config_entries; never shown nor accepted by the admin API. */
export const INTERNAL_GROUP = ":_internal";
export const NEED_REBOOT_KEY = ":need_reboot";

/** The family's description types as its JSON shows them: "string", "integer", ["list", "string"], … */
type FamilyType = string | readonly string[];

export interface Setting<T> {
  /** the key under the service group: ":instance", "Pleroma.Emails.Mailer", … */
  key: string;
  /** keyword path below that key, atom names without the colon */
  path: readonly string[];
  type: FamilyType;
  description: string;
  label?: string;
  suggestions?: readonly Json[];
  /** the family's `{:subgroup, adapter}` marker of adapter-specific mailer settings */
  subgroup?: string;
  /** rule 10: changing it sets need_reboot */
  reboot?: boolean;
  /** the family term → our value; undefined when the term does not fit */
  decode(term: Term): T | undefined;
  encode(value: T): Term;
}

type Fields<T> = { fields: { [F in keyof T]-?: Setting<T[F]> } };
type Entry<T> = Setting<T> | Fields<T>;
/** Every group and key of RuntimeSettings must be described (object-valued keys field by field). */
export type Registry = { [G in keyof RuntimeSettings]: { [K in keyof RuntimeSettings[G]]-?: Entry<RuntimeSettings[G][K]> } };

interface Options {
  label?: string;
  suggestions?: readonly Json[];
  subgroup?: string;
  reboot?: boolean;
}

/** Strings, and atoms or module names where a string is expected (":)" is an atom to the family). */
function asString(term: Term): string | undefined {
  if (typeof term === "string") return term;
  if (term !== null && typeof term === "object" && !Array.isArray(term) && term.kind !== "tuple" && term.kind !== "map") return toJson(term) as string;
  return undefined;
}

const asBoolean = (term: Term) => (typeof term === "boolean" ? term : undefined);

function asInteger(min: number) {
  return (term: Term): number | undefined => {
    const n = typeof term === "string" && /^-?\d+$/.test(term) ? Number(term) : term;
    return typeof n === "number" && Number.isSafeInteger(n) && n >= min ? n : undefined;
  };
}

function asStrings(term: Term): string[] | undefined {
  if (!Array.isArray(term)) return undefined;
  const items = term.map(asString);
  return items.every((s) => s !== undefined) ? (items as string[]) : undefined;
}

function asAtoms<T extends string>(allowed: readonly T[]) {
  return (term: Term): T[] | undefined => {
    if (!Array.isArray(term)) return undefined;
    const names = term.map((item) => (isAtom(item) ? item.name : typeof item === "string" ? item : undefined));
    return names.every((n): n is T => n !== undefined && (allowed as readonly string[]).includes(n)) ? (names as T[]) : undefined;
  };
}

/** A map (or keyword list) handed on as plain JSON: atom keys and values lose their colon, as the family's JSON encoder writes them. */
function plain(term: Term): unknown {
  if (term === null || typeof term !== "object") return term;
  if (Array.isArray(term)) return isKeyword(term) ? Object.fromEntries(term.map((pair) => [pair.items[0].name, plain(pair.items[1])])) : term.map(plain);
  switch (term.kind) {
    case "atom":
    case "module":
      return term.name;
    case "regex":
      return term.source;
    case "tuple":
      return term.items.map(plain);
    case "map":
      return Object.fromEntries(term.entries.map(([k, v]) => [String(plain(k)), plain(v)]));
  }
}

function asMap(term: Term): Record<string, unknown> | undefined {
  const isMap = term !== null && typeof term === "object" && !Array.isArray(term) && term.kind === "map";
  return isMap || (isKeyword(term) && term.length > 0) ? (plain(term) as Record<string, unknown>) : undefined;
}

/** Plain JSON as a term: objects become maps with atom keys (the family's defaults are written so). */
function fromPlain(value: unknown): Term {
  if (Array.isArray(value)) return value.map(fromPlain);
  if (value !== null && typeof value === "object") return { kind: "map", entries: Object.entries(value).map(([k, v]) => [atom(k), fromPlain(v)]) };
  return value as Term;
}

function asHostReasons(term: Term): { host: string; reason: string }[] | undefined {
  if (!Array.isArray(term)) return undefined;
  const out: { host: string; reason: string }[] = [];
  for (const item of term) {
    if (typeof item === "string") out.push({ host: item, reason: "" });
    else if (item !== null && typeof item === "object" && !Array.isArray(item) && item.kind === "tuple" && typeof item.items[0] === "string")
      out.push({ host: item.items[0], reason: typeof item.items[1] === "string" ? item.items[1] : "" });
    else return undefined;
  }
  return out;
}

function asReplacements(term: Term): { pattern: string; replacement: string }[] | undefined {
  if (!Array.isArray(term)) return undefined;
  const out: { pattern: string; replacement: string }[] = [];
  for (const item of term) {
    if (!isTuple(item) || item.items.length !== 2) return undefined;
    const [pattern, replacement] = item.items.map(asString);
    if (pattern === undefined || replacement === undefined) return undefined;
    out.push({ pattern, replacement });
  }
  return out;
}

const MRF_PREFIX = "Pleroma.Web.ActivityPub.MRF.";
/** The family's policies this server implements. */
export const POLICY_MODULES = ["SimplePolicy", "KeywordPolicy", "HashtagPolicy", "ObjectAgePolicy"] as const;

/** One module or a list of them; names are shortened as the family shortens them in NodeInfo. */
function asPolicies(term: Term): string[] | undefined {
  const items = Array.isArray(term) ? term : [term];
  const names = items.map((item) => (isModule(item) || isAtom(item) ? item.name : typeof item === "string" ? item : undefined));
  if (names.some((n) => n === undefined)) return undefined;
  return (names as string[]).map((n) => n.replace(/^Elixir\./, "").replace(MRF_PREFIX, ""));
}

/** A module setting whose modules stand for our values (the mailer adapter ↔ our transport). */
function asChoice<T extends string>(modules: Record<T, string>) {
  return (term: Term): T | undefined => {
    const name = isModule(term) ? term.name : typeof term === "string" ? term : undefined;
    return (Object.keys(modules) as T[]).find((value) => modules[value] === name);
  };
}

/** `{scale_ms, limit}` as the family writes it: a tuple of two positive integers; nil = unlimited. */
function asWindow(term: Term): RateWindow | null | undefined {
  if (term === null) return null;
  if (!isTuple(term) || term.items.length !== 2) return undefined;
  const [scale, limit] = term.items.map(asInteger(1));
  return scale !== undefined && limit !== undefined ? { scale_ms: scale, limit } : undefined;
}

/** The family's rate limit: one tuple for everyone, or `[unauthenticated, authenticated]`; nil disables it. */
function asRateLimit(term: Term): RateLimitRule | undefined {
  if (term === null) return { unauthenticated: null, authenticated: null };
  if (Array.isArray(term)) {
    if (term.length !== 2) return undefined;
    const [unauthenticated, authenticated] = term.map(asWindow);
    return unauthenticated === undefined || authenticated === undefined ? undefined : { unauthenticated, authenticated };
  }
  const one = asWindow(term);
  return one === undefined ? undefined : { unauthenticated: one, authenticated: one };
}

const windowTerm = (w: RateWindow | null): Term => (w ? tuple(w.scale_ms, w.limit) : null);
function rateLimitTerm(rule: RateLimitRule): Term {
  const [u, a] = [rule.unauthenticated, rule.authenticated];
  if (u?.scale_ms === a?.scale_ms && u?.limit === a?.limit) return windowTerm(u);
  return [windowTerm(u), windowTerm(a)];
}

/** Setting builders for one key under the service group. */
function under(key: string) {
  const base = (path: string, type: FamilyType, description: string, options: Options) => ({ key, path: path.split("."), type, description, ...options });
  return {
    string: (path: string, description: string, options: Options = {}): Setting<string> => ({
      ...base(path, "string", description, options),
      decode: asString,
      encode: (v) => v,
    }),
    integer: (path: string, description: string, options: Options & { min?: number } = {}): Setting<number> => ({
      ...base(path, "integer", description, options),
      decode: asInteger(options.min ?? 0),
      encode: (v) => v,
    }),
    boolean: (path: string, description: string, options: Options = {}): Setting<boolean> => ({
      ...base(path, "boolean", description, options),
      decode: asBoolean,
      encode: (v) => v,
    }),
    strings: (path: string, description: string, options: Options = {}): Setting<string[]> => ({
      ...base(path, ["list", "string"], description, options),
      decode: asStrings,
      encode: (v) => [...v],
    }),
    atoms: <T extends string>(path: string, description: string, allowed: readonly T[], options: Options = {}): Setting<T[]> => ({
      ...base(path, ["list", "atom"], description, { suggestions: allowed.map((a) => `:${a}`), ...options }),
      decode: asAtoms(allowed),
      encode: (v) => v.map(atom),
    }),
    rateLimit: (path: string, description: string, options: Options = {}): Setting<RateLimitRule> => ({
      ...base(path, ["tuple", "list"], description, { suggestions: [{ tuple: [60_000, 15] }, [{ tuple: [1000, 10] }, { tuple: [1000, 30] }]], ...options }),
      decode: asRateLimit,
      encode: rateLimitTerm,
    }),
    map: (path: string, description: string, options: Options = {}): Setting<Record<string, unknown>> => ({
      ...base(path, "map", description, options),
      decode: asMap,
      encode: fromPlain,
    }),
    /** the family's `[{"host", "reason"}]` instance lists (plain host strings are read too, as older configurations wrote them) */
    hostReasons: (path: string, description: string, options: Options = {}): Setting<{ host: string; reason: string }[]> => ({
      ...base(path, ["list", "tuple"], description, { suggestions: [["example.com", "Reason"]], ...options }),
      decode: asHostReasons,
      encode: (v) => v.map((e) => tuple(e.host, e.reason)),
    }),
    /** the family's `[{pattern, replacement}]` (a pattern is a string or a `~r/…/` regex) */
    replacements: (path: string, description: string, options: Options = {}): Setting<{ pattern: string; replacement: string }[]> => ({
      ...base(path, ["list", "tuple"], description, { suggestions: [{ tuple: ["foo", "bar"] }, { tuple: ["~r/foo/iu", "bar"] }], ...options }),
      decode: asReplacements,
      encode: (v) => v.map((e) => tuple(e.pattern.startsWith("~r") ? { kind: "regex", source: e.pattern } : e.pattern, e.replacement)),
    }),
    /** MRF policy modules, kept as their short names (`SimplePolicy`) */
    policies: (path: string, description: string, options: Options = {}): Setting<string[]> => ({
      ...base(path, ["list", "module"], description, { suggestions: POLICY_MODULES.map((m) => `${MRF_PREFIX}${m}`), ...options }),
      decode: asPolicies,
      encode: (v) => v.map((name) => module(`${MRF_PREFIX}${name}`)),
    }),
    choice: <T extends string>(path: string, description: string, modules: Record<T, string>, options: Options = {}): Setting<T> => ({
      ...base(path, "module", description, { suggestions: Object.values(modules), ...options }),
      decode: asChoice(modules),
      encode: (v) => module(modules[v]),
    }),
  };
}

const SMTP = "Swoosh.Adapters.SMTP";

function buildRegistry(): Registry {
  const instance = under(":instance");
  const mailer = under("Pleroma.Emails.Mailer");
  const http = under(":http");
  const activitypub = under(":activitypub");
  const mrfSimple = under(":mrf_simple");
  const mrf = under(":mrf");
  const mediaProxy = under(":media_proxy");
  const previewProxy = under(":media_preview_proxy");
  const mrfKeyword = under(":mrf_keyword");
  const mrfHashtag = under(":mrf_hashtag");
  const mrfObjectAge = under(":mrf_object_age");
  const backup = under("Pleroma.User.Backup");
  const frontends = under(":frontend_configurations");
  const installed = under(":frontends");
  const graphql = under(":graphql");
  const captcha = under("Pleroma.Captcha");
  const rate = under(":rate_limit");
  const window = "{scale_ms, limit}: at most `limit` requests per `scale_ms` milliseconds, per IP address for anonymous requests and per account for signed-in ones; a list [{unauthenticated}, {authenticated}] sets them apart; nil: no limit.";
  const manifest = under(":manifest");
  const smtp = { subgroup: SMTP };
  return {
    instance: {
      name: instance.string("name", "Name of the instance", { suggestions: ["Pleroma"] }),
      email: instance.string("email", "Email used to reach an Administrator/Moderator of the instance", { label: "Admin Email Address", suggestions: ["email@example.com"] }),
      description: instance.string("description", "The instance's description. It can be seen in nodeinfo and `/api/v1/instance`", { suggestions: ["Very cool instance"] }),
      short_description: instance.string("short_description", "Shorter version of instance description. It can be seen on `/api/v1/instance`"),
      limit: instance.integer("limit", "Posts character limit (CW/Subject included in the counter)", { min: 1, suggestions: [5000] }),
      description_limit: instance.integer("description_limit", "The character limit for image descriptions", { min: 1, suggestions: [5000] }),
      chat_limit: instance.integer("chat_limit", "Character limit of the instance chat messages", { min: 1, suggestions: [5000] }),
      upload_limit: instance.integer("upload_limit", "File size limit of uploads (except for avatar, background, banner)", { reboot: true, suggestions: [16_000_000] }),
      avatar_upload_limit: instance.integer("avatar_upload_limit", "File size limit of user's profile avatars", { suggestions: [2_000_000] }),
      background_upload_limit: instance.integer("background_upload_limit", "File size limit of user's profile backgrounds", { suggestions: [4_000_000] }),
      banner_upload_limit: instance.integer("banner_upload_limit", "File size limit of user's profile banners", { suggestions: [4_000_000] }),
      poll_limits: {
        fields: {
          max_options: instance.integer("poll_limits.max_options", "Maximum number of options", { min: 1, suggestions: [20] }),
          max_option_chars: instance.integer("poll_limits.max_option_chars", "Maximum number of characters per option", { min: 1, suggestions: [200] }),
          min_expiration: instance.integer("poll_limits.min_expiration", "Minimum expiration time (in seconds)", { suggestions: [0] }),
          max_expiration: instance.integer("poll_limits.max_expiration", "Maximum expiration time (in seconds)", { suggestions: [31_536_000] }),
        },
      },
      registrations_open: instance.boolean(
        "registrations_open",
        "Enable registrations for anyone. Invitations require this setting to be disabled.",
      ),
      invites_enabled: instance.boolean("invites_enabled", "Enable user invitations for admins (depends on `registrations_open` being disabled)"),
      account_approval_required: instance.boolean("account_approval_required", "Require users to be manually approved by an admin before signing in"),
      account_activation_required: instance.boolean("account_activation_required", "Require users to confirm their emails before signing in"),
      federating: instance.boolean("federating", "Enable federation with other instances"),
      max_account_fields: instance.integer("max_account_fields", "The maximum number of custom fields in the user profile", { suggestions: [10] }),
      account_field_name_length: instance.integer("account_field_name_length", "An account field name maximum length", { min: 1, suggestions: [512] }),
      account_field_value_length: instance.integer("account_field_value_length", "An account field value maximum length", { min: 1, suggestions: [2048] }),
      max_remote_account_fields: instance.integer("max_remote_account_fields", "The maximum number of custom fields in the remote user profile", { suggestions: [20] }),
      max_pinned_statuses: instance.integer("max_pinned_statuses", "The maximum number of pinned statuses. 0 will disable the feature.", { suggestions: [0, 1, 3] }),
      instance_thumbnail: instance.string("instance_thumbnail", "The instance thumbnail can be any image that represents your instance and is used by some apps or services when they display information about your instance."),
      languages: instance.strings("languages", "Languages to be exposed in /api/v1/instance. Should be in the format of BCP47 language codes.", { suggestions: ["en"] }),
      allowed_post_formats: instance.strings("allowed_post_formats", "MIME-type list of formats allowed to be posted (transformed into HTML)", {
        suggestions: ["text/plain", "text/html", "text/markdown", "text/bbcode"],
      }),
      public: instance.boolean("public", "Makes the client API in authenticated mode-only except for user-profiles. Useful for disabling the Local Timeline and The Whole Known Network."),
      federated_timeline_available: instance.boolean("federated_timeline_available", "Whether the federated timeline is shown to clients (extension)"),
      background_image: instance.string("background_image", "The background image of the frontends", { suggestions: ["/images/city.jpg"] }),
      local_bubble: instance.strings("local_bubble", "List of instances hosts whose posts appear in the bubble timeline", { suggestions: ["example.com"] }),
      software_name: instance.string("software_name", "The software name nodeinfo reports (extension; family clients look for pleroma or akkoma)", { suggestions: ["pleroma", "akkoma"] }),
      admin_privileges: instance.atoms<Privilege>("admin_privileges", "What extra privileges to allow admins (e.g. updating user credentials, get password reset token, delete users, index and read private statuses and chats)", ADMIN_PRIVILEGES),
      max_frontend_settings_json_chars: instance.integer("max_frontend_settings_json_chars", "Maximum size of a synced frontend settings profile, in characters of JSON", { min: 1, suggestions: [100_000] }),
      export_prometheus_metrics: instance.boolean("export_prometheus_metrics", "Serve Prometheus metrics at /api/v1/<family>/metrics to admins (the later family's setting; off answers 404)"),
      moderator_privileges: instance.atoms<Privilege>("moderator_privileges", "What extra privileges to allow moderators (e.g. updating user credentials, get password reset token, delete users, index and read private statuses and chats)", ADMIN_PRIVILEGES),
    },
    mailer: {
      transport: mailer.choice("adapter", "The mail adapter: Swoosh.Adapters.SMTP sends through the SMTP settings, Swoosh.Adapters.Local writes .eml files under DATA_DIR/mail", { smtp: SMTP, file: "Swoosh.Adapters.Local" }),
      from: instance.string("notify_email", "Envelope FROM address for mail sent by the server", { label: "Sender Email Address", suggestions: ["notify@example.com"] }),
      smtp: {
        fields: {
          host: mailer.string("relay", "`Swoosh.Adapters.SMTP` adapter specific setting", { ...smtp, suggestions: ["smtp.gmail.com"] }),
          port: mailer.integer("port", "`Swoosh.Adapters.SMTP` adapter specific setting", { ...smtp, min: 1, suggestions: [1025] }),
          secure: mailer.boolean("ssl", "`Swoosh.Adapters.SMTP` adapter specific setting", { ...smtp, label: "SSL" }),
          user: mailer.string("username", "`Swoosh.Adapters.SMTP` adapter specific setting", { ...smtp, suggestions: ["pleroma"] }),
          password: mailer.string("password", "`Swoosh.Adapters.SMTP` adapter specific setting", { ...smtp, suggestions: ["password"] }),
        },
      },
    },
    activitypub: {
      authorized_fetch_mode: activitypub.boolean("authorized_fetch_mode", "Require HTTP signatures for AP fetches"),
    },
    mrf_simple: {
      reject: mrfSimple.hostReasons("reject", "List of instances to reject activities from (all of them, deletes included: refused with 403 before processing) and the reason for doing so"),
      accept: mrfSimple.hostReasons("accept", "List of instances to only accept activities from (except deletes) and the reason for doing so"),
      media_removal: mrfSimple.hostReasons("media_removal", "List of instances to strip media attachments from and the reason for doing so"),
      media_nsfw: mrfSimple.hostReasons("media_nsfw", "List of instances to tag all media as NSFW (sensitive) from and the reason for doing so", { label: "Media NSFW" }),
      federated_timeline_removal: mrfSimple.hostReasons("federated_timeline_removal", "List of instances to remove from the Federated (aka The Whole Known Network) Timeline and the reason for doing so"),
      followers_only: mrfSimple.hostReasons("followers_only", "Force posts from the given instances to be visible by followers only and the reason for doing so"),
      report_removal: mrfSimple.hostReasons("report_removal", "List of instances to reject reports from and the reason for doing so"),
      avatar_removal: mrfSimple.hostReasons("avatar_removal", "List of instances to strip avatars from and the reason for doing so"),
      banner_removal: mrfSimple.hostReasons("banner_removal", "List of instances to strip banners from and the reason for doing so"),
      reject_deletes: mrfSimple.hostReasons("reject_deletes", "List of instances to reject deletions from and the reason for doing so"),
    },
    mrf: {
      policies: mrf.policies("policies", "A list of MRF policies enabled. Module names are shortened (removed Pleroma.Web.ActivityPub.MRF part) if possible. SimplePolicy and HashtagPolicy always run here."),
      transparency: mrf.boolean("transparency", "Make the content of your Message Rewrite Facility settings public (via nodeinfo)", { label: "MRF transparency" }),
      transparency_exclusions: mrf.hostReasons("transparency_exclusions", "Exclude specific instance names from MRF transparency. The use of the exclusions feature will be disclosed in nodeinfo as a boolean value.", { label: "MRF transparency exclusions" }),
    },
    mrf_keyword: {
      reject: mrfKeyword.strings("reject", "A list of patterns which result in message being rejected. Each pattern can be a string or a regular expression.", { suggestions: ["foo", "~r/foo/iu"] }),
      federated_timeline_removal: mrfKeyword.strings("federated_timeline_removal", "A list of patterns which result in message being removed from federated timelines (a.k.a unlisted). Each pattern can be a string or a regular expression.", { suggestions: ["foo", "~r/foo/iu"] }),
      replace: mrfKeyword.replacements("replace", "A list of tuples containing {pattern, replacement}. Each pattern can be a string or a regular expression."),
    },
    mrf_hashtag: {
      reject: mrfHashtag.strings("reject", "A list of hashtags which result in the activity being rejected", { suggestions: ["foo"] }),
      federated_timeline_removal: mrfHashtag.strings("federated_timeline_removal", "A list of hashtags which result in the activity being removed from federated timelines (a.k.a unlisted)", { suggestions: ["foo"] }),
      sensitive: mrfHashtag.strings("sensitive", "A list of hashtags which result in the activity being set as sensitive (a.k.a NSFW)", { suggestions: ["nsfw"] }),
    },
    mrf_object_age: {
      threshold: mrfObjectAge.integer("threshold", "Required age (in seconds) of a post before actions are taken.", { suggestions: [172_800] }),
      actions: mrfObjectAge.atoms<ObjectAgeAction>("actions", "A list of actions to apply to the post. `:delist` removes the post from public timelines; `:strip_followers` removes followers from the ActivityPub recipient list ensuring they won't be delivered to home timelines; `:reject` rejects the message entirely", OBJECT_AGE_ACTIONS),
    },
    media_proxy: {
      enabled: mediaProxy.boolean("enabled", "Enables proxying of remote media via the instance's proxy"),
      base_url: mediaProxy.string("base_url", "The base URL to access a user-uploaded file. Useful when you want to proxy the media files via another host/CDN fronts.", { suggestions: ["https://example.com"] }),
      whitelist: mediaProxy.strings("whitelist", "List of hosts with scheme to bypass the MediaProxy", { suggestions: ["http://example.com"] }),
      proxy_opts: {
        fields: {
          max_body_length: mediaProxy.integer("proxy_opts.max_body_length", "Maximum file size (in bytes) allowed through the Pleroma MediaProxy cache.", { min: 1, suggestions: [26_214_400] }),
        },
      },
      cache_ttl_seconds: mediaProxy.integer("cache_ttl_seconds", "How long a cached copy is served before it is fetched again, in seconds (extension)", { min: 1, suggestions: [86_400] }),
      cache_max_bytes: mediaProxy.integer("cache_max_bytes", "Total size of the proxy's cache; the oldest copies are evicted beyond it, in bytes (extension)", { min: 1, suggestions: [536_870_912] }),
    },
    http: {
      allow_private_addresses: http.boolean("allow_private_addresses", "Remote fetches may reach private, loopback and link-local addresses (extension)"),
      private_address_exceptions: http.strings("private_address_exceptions", "Addresses or CIDRs reachable even when private addresses are refused, e.g. a local relay (extension)", { suggestions: ["10.0.0.5", "192.168.1.0/24"] }),
      fetch_timeout_ms: http.integer("fetch_timeout_ms", "Timeout of a remote fetch, in milliseconds (extension)", { min: 1, suggestions: [20_000] }),
      max_body_bytes: http.integer("max_body_bytes", "Largest remote response body accepted, in bytes (extension)", { min: 1, suggestions: [52_428_800] }),
    },
    media_preview_proxy: {
      enabled: previewProxy.boolean("enabled", "Enables proxying of remote media preview to the instance's proxy. Requires enabled media proxy."),
      thumbnail_max_width: previewProxy.integer("thumbnail_max_width", "Max width of preview thumbnail for images (video preview always has original dimensions).", { min: 1, suggestions: [600] }),
      thumbnail_max_height: previewProxy.integer("thumbnail_max_height", "Max height of preview thumbnail for images (video preview always has original dimensions).", { min: 1, suggestions: [600] }),
      image_quality: previewProxy.integer("image_quality", "Quality of the output. Ranges from 0 (min quality) to 100 (max quality).", { min: 1, suggestions: [85] }),
    },
    frontends: {
      primary: installed.map("primary", "The frontend served at / (a map with name and ref of an installed frontend, e.g. %{\"name\" => \"pleroma-fe\", \"ref\" => \"stable\"})"),
      admin: installed.map("admin", "The admin frontend served at /<namespace>/admin (a map with name and ref of an installed frontend)"),
    },
    graphql: {
      explorer: graphql.boolean("explorer", "Serve the GraphQL explorer (GraphiQL) at /graphql in production; it is always on in development (extension)"),
    },
    frontend_configurations: {
      pleroma_fe: frontends.map("pleroma_fe", "Settings for Pleroma FE (a map replaced as a whole)"),
      masto_fe: frontends.map("masto_fe", "Settings for Masto FE (a map replaced as a whole)"),
    },
    captcha: {
      enabled: captcha.boolean("enabled", "Whether the captcha should be shown on registration"),
      seconds_valid: captcha.integer("seconds_valid", "The time in seconds for which the captcha is valid", { min: 1, reboot: true, suggestions: [60] }),
      method: captcha.choice("method", "The method/service to use for captcha", { native: "Pleroma.Captcha.Native" }),
    },
    rate_limit: {
      enabled: rate.boolean("enabled", "Apply the rate limits below (extension; default RATE_LIMITS_ENABLED, true)"),
      authentication: rate.rateLimit("authentication", `Sign-in attempts (token endpoint, authorization page, MFA challenge, admin UI). ${window}`),
      app_account_creation: rate.rateLimit("app_account_creation", `Account registrations. ${window}`),
      password_reset: rate.rateLimit("password_reset", `Password reset requests. ${window}`),
      statuses_actions: rate.rateLimit("statuses_actions", `Posting and editing statuses. ${window}`),
      media_upload: rate.rateLimit("media_upload", `Media uploads (extension). ${window}`),
      search: rate.rateLimit("search", `Searches. ${window}`),
      timeline: rate.rateLimit("timeline", `Public, bubble and hashtag timelines. ${window}`),
    },
    manifest: {
      theme_color: manifest.string("theme_color", "Describe the theme color to use by the browser", { suggestions: ["#282c37", "mediumpurple"] }),
      background_color: manifest.string("background_color", "Describe the background color of the app", { suggestions: ["#191b22", "aliceblue"] }),
    },
    backup: {
      limit_days: backup.integer("limit_days", "Limit user to export not more often than once per N days", { suggestions: [7] }),
    },
  };
}

/** Descriptions of the family keys (and of nested keyword settings) themselves. */
const KEYS: Record<string, { label: string; description: string }> = {
  ":instance": { label: "Instance", description: "Instance-related settings" },
  "Pleroma.Emails.Mailer": { label: "Pleroma.Emails.Mailer", description: "Mailer-related settings" },
  ":http": { label: "HTTP", description: "HTTP client settings" },
  ":mrf_simple": { label: "MRF simple", description: "Simple ingress policies" },
  ":mrf": { label: "MRF", description: "General MRF settings" },
  ":media_proxy": { label: "Media proxy", description: "Media proxy" },
  ":mrf_keyword": { label: "MRF Keyword", description: "Reject or Word-Replace messages matching a keyword or [Regex](https://hexdocs.pm/elixir/Regex.html)." },
  ":mrf_hashtag": { label: "MRF Hashtag", description: "Reject, TWKN-remove or Set-Sensitive messages with specific hashtags (without the leading #)\n\nNote: This MRF Policy is always enabled, if you want to disable it you have to set empty lists.\n" },
  ":mrf_object_age": { label: "MRF Object Age", description: "Rejects or delists posts based on their timestamp deviance from your server's clock." },
  ":activitypub": { label: "ActivityPub", description: "ActivityPub-related settings" },
  ":frontend_configurations": {
    label: "Frontend configurations",
    description: "Configuration data handed to frontends as it is (GET /api/v1/<namespace>/frontend_configurations). By default, settings for pleroma_fe and masto_fe are configured.",
  },
  ":media_preview_proxy": { label: "Media preview proxy", description: "Media preview proxy" },
  ":frontends": { label: "Frontends", description: "Installed frontends to serve" },
  ":graphql": { label: "GraphQL", description: "The GraphQL API (extension)" },
  "Pleroma.Captcha": { label: "Pleroma.Captcha", description: "Captcha-related settings" },
  "Pleroma.User.Backup": { label: "Pleroma.User.Backup", description: "Account backup" },
  ":rate_limit": { label: "Rate limit", description: "Rate limit settings. 429 with Retry-After and X-RateLimit-* headers when exceeded." },
  ":manifest": { label: "Manifest", description: "This section describe PWA manifest instance-specific values. Currently this option relate only for MastoFE." },
};
const NESTED: Record<string, { type: FamilyType; description: string }> = {
  ":media_proxy proxy_opts": { type: "keyword", description: "Internal Pleroma.ReverseProxy settings" },
  ":instance poll_limits": { type: "map", description: "A map with poll limits for local polls" },
};

export interface RegisteredSetting {
  /** group, key (and field) in RuntimeSettings */
  ours: readonly string[];
  setting: Setting<any>;
}

let built: RegisteredSetting[] | undefined;

/** The registry flattened, in declaration order (built on first use: runtime.ts imports this module). */
export function registeredSettings(): RegisteredSetting[] {
  if (built) return built;
  const out: RegisteredSetting[] = [];
  for (const [group, keys] of Object.entries(buildRegistry())) {
    for (const [key, entry] of Object.entries(keys as Record<string, Entry<unknown>>)) {
      if ("fields" in entry) for (const [field, setting] of Object.entries(entry.fields as Record<string, Setting<unknown>>)) out.push({ ours: [group, key, field], setting });
      else out.push({ ours: [group, key], setting: entry });
    }
  }
  return (built = out);
}

/** The family keys the registry covers, in order. */
export function registeredKeys(): string[] {
  return [...new Set(registeredSettings().map((r) => r.setting.key))];
}

const label = (name: string) => (name.charAt(0).toUpperCase() + name.slice(1)).replaceAll("_", " ");

/** GET /config/descriptions: one object per family key under the namespace's group, children per keyword entry (nested ones nested). */
export function configDescriptions(namespace: string) {
  return registeredKeys().map((key) => {
    const children: Record<string, unknown>[] = [];
    for (const { setting } of registeredSettings().filter((r) => r.setting.key === key)) {
      const child = {
        ...(setting.subgroup ? { group: [":subgroup", setting.subgroup] } : {}),
        key: `:${setting.path.at(-1)}`,
        label: setting.label ?? label(setting.path.at(-1)!),
        type: setting.type,
        description: setting.description,
        suggestions: setting.suggestions ?? [],
      };
      if (setting.path.length === 1) {
        children.push(child);
        continue;
      }
      const parentKey = `:${setting.path[0]}`;
      let parent = children.find((c) => c.key === parentKey);
      if (!parent) {
        parent = { key: parentKey, label: label(setting.path[0]!), ...NESTED[`${key} ${setting.path[0]}`], suggestions: [], children: [] };
        children.push(parent);
      }
      (parent.children as unknown[]).push(child);
    }
    return { group: serviceGroupName(namespace), key, label: KEYS[key]?.label ?? key, type: "group", description: KEYS[key]?.description ?? "", children };
  });
}

function getAt(target: unknown, path: readonly string[]): unknown {
  return path.reduce<any>((node, part) => node?.[part], target);
}

function setAt(target: unknown, path: readonly string[], value: unknown) {
  const parent = getAt(target, path.slice(0, -1)) as Record<string, unknown>;
  parent[path.at(-1)!] = value;
}

function keywordAt(term: Term, path: readonly string[]): Term | undefined {
  let node: Term | undefined = term;
  for (const part of path) {
    if (!isKeyword(node)) return undefined;
    node = keywordGet(node, part);
  }
  return node;
}

/** Sets the value at a keyword path: in place when the key is there, appended when not. */
function putAt(list: Keyword, path: readonly string[], value: Term): Keyword {
  const [head, ...rest] = path as [string, ...string[]];
  const inner = keywordGet(list, head);
  const next = rest.length ? putAt(isKeyword(inner) ? inner : [], rest, value) : value;
  if (inner === undefined) return [...list, ...keyword([[head, next]])];
  return list.map((pair) => (pair.items[0].name === head ? keyword([[head, next]])[0]! : pair));
}

/** The registry's current values (the defaults, when given the defaults) in the family's form, per key. */
export function familyValues(current: RuntimeSettings): Map<string, Keyword> {
  const out = new Map<string, Keyword>();
  for (const { ours, setting } of registeredSettings()) {
    out.set(setting.key, putAt(out.get(setting.key) ?? [], setting.path, setting.encode(getAt(current, ours))));
  }
  return out;
}

/**
 * Applies a stored family value of `key` (under the service group) to `target`: every registry setting
 * found in it is decoded and set. Returns what did not fit, as messages (nothing is set for those).
 */
export function applyFamilyValue(target: RuntimeSettings, key: string, value: Term, group = SERVICE_GROUP): string[] {
  const problems: string[] = [];
  for (const { ours, setting } of registeredSettings()) {
    if (setting.key !== key) continue;
    const found = keywordAt(value, setting.path);
    if (found === undefined) continue;
    const decoded = setting.decode(found);
    if (decoded === undefined) problems.push(`${group} ${key} ${setting.path.map((p) => `:${p}`).join(" ")}: expected ${JSON.stringify(setting.type)}, got ${JSON.stringify(toJson(found))}`);
    else setAt(target, ours, decoded);
  }
  return problems;
}

/** Rule 10: settings the family applies only at start-up that we do not read (the registry flags the others). */
const RESTART_KEYS = [":hackney_pools", ":connections_pool", ":pools", ":chat"];
const RESTART_SUBKEYS: readonly (readonly [string, string])[] = [["Pleroma.Upload", "proxy_remote"]];

/** Whether changing these subkeys (atom names) of group/key sets need_reboot. */
export function needsReboot(group: string, key: string, subkeys: readonly string[]): boolean {
  if (group !== SERVICE_GROUP) return false;
  if (RESTART_KEYS.includes(key)) return true;
  const restartOnly = [...RESTART_SUBKEYS, ...registeredSettings().filter((r) => r.setting.reboot).map((r) => [r.setting.key, r.setting.path[0]!] as const)];
  return restartOnly.some(([k, subkey]) => k === key && subkeys.includes(subkey));
}
