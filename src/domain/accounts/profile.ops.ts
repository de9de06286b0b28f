// The signed-in user's own profile: update_credentials and the family's image endpoints.
import { z } from "zod";
import type { Prisma } from "../../generated/prisma/client.ts";
import { removeStored, storeImage, type Upload } from "../../media/storage.ts";
import type { Ctx } from "../context.ts";
import { Invalid } from "../../kernel/errors.ts";
import { array, bool } from "../inputs.ts";
import { customEmojiIn } from "../emoji/emojify.ts";
import { federate, hasRemoteFollowers } from "../federation/outbox.ts";
import { operation } from "../operation.ts";
import { requireAccount } from "../auth/policy.ts";
import { text } from "../input-limits.ts";

const field = z.object({ name: text().default(""), value: text().default("") });

/** `fields_attributes` comes as an array, or as an object keyed "0", "1", … from forms. */
const fieldsAttributes = z.preprocess((v) => (v && typeof v === "object" && !Array.isArray(v) ? Object.values(v) : v), z.array(field));

/** Settings store: `{frontend: {...}}`, as an object or a JSON string (forms). */
const settingsStore = z.preprocess((v) => {
  if (typeof v !== "string") return v;
  try {
    return JSON.parse(v);
  } catch {
    return v;
  }
}, z.record(z.string(), z.unknown()));

/** An image upload, or "" to reset to the default. */
export type ImageInput = Upload | "";
const IMAGES = { avatar: "avatar_upload_limit", header: "banner_upload_limit", background: "background_upload_limit" } as const;
type ImageField = keyof typeof IMAGES;

export const profileInput = z.object({
  display_name: z.string().optional(),
  note: text().optional(),
  locked: bool().optional(),
  bot: bool().optional(),
  discoverable: bool().optional(),
  actor_type: z.enum(["Person", "Service"]).optional(),
  fields_attributes: fieldsAttributes.optional(),
  source: z.object({ privacy: z.enum(["public", "unlisted", "private", "direct"]).optional(), sensitive: bool().optional(), language: z.string().optional() }).optional(),
  default_scope: z.enum(["public", "unlisted", "private", "direct"]).optional(),
  no_rich_text: bool().optional(),
  hide_followers: bool().optional(),
  hide_follows: bool().optional(),
  hide_followers_count: bool().optional(),
  hide_follows_count: bool().optional(),
  hide_favorites: bool().optional(),
  show_role: bool().optional(),
  skip_thread_containment: bool().optional(),
  allow_following_move: bool().optional(),
  accepts_chat_messages: bool().optional(),
  also_known_as: array(z.url()).optional(),
  language: z.string().max(35).optional(),
  settings_store: settingsStore.optional(),
  /** the family's birthday: YYYY-MM-DD, "" (or null) clears it */
  birthday: z.union([z.literal(""), z.iso.date()]).nullable().optional(),
  show_birthday: bool().optional(),
  background_image_description: z.string().optional(),
  /** uploads (or "" to reset), passed by the surface */
  avatar: z.custom<ImageInput>().optional(),
  header: z.custom<ImageInput>().optional(),
  background: z.custom<ImageInput>().optional(),
});
export type ProfileInput = z.input<typeof profileInput>;

async function imageChange(ctx: Ctx, fieldName: ImageField, value: ImageInput | undefined, current: string | null) {
  if (value === undefined) return undefined;
  const next = value === "" ? null : await storeImage(ctx, value, { field: fieldName, maxBytes: ctx.config.get("instance", IMAGES[fieldName]) });
  return { next, previous: current };
}

export const updateProfile = operation({
  name: "accounts.updateProfile",
  access: { scopes: ["write:accounts"] },
  input: profileInput,
  async run(ctx, input) {
    const me = requireAccount(ctx);
    const limits = ctx.config.group("instance");
    const data: Prisma.AccountUpdateInput = {};
    if (input.display_name !== undefined) data.displayName = input.display_name.slice(0, 2048);
    if (input.note !== undefined) {
      if (input.note.length > limits.limit) throw Invalid(`note: is too long (limit ${limits.limit})`, { note: "is too long" });
      data.note = input.note;
    }
    if (input.fields_attributes) {
      const fields = input.fields_attributes.filter((f) => f.name || f.value);
      if (fields.length > limits.max_account_fields) throw Invalid(`fields_attributes: at most ${limits.max_account_fields} fields`, { fields_attributes: "too many fields" });
      if (fields.some((f) => f.name.length > limits.account_field_name_length || f.value.length > limits.account_field_value_length))
        throw Invalid("fields_attributes: a name or value is too long", { fields_attributes: "is too long" });
      data.fields = fields;
    }
    const flags = {
      locked: "locked",
      discoverable: "discoverable",
      no_rich_text: "noRichText",
      hide_followers: "hideFollowers",
      hide_follows: "hideFollows",
      hide_followers_count: "hideFollowersCount",
      hide_follows_count: "hideFollowsCount",
      hide_favorites: "hideFavorites",
      show_role: "showRole",
      skip_thread_containment: "skipThreadContainment",
      allow_following_move: "allowFollowingMove",
      accepts_chat_messages: "acceptsChatMessages",
      show_birthday: "showBirthday",
    } as const;
    for (const [param, column] of Object.entries(flags)) {
      const value = input[param as keyof typeof flags];
      if (value !== undefined) (data as Record<string, unknown>)[column] = value;
    }
    if (input.actor_type) data.actorType = input.actor_type;
    else if (input.bot !== undefined) data.actorType = input.bot ? "Service" : "Person";
    const scope = input.default_scope ?? input.source?.privacy;
    if (scope) data.defaultScope = scope;
    const language = input.language ?? input.source?.language;
    if (language !== undefined) data.language = language || null;
    if (input.also_known_as) data.alsoKnownAs = input.also_known_as;
    if (input.birthday !== undefined) {
      const birthday = input.birthday ? new Date(`${input.birthday}T00:00:00Z`) : null;
      if (birthday && birthday > ctx.clock()) throw Invalid("birthday: is in the future", { birthday: "is invalid" });
      data.birthday = birthday;
    }
    if (input.background_image_description !== undefined) data.backgroundDescription = input.background_image_description || null;
    if (input.settings_store) {
      // each frontend's settings are replaced whole; other frontends keep theirs
      data.settingsStore = { ...(me.settingsStore as Record<string, unknown>), ...input.settings_store } as Prisma.InputJsonValue;
    }

    const images = {
      avatar: await imageChange(ctx, "avatar", input.avatar, me.avatar),
      header: await imageChange(ctx, "header", input.header, me.header),
      background: await imageChange(ctx, "background", input.background, me.background),
    };
    for (const [key, change] of Object.entries(images)) if (change) (data as Record<string, unknown>)[key] = change.next;

    if (input.display_name !== undefined || input.note !== undefined || input.fields_attributes) {
      // custom emoji of the profile as it will read, stored with it (see statuses)
      const fields = (input.fields_attributes ?? (me.fields as { name: string; value: string }[] | null) ?? []).flatMap((f) => [f.name, f.value]);
      data.emojis = customEmojiIn(ctx, input.display_name ?? me.displayName, input.note ?? me.note, ...fields) as unknown as Prisma.InputJsonValue;
    }
    const updated = await ctx.db.account.update({ where: { id: me.id }, data });
    for (const change of Object.values(images)) if (change && change.previous !== change.next) await removeStored(ctx, change.previous);
    // federation: an Update of the actor goes to its remote followers
    if (await hasRemoteFollowers(ctx, me.id)) await federate(ctx, { type: "actor.updated", accountId: me.id });
    return updated;
  },
});
