// The user's multi-factor settings, at the family's paths (/api/<ns>/accounts/mfa…, no /v1):
// status, TOTP setup and confirmation, disabling, backup codes. Failures are 422 `{error}`.
import { z } from "zod";
import { confirmTotp, disableTotp, generateBackupCodes, mfaStatus, setupTotp } from "../../src/domain/auth/mfa.ops.ts";
import { Invalid } from "../../src/kernel/errors.ts";
import { route } from "../../src/http/routes/route.ts";
import { EmptySchema } from "../../src/views/schemas/misc.ts";
import { BackupCodesSchema, MfaSettingsSchema, TotpSetupSchema } from "../../src/views/schemas/own.ts";

const tags = ["Multi-factor authentication"];
const base = "/api/$ns/accounts/mfa";
const method = z.object({ method: z.string() });

/** TOTP is the one method; other names are 400 with the family's words. */
const requireMethod = (name: string, allowed: string[], message = "undefined mfa method") => {
  if (!allowed.includes(name)) throw Invalid(message);
};

export const ownMfaRoutes = [
  route({
    method: "GET",
    path: base,
    view: MfaSettingsSchema,
    summary: "The signed-in user's multi-factor settings: {settings: {enabled, totp}}",
    tags,
    operation: mfaStatus,
    async handler(ctx) {
      return { settings: await mfaStatus(ctx, {}) };
    },
  }),
  route({
    method: "GET",
    path: `${base}/backup_codes`,
    view: BackupCodesSchema,
    summary: "New single-use backup codes (replacing the previous ones), shown this once",
    tags,
    operation: generateBackupCodes,
    async handler(ctx) {
      return { codes: await generateBackupCodes(ctx, {}) };
    },
  }),
  route({
    method: "GET",
    path: `${base}/setup/:method`,
    view: TotpSetupSchema,
    summary: "Start TOTP setup: a new key and its otpauth:// URI, pending until confirmed",
    tags,
    operation: setupTotp,
    params: method,
    async handler(ctx, { params }) {
      requireMethod(params.method, ["totp"], "undefined method");
      const { key, provisioningUri } = await setupTotp(ctx, {});
      return { key, provisioning_uri: provisioningUri };
    },
  }),
  route({
    method: "POST",
    path: `${base}/confirm/:method`,
    view: EmptySchema,
    summary: "Enable TOTP with the current password and a code from the authenticator",
    tags,
    operation: confirmTotp,
    params: method,
    body: confirmTotp.input,
    async handler(ctx, { params, body }) {
      requireMethod(params.method, ["totp"]);
      await confirmTotp(ctx, body);
      return {};
    },
  }),
  route({
    method: "DELETE",
    path: `${base}/:method`,
    view: EmptySchema,
    summary: "Disable multi-factor sign-in with the current password (forgets the key and backup codes)",
    tags,
    operation: disableTotp,
    params: method,
    body: disableTotp.input,
    async handler(ctx, { params, body }) {
      // "mfa" names the whole switch, as in the family; with one method both mean the same
      requireMethod(params.method, ["totp", "mfa"]);
      await disableTotp(ctx, body);
      return {};
    },
  }),
];
