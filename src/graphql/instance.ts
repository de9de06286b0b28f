import { instanceInfo } from "../domain/instance/instance.ops.ts";
import { instanceActivity, instanceDomainBlocks, listDirectory, userPreferences, type ActivityWeek, type DomainBlockView, type Preferences } from "../domain/instance/discovery.ops.ts";
import { publicDocument } from "../domain/documents/documents.ops.ts";
import { builder } from "./builder.ts";
import { AccountType, opt } from "./paging.ts";
import "./accounts.ts";
import { accessOf } from "./access.ts";

type Info = Awaited<ReturnType<typeof instanceInfo>>;

const Instance = builder.objectRef<Info>("Instance").implement({
  fields: (t) => ({
    domain: t.exposeString("domain"),
    title: t.exposeString("title"),
    email: t.exposeString("email"),
    registrationsOpen: t.exposeBoolean("registrationsOpen"),
    userCount: t.exposeInt("userCount"),
    softwareVersion: t.exposeString("softwareVersion"),
  }),
});

builder.queryField("instance", (t) => t.field({ ...accessOf(instanceInfo), type: Instance, resolve: (_root, _args, ctx) => instanceInfo(ctx, {}) }));

// The reference API's discovery endpoints, through the same operations (discovery.ops.ts).
const DomainBlockRef = builder.objectRef<DomainBlockView>("InstanceDomainBlock").implement({
  description: "A server the content policy acts on, as GET /api/v1/instance/domain_blocks lists it",
  fields: (t) => ({ domain: t.exposeString("domain"), digest: t.exposeString("digest"), severity: t.exposeString("severity"), comment: t.exposeString("comment", { nullable: true }) }),
});

const ActivityWeekRef = builder.objectRef<ActivityWeek>("InstanceActivityWeek").implement({
  fields: (t) => ({
    week: t.expose("week", { type: "DateTime" }),
    statuses: t.exposeInt("statuses"),
    logins: t.exposeInt("logins"),
    registrations: t.exposeInt("registrations"),
  }),
});

const PreferencesRef = builder.objectRef<Preferences>("Preferences").implement({
  fields: (t) => ({ defaultVisibility: t.exposeString("visibility"), defaultSensitive: t.exposeBoolean("sensitive"), defaultLanguage: t.exposeString("language", { nullable: true }) }),
});

builder.queryFields((t) => ({
  instanceDomainBlocks: t.field({ ...accessOf(instanceDomainBlocks), type: [DomainBlockRef], description: "Empty answer is an error (NOT_FOUND) when the policies are not published", resolve: (_r, _a, ctx) => instanceDomainBlocks(ctx, {}) }),
  instanceActivity: t.field({ ...accessOf(instanceActivity), type: [ActivityWeekRef], resolve: (_r, _a, ctx) => instanceActivity(ctx, {}) }),
  directory: t.field({
    ...accessOf(listDirectory),
    type: [AccountType],
    description: "The profile directory (REST's GET /api/v1/directory)",
    args: { offset: t.arg.int(), limit: t.arg.int(), order: t.arg.string(), local: t.arg.boolean() },
    resolve: (_r, a, ctx) => listDirectory(ctx, { offset: opt(a.offset), limit: opt(a.limit), order: a.order === "new" ? "new" : "active", local: opt(a.local) }),
  }),
  termsOfService: t.string({ ...accessOf(publicDocument), description: "The terms of service (HTML), as GET /api/v1/instance/terms_of_service", resolve: async (_r, _a, ctx) => (await publicDocument(ctx, { name: "terms-of-service" })).content }),
  privacyPolicy: t.string({ ...accessOf(publicDocument), description: "The privacy policy (HTML), as GET /api/v1/instance/privacy_policy", resolve: async (_r, _a, ctx) => (await publicDocument(ctx, { name: "privacy-policy" })).content }),
  preferences: t.field({ ...accessOf(userPreferences), type: PreferencesRef, resolve: (_r, _a, ctx) => userPreferences(ctx, {}) }),
}));
