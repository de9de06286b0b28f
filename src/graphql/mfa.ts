// Multi-factor settings over GraphQL through the operations REST calls, with REST's scopes:
// the status (read:security) and setup, confirmation, disabling and backup codes (write:security).
import { confirmTotp, disableTotp, generateBackupCodes, mfaStatus, setupTotp } from "../domain/auth/mfa.ops.ts";
import { builder } from "./builder.ts";
import { accessOf } from "./access.ts";

const MfaSettings = builder.objectRef<{ enabled: boolean; totp: boolean }>("MfaSettings").implement({
  description: "`enabled` is the general switch, `totp` the one method (on once confirmed)",
  fields: (t) => ({ enabled: t.exposeBoolean("enabled"), totp: t.exposeBoolean("totp") }),
});

const TotpSetup = builder.objectRef<{ key: string; provisioningUri: string }>("TotpSetup").implement({
  description: "A new TOTP key (base32) and its otpauth:// URI; pending until confirmed",
  fields: (t) => ({ key: t.exposeString("key"), provisioningUri: t.exposeString("provisioningUri") }),
});

builder.queryField("mfaSettings", (t) =>
  t.field({ ...accessOf(mfaStatus), type: MfaSettings, description: "The viewer's multi-factor settings", resolve: (_r, _a, ctx) => mfaStatus(ctx, {}) }),
);

builder.mutationFields((t) => ({
  setupTotp: t.field({
    ...accessOf(setupTotp),
    type: TotpSetup,
    description: "Starts TOTP setup; refused while TOTP is on",
    resolve: (_r, _a, ctx) => setupTotp(ctx, {}),
  }),
  confirmTotp: t.field({
    ...accessOf(confirmTotp),
    type: MfaSettings,
    description: "Turns TOTP on with the current password and a code from the pending key",
    args: { password: t.arg.string({ required: true }), code: t.arg.string({ required: true }) },
    resolve: (_r, a, ctx) => confirmTotp(ctx, a),
  }),
  disableTotp: t.field({
    ...accessOf(disableTotp),
    type: MfaSettings,
    description: "Turns multi-factor sign-in off with the current password (forgets the key and backup codes)",
    args: { password: t.arg.string({ required: true }) },
    resolve: (_r, a, ctx) => disableTotp(ctx, a),
  }),
  generateMfaBackupCodes: t.stringList({
    ...accessOf(generateBackupCodes),
    description: "New single-use backup codes replacing the previous ones, shown this once",
    resolve: (_r, _a, ctx) => generateBackupCodes(ctx, {}),
  }),
}));
