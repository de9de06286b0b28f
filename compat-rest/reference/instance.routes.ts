// Reference API: instance information (v1 and v2), its rules, description, moderated servers, activity
// and peers; the profile directory and the viewer's preferences.
import { z } from "zod";
import { publicDocument } from "../../src/domain/documents/documents.ops.ts";
import { contactAccount, directoryInput, instanceActivity, instanceDomainBlocks, listDirectory, userPreferences } from "../../src/domain/instance/discovery.ops.ts";
import { instanceInfo, instancePeers, instanceUsage } from "../../src/domain/instance/instance.ops.ts";
import { vapidPublicKey } from "../../src/domain/push/vapid.ts";
import { readRules } from "../../src/domain/rules/rules.ops.ts";
import { IMAGE_TYPES } from "../../src/media/storage.ts";
import { route } from "../../src/http/routes/route.ts";
import { renderAccounts } from "../../src/views/account.ts";
import { renderInstance, renderInstanceV2 } from "../../src/views/instance.ts";
import { renderRule } from "../../src/views/rule.ts";
import { AccountSchema } from "../../src/views/schemas/account.ts";
import { ActivityWeekSchema, ExtendedDescriptionSchema, InstanceDomainBlockSchema, InstanceV1Schema, InstanceV2Schema, PreferencesSchema, PrivacyPolicySchema, TermsOfServiceSchema } from "../../src/views/schemas/instance.ts";
import { RuleSchema } from "../../src/views/schemas/misc.ts";
import { listOf } from "../../src/views/schemas/view.ts";

const TAGS = ["Instance"];

export const instanceRoutes = [
  route({
    method: "GET",
    path: "/api/v1/instance",
    view: InstanceV1Schema,
    summary: "Information about this server: limits, features, federation and counts",
    tags: TAGS,
    auth: "public",
    async handler(ctx) {
      const [info, usage, vapidKey, rules] = await Promise.all([instanceInfo(ctx, {}), instanceUsage(ctx, {}), vapidPublicKey(ctx), readRules(ctx)]);
      return renderInstance(ctx.settings, info, usage, vapidKey, rules);
    },
  }),
  route({
    method: "GET",
    path: "/api/v2/instance",
    view: InstanceV2Schema,
    summary: "Information about this server in the reference's v2 shape: configuration limits, registrations, contact, rules, thumbnail, api_versions",
    tags: TAGS,
    auth: "public",
    async handler(ctx) {
      const [info, usage, vapidKey, rules, contact] = await Promise.all([instanceInfo(ctx, {}), instanceUsage(ctx, {}), vapidPublicKey(ctx), readRules(ctx), contactAccount(ctx)]);
      const [renderedContact] = contact ? await renderAccounts(ctx, [contact]) : [null];
      return renderInstanceV2(ctx.settings, info, usage, { vapidPublicKey: vapidKey, rules, contact: renderedContact, imageTypes: Object.keys(IMAGE_TYPES) });
    },
  }),
  route({
    method: "GET",
    path: "/api/v1/instance/rules",
    view: listOf(RuleSchema),
    summary: "The instance's rules, by priority",
    tags: TAGS,
    auth: "public",
    handler: async (ctx) => (await readRules(ctx)).map(renderRule),
  }),
  route({
    method: "GET",
    path: "/api/v1/instance/extended_description",
    view: ExtendedDescriptionSchema,
    summary: "The instance's description, as HTML",
    tags: TAGS,
    operation: instanceInfo,
    async handler(ctx) {
      const info = await instanceInfo(ctx, {});
      return { updated_at: null, content: info.config.description };
    },
  }),
  route({
    method: "GET",
    path: "/api/v1/instance/terms_of_service",
    view: TermsOfServiceSchema,
    summary: "The terms of service: the instance document `terms-of-service` (the admin's upload, or the built-in text)",
    tags: TAGS,
    operation: publicDocument,
    async handler(ctx) {
      const doc = await publicDocument(ctx, { name: "terms-of-service" });
      // the reference's dates are days; a built-in text has been in effect since the epoch of this server
      const date = (doc.updatedAt ?? new Date(0)).toISOString().slice(0, 10);
      return { effective_date: date, effective: true, content: doc.content, succeeded_by: null };
    },
  }),
  route({
    method: "GET",
    path: "/api/v1/instance/privacy_policy",
    view: PrivacyPolicySchema,
    summary: "The privacy policy: the instance document `privacy-policy` (the admin's upload, or the built-in text)",
    tags: TAGS,
    operation: publicDocument,
    async handler(ctx) {
      const doc = await publicDocument(ctx, { name: "privacy-policy" });
      // a built-in text has been in effect since the epoch of this server
      return { updated_at: (doc.updatedAt ?? new Date(0)).toISOString(), content: doc.content };
    },
  }),
  route({
    method: "GET",
    path: "/api/v1/instance/domain_blocks",
    view: listOf(InstanceDomainBlockSchema),
    summary: "Servers the content policy acts on (suspend or silence), when the policies are published (404 otherwise)",
    tags: TAGS,
    operation: instanceDomainBlocks,
    handler: async (ctx) => instanceDomainBlocks(ctx, {}),
  }),
  route({
    method: "GET",
    path: "/api/v1/instance/activity",
    view: listOf(ActivityWeekSchema),
    summary: "Local posts, active accounts and sign-ups of the last 12 weeks, this week first",
    tags: TAGS,
    operation: instanceActivity,
    async handler(ctx) {
      return (await instanceActivity(ctx, {})).map((w) => ({
        week: String(Math.floor(w.week.getTime() / 1000)),
        statuses: String(w.statuses),
        logins: String(w.logins),
        registrations: String(w.registrations),
      }));
    },
  }),
  route({
    method: "GET",
    path: "/api/v1/instance/peers",
    summary: "Hosts of the remote accounts this server knows",
    tags: TAGS,
    operation: instancePeers,
    response: { description: "Array of domain names", schema: z.array(z.string()) },
    async handler(ctx) {
      return instancePeers(ctx, {});
    },
  }),
  route({
    method: "GET",
    path: "/api/v1/directory",
    view: listOf(AccountSchema),
    summary: "The profile directory: discoverable accounts, by recent activity (order=active) or newest (order=new); local=true for this server's",
    tags: ["Accounts"],
    operation: listDirectory,
    query: directoryInput,
    handler: async (ctx, { query }) => renderAccounts(ctx, await listDirectory(ctx, query)),
  }),
  route({
    method: "GET",
    path: "/api/v1/preferences",
    view: PreferencesSchema,
    summary: "The viewer's posting and reading preferences",
    tags: ["Accounts"],
    operation: userPreferences,
    async handler(ctx) {
      const p = await userPreferences(ctx, {});
      return {
        "posting:default:visibility": p.visibility,
        "posting:default:sensitive": p.sensitive,
        "posting:default:language": p.language,
        "posting:default:quote_policy": "public",
        "reading:expand:media": "default",
        "reading:expand:spoilers": false,
        "reading:autoplay:gifs": false,
      };
    },
  }),
];
