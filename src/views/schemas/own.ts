// The family's own entities: reactions, scrobbles, backups, the mascot, own tokens, MFA answers, and
// the `{status: "success"}` of account actions (compat-rest/own/).
import { z } from "zod";
import { AccountSchema } from "./account.ts";
import { extensions, shape, timestamp, view } from "./view.ts";

export const ReactionSchema = view("EmojiReaction", (w) =>
  z.object({ name: z.string(), count: z.number().int(), me: z.boolean(), accounts: z.array(AccountSchema(w)), url: z.string().optional() }),
);

export const ScrobbleSchema = view("Scrobble", (w) =>
  z.object({
    id: z.string(),
    account: AccountSchema(w),
    created_at: timestamp(),
    title: z.string(),
    artist: z.string().nullable(),
    album: z.string().nullable(),
    externalLink: z.string().nullable(),
    length: z.number().int().nullable(),
  }),
);

export const BackupSchema = view("Backup", () =>
  z.object({
    id: z.string(),
    content_type: z.string(),
    file_name: z.string(),
    file_size: z.number().int(),
    inserted_at: timestamp(),
    processed: z.boolean(),
    processed_number: z.number().int(),
    state: z.string(),
    url: z.string(),
  }),
);

export const MascotSchema = view("Mascot", (w) => z.object({ id: z.string(), url: z.string(), type: z.string(), ...extensions(w, { namespace: true }) }));

export const OwnTokenSchema = view("OAuthToken", () => z.object({ id: z.number().int(), app_name: z.string(), valid_until: timestamp() }));

export const SuccessSchema = shape(() => z.object({ status: z.literal("success") }));

export const AliasesSchema = shape(() => z.object({ aliases: z.array(z.string()) }));

export const MfaSettingsSchema = shape(() => z.object({ settings: z.object({ enabled: z.boolean(), totp: z.boolean() }) }));
export const BackupCodesSchema = shape(() => z.object({ codes: z.array(z.string()) }));
export const TotpSetupSchema = shape(() => z.object({ key: z.string(), provisioning_uri: z.string() }));
