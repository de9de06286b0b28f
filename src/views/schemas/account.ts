// Account, its emoji and fields, and Relationship (views/account.ts, emoji.ts, relationship.ts).
import { z } from "zod";
import { extensions, timestamp, view } from "./view.ts";

const emojiFields = { shortcode: z.string(), url: z.string(), static_url: z.string(), visible_in_picker: z.boolean() };

/** The emoji of statuses and accounts (renderEmojis). */
export const EmojiSchema = view("Emoji", () => z.object(emojiFields));

/** One of the instance's emoji, for the picker (renderCustomEmoji). */
export const CustomEmojiSchema = view("CustomEmoji", () => z.object({ ...emojiFields, category: z.string() }));

export const RelationshipSchema = view("Relationship", () =>
  z.object({
    id: z.string(),
    following: z.boolean(),
    showing_reblogs: z.boolean(),
    notifying: z.boolean(),
    followed_by: z.boolean(),
    blocking: z.boolean(),
    blocked_by: z.boolean(),
    muting: z.boolean(),
    muting_notifications: z.boolean(),
    subscribing: z.boolean(),
    requested: z.boolean(),
    requested_by: z.boolean(),
    domain_blocking: z.boolean(),
    endorsed: z.boolean(),
    note: z.string(),
  }),
);

export const AccountSchema = view("Account", (w) => {
  // typed loosely: the schema refers to itself (`moved`)
  const account: z.ZodObject = z.object({
    id: z.string(),
    username: z.string(),
    acct: z.string(),
    fqn: z.string(),
    display_name: z.string(),
    locked: z.boolean(),
    bot: z.boolean(),
    group: z.boolean(),
    discoverable: z.boolean(),
    created_at: timestamp(),
    note: z.string(),
    url: z.string(),
    avatar: z.string(),
    avatar_static: z.string(),
    header: z.string(),
    header_static: z.string(),
    followers_count: z.number().int(),
    following_count: z.number().int(),
    statuses_count: z.number().int(),
    /** a date (YYYY-MM-DD) */
    last_status_at: z.string().nullable(),
    emojis: z.array(EmojiSchema(w)),
    fields: z.array(z.object({ name: z.string(), value: z.string(), verified_at: z.null() })),
    get moved(): z.ZodNullable<z.ZodObject> {
      return account.nullable();
    },
    /** the owner's own view only (verify_credentials, update_credentials) */
    source: z
      .object({
        note: z.string(),
        fields: z.array(z.object({ name: z.string(), value: z.string() })),
        privacy: z.string(),
        sensitive: z.boolean(),
        language: z.string().nullable(),
        follow_requests_count: z.number().int(),
        ...extensions(w, { namespace: true }),
      })
      .optional(),
    ...extensions(w, { namespace: true, family: true }),
  });
  return account;
});
