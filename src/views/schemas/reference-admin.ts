// The reference admin API's entities (views/reference-admin.ts): Admin::Account, Admin::Report,
// domain, e-mail and IP blocks, warning presets, Admin::Tag.
import { z } from "zod";
import { AccountSchema } from "./account.ts";
import { RuleSchema } from "./misc.ts";
import { reportFields } from "./notification.ts";
import { StatusSchema } from "./status.ts";
import { timestamp, view } from "./view.ts";

export const ReferenceAdminAccountSchema = view("Admin_Account", (w) =>
  z.object({
    id: z.string(),
    username: z.string(),
    domain: z.string().nullable(),
    created_at: timestamp(),
    email: z.string(),
    ip: z.null(),
    ips: z.array(z.unknown()).max(0),
    locale: z.string(),
    invite_request: z.string().nullable(),
    role: z.object({ id: z.string(), name: z.string(), color: z.string(), permissions: z.string(), highlighted: z.boolean() }),
    confirmed: z.boolean(),
    approved: z.boolean(),
    disabled: z.boolean(),
    suspended: z.boolean(),
    silenced: z.boolean(),
    sensitized: z.boolean(),
    account: AccountSchema(w),
  }),
);

export const ReferenceAdminReportSchema = view("Admin_Report", (w) =>
  z.object({
    ...reportFields(),
    updated_at: timestamp(),
    account: ReferenceAdminAccountSchema(w),
    target_account: ReferenceAdminAccountSchema(w),
    assigned_account: ReferenceAdminAccountSchema(w).nullable(),
    action_taken_by_account: z.null(),
    statuses: z.array(StatusSchema(w)),
    rules: z.array(RuleSchema(w)),
  }),
);

export const AdminDomainBlockSchema = view("Admin_DomainBlock", () =>
  z.object({
    id: z.string(),
    domain: z.string(),
    digest: z.string(),
    created_at: timestamp(),
    severity: z.string(),
    reject_media: z.boolean(),
    reject_reports: z.boolean(),
    private_comment: z.string().nullable(),
    public_comment: z.string().nullable(),
    obfuscate: z.boolean(),
  }),
);

export const AdminDomainAllowSchema = view("Admin_DomainAllow", () => z.object({ id: z.string(), domain: z.string(), created_at: timestamp() }));

export const AdminEmailDomainBlockSchema = view("Admin_EmailDomainBlock", () =>
  z.object({ id: z.string(), domain: z.string(), created_at: timestamp(), history: z.array(z.object({ day: z.string(), accounts: z.string(), uses: z.string() })) }),
);

export const AdminCanonicalEmailBlockSchema = view("Admin_CanonicalEmailBlock", () => z.object({ id: z.string(), canonical_email_hash: z.string() }));

export const AdminIpBlockSchema = view("Admin_IpBlock", () =>
  z.object({ id: z.string(), ip: z.string(), severity: z.string(), comment: z.string(), created_at: timestamp(), expires_at: timestamp().nullable() }),
);

export const WarningPresetSchema = view("Admin_WarningPreset", () =>
  z.object({ id: z.string(), title: z.string(), text: z.string(), created_at: timestamp(), updated_at: timestamp() }),
);

export const AdminTagSchema = view("Admin_Tag", () =>
  z.object({
    id: z.string(),
    name: z.string(),
    url: z.string(),
    history: z.array(z.object({ day: z.string(), uses: z.string(), accounts: z.string() })),
    trendable: z.boolean(),
    usable: z.boolean(),
    requires_review: z.boolean(),
  }),
);
