// Own API: account backups, their download, and the admin's request for a user's backup.
import { z } from "zod";
import { adminCreateBackup, backupArchive, createBackup, listBackups } from "../../src/domain/backups/backups.ops.ts";
import { admin } from "../admin/paths.ts";
import { route } from "../../src/http/routes/route.ts";
import { BackupSchema } from "../../src/views/schemas/own.ts";
import { listOf } from "../../src/views/schemas/view.ts";
import { renderBackup } from "../../src/views/backup.ts";
import { EmptyStringSchema } from "../../src/views/schemas/tools.ts";

export const backupRoutes = [
  route({
    method: "GET",
    path: "/api/v1/$ns/backups",
    view: listOf(BackupSchema),
    summary: "The signed-in account's backups, newest first (anonymous: none)",
    tags: ["Backups"],
    operation: listBackups,
    async handler(ctx) {
      if (!ctx.viewer.account) return [];
      return (await listBackups(ctx, {})).map((b) => renderBackup(ctx, b));
    },
  }),
  route({
    method: "POST",
    path: "/api/v1/$ns/backups",
    view: listOf(BackupSchema),
    summary: "Asks for a backup of the account (built in the background); answers every backup",
    tags: ["Backups"],
    operation: createBackup,
    handler: async (ctx) => (await createBackup(ctx, {})).map((b) => renderBackup(ctx, b)),
  }),
  route({
    method: "GET",
    path: "/api/v1/$ns/backups/:id/archive",
    summary: "Downloads a finished backup (its owner only)",
    produces: "application/zip",
    tags: ["Backups"],
    operation: backupArchive,
    params: z.object({ id: z.string() }),
    async handler(ctx, { params, res }) {
      const { backup, file } = await backupArchive(ctx, params);
      await new Promise<void>((resolve, reject) => res.download(file, backup.fileName, (err) => (err ? reject(err) : resolve())));
    },
  }),
  route({
    method: "POST",
    path: admin("/backups"),
    view: EmptyStringSchema,
    summary: "Asks for a backup of a user's account",
    tags: ["Admin: users"],
    operation: adminCreateBackup,
    body: adminCreateBackup.input,
    async handler(ctx, { body }) {
      await adminCreateBackup(ctx, body);
      return "";
    },
  }),
];
