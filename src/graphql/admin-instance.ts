// Instance documents, frontends and user backups over GraphQL: the operations of the admin REST
// routes, each field guarded as its operation declares. Documents travel as HTML text instead of a
// multipart upload. The figures of the Prometheus scrape (`GET /api/v1/<family>/metrics`) as typed
// fields for the admin UI.
import { deleteDocument, showDocument, updateDocument } from "../domain/documents/documents.ops.ts";
import { installFrontend, listFrontends } from "../domain/frontends/frontends.ops.ts";
import { serverMetrics, type ServerMetrics } from "../domain/stats/server-metrics.ops.ts";
import { adminCreateBackup } from "../domain/backups/backups.ops.ts";
import { accessOf } from "./access.ts";
import { builder } from "./builder.ts";
import { opt } from "./paging.ts";

type Frontend = Awaited<ReturnType<typeof listFrontends>>[number];

const FrontendRef = builder.objectRef<Frontend>("Frontend").implement({
  description: "An installable frontend and the refs installed",
  fields: (t) => ({
    name: t.exposeString("name"),
    git: t.exposeString("git"),
    buildUrl: t.exposeString("build_url"),
    ref: t.exposeString("ref"),
    installed: t.exposeBoolean("installed"),
    installedRefs: t.exposeStringList("installed_refs"),
  }),
});

const JobStateCountRef = builder.objectRef<{ state: string; count: number }>("JobStateCount").implement({
  description: "How many background jobs are in one state",
  fields: (t) => ({ state: t.exposeString("state"), count: t.exposeInt("count") }),
});

const ServerMetricsRef = builder.objectRef<ServerMetrics>("ServerMetrics").implement({
  description: "The database and job-queue figures the Prometheus scrape reports",
  fields: (t) => ({
    localUsers: t.exposeInt("localUsers"),
    remoteUsers: t.exposeInt("remoteUsers"),
    localStatuses: t.exposeInt("localStatuses"),
    domains: t.exposeInt("domains", { description: "remote hosts with known accounts" }),
    jobs: t.field({ type: [JobStateCountRef], resolve: (m) => Object.entries(m.jobs).map(([state, count]) => ({ state, count })) }),
  }),
});

builder.queryFields((t) => ({
  serverMetrics: t.field({ ...accessOf(serverMetrics), type: ServerMetricsRef, resolve: (_root, _args, ctx) => serverMetrics(ctx, {}) }),
  frontends: t.field({ ...accessOf(listFrontends), type: [FrontendRef], resolve: (_root, _args, ctx) => listFrontends(ctx, {}) }),
  instanceDocument: t.string({
    ...accessOf(showDocument),
    description: "the document's HTML: `instance-panel`, `terms-of-service` or `privacy-policy`",
    args: { name: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => showDocument(ctx, args),
  }),
}));

builder.mutationFields((t) => ({
  installFrontend: t.field({
    ...accessOf(installFrontend),
    type: [FrontendRef],
    args: { name: t.arg.string({ required: true }), ref: t.arg.string(), file: t.arg.string(), buildUrl: t.arg.string(), buildDir: t.arg.string() },
    resolve: (_root, a, ctx) => installFrontend(ctx, { name: a.name, ref: opt(a.ref), file: opt(a.file), build_url: opt(a.buildUrl), build_dir: opt(a.buildDir) }),
  }),
  updateInstanceDocument: t.string({
    ...accessOf(updateDocument),
    description: "replaces the document; answers its URL",
    args: { name: t.arg.string({ required: true }), html: t.arg.string({ required: true }) },
    resolve: async (_root, a, ctx) => (await updateDocument(ctx, { name: a.name, content: Buffer.from(a.html) })).url,
  }),
  deleteInstanceDocument: t.string({
    ...accessOf(deleteDocument),
    description: "back to the default; answers the document's URL",
    args: { name: t.arg.string({ required: true }) },
    resolve: async (_root, a, ctx) => (await deleteDocument(ctx, a)).url,
  }),
  requestUserBackup: t.boolean({
    ...accessOf(adminCreateBackup),
    args: { nickname: t.arg.string({ required: true }) },
    resolve: async (_root, a, ctx) => !!(await adminCreateBackup(ctx, a)),
  }),
}));
