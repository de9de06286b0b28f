// Status with its media, poll, mentions, tags and filter results; the thread Context
// (views/status.ts, media.ts, filter.ts).
import { z } from "zod";
import { AccountSchema, EmojiSchema } from "./account.ts";
import { FilterV2Schema } from "./filter.ts";
import { extensions, listOf, timestamp, view } from "./view.ts";

export const MediaAttachmentSchema = view("MediaAttachment", (w) =>
  z.object({
    id: z.string(),
    type: z.string(),
    url: z.string(),
    preview_url: z.string(),
    remote_url: z.string().nullable(),
    preview_remote_url: z.null(),
    text_url: z.null(),
    meta: z.looseObject({}).nullable(),
    description: z.string().nullable(),
    blurhash: z.string().nullable(),
    ...extensions(w, { namespace: true }),
  }),
);

export const PollSchema = view("Poll", (w) =>
  z.object({
    id: z.string(),
    expires_at: timestamp().nullable(),
    expired: z.boolean(),
    multiple: z.boolean(),
    /** null while the author hides the totals */
    votes_count: z.number().int().nullable(),
    voters_count: z.number().int().nullable(),
    voted: z.boolean(),
    own_votes: z.array(z.number().int()),
    options: z.array(z.object({ title: z.string(), votes_count: z.number().int().nullable() })),
    emojis: z.array(EmojiSchema(w)),
    ...extensions(w, { family: true }),
  }),
);

export const FilterResultSchema = view("FilterResult", (w) =>
  z.object({ filter: FilterV2Schema(w), keyword_matches: z.array(z.string()).nullable(), status_matches: z.array(z.string()).nullable() }),
);

export const MentionSchema = view("StatusMention", () => z.object({ id: z.string(), username: z.string(), acct: z.string(), url: z.string() }));
export const StatusTagSchema = view("StatusTag", () => z.object({ name: z.string(), url: z.string() }));

const reaction = z.object({ name: z.string(), count: z.number().int(), me: z.boolean(), account_ids: z.array(z.string()), url: z.string().optional() });

export const StatusSchema = view("Status", (w) => {
  // typed loosely: the schema refers to itself (`reblog`, `quote`)
  const status: z.ZodObject = z.object({
    id: z.string(),
    uri: z.string(),
    url: z.string(),
    account: AccountSchema(w),
    in_reply_to_id: z.string().nullable(),
    in_reply_to_account_id: z.string().nullable(),
    get reblog(): z.ZodNullable<z.ZodObject> {
      return status.nullable();
    },
    content: z.string(),
    /** the source text, only in the answer to DELETE (for redrafting) */
    text: z.string().nullable(),
    created_at: timestamp(),
    edited_at: timestamp().nullable(),
    emojis: z.array(EmojiSchema(w)),
    replies_count: z.number().int(),
    reblogs_count: z.number().int(),
    favourites_count: z.number().int(),
    reblogged: z.boolean(),
    favourited: z.boolean(),
    bookmarked: z.boolean(),
    muted: z.boolean(),
    pinned: z.boolean(),
    sensitive: z.boolean(),
    spoiler_text: z.string(),
    visibility: z.string(),
    media_attachments: z.array(MediaAttachmentSchema(w)),
    mentions: z.array(MentionSchema(w)),
    tags: z.array(StatusTagSchema(w)),
    card: z.null(),
    poll: PollSchema(w).nullable(),
    application: z.object({ name: z.string(), website: z.string().nullable() }).nullable(),
    language: z.string().nullable(),
    emoji_reactions: z.array(reaction),
    /** a quoted status's own quote is shallow ({state, quoted_status_id}) */
    get quote(): z.ZodType {
      return z.union([z.object({ state: z.string(), quoted_status: status.nullable() }), z.object({ state: z.string(), quoted_status_id: z.string().nullable() })]).nullable();
    },
    quote_approval: z.object({ automatic: z.array(z.string()), manual: z.array(z.string()), current_user: z.string() }),
    /** for signed-in viewers */
    filtered: z.array(FilterResultSchema(w)).optional(),
    ...extensions(w, { namespace: true }),
  });
  return status;
});

export const StatusListSchema = listOf(StatusSchema);

export const ContextSchema = view("Context", (w) => z.object({ ancestors: z.array(StatusSchema(w)), descendants: z.array(StatusSchema(w)) }));
