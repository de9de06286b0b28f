// The viewer's own backups (the archives are downloaded over REST) and the follow, block and mute
// imports, through the operations REST calls.
import { createBackup, listBackups } from "../domain/backups/backups.ops.ts";
import { IMPORT_KINDS, IMPORTS } from "../domain/relationships/imports.ops.ts";
import { builder } from "./builder.ts";
import { accessOf } from "./access.ts";

const BackupRef = builder.prismaObject("Backup", {
  fields: (t) => ({
    id: t.exposeID("id"),
    fileName: t.exposeString("fileName"),
    contentType: t.exposeString("contentType"),
    fileSize: t.exposeInt("fileSize"),
    processed: t.exposeBoolean("processed"),
    state: t.exposeString("state", { description: "pending, running, complete or failed" }),
    processedNumber: t.exposeInt("processedNumber"),
    url: t.string({ description: "the archive's download address (REST)", resolve: (b, _a, ctx) => `${ctx.settings.baseUrl}/api/v1/${ctx.settings.namespace}/backups/${b.id}/archive` }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
  }),
});


builder.queryFields((t) => ({
  backups: t.field({ ...accessOf(listBackups), type: [BackupRef], description: "The viewer's backups, newest first", resolve: (_r, _a, ctx) => listBackups(ctx, {}) }),
}));

builder.mutationFields((t) => ({
  createBackup: t.field({
    ...accessOf(createBackup),
    type: [BackupRef],
    description: "Asks for a backup of the viewer's data (at most one a day); answers the viewer's backups",
    resolve: (_r, _a, ctx) => createBackup(ctx, {}),
  }),
  ...Object.fromEntries(
    IMPORT_KINDS.map((kind) => [
      `import${kind[0]!.toUpperCase()}${kind.slice(1)}s`,
      t.string({
        ...accessOf(IMPORTS[kind]),
        description: `Imports ${kind}s from a list of accounts (one per line, or CSV); runs in the background ("job started")`,
        args: { list: t.arg.string({ required: true }) },
        resolve: (_r, a, ctx) => IMPORTS[kind](ctx, { list: a.list }),
      }),
    ]),
  ),
}));
