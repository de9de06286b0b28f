// Own API: the mascot, rendered as the family's attachment `{id, url, type, <ns>: {mime_type}}`.
import { NotAnImage, showMascot, updateMascot } from "../../src/domain/mascot/mascot.ops.ts";
import type { DomainError } from "../../src/kernel/errors.ts";
import { FileTooLarge } from "../../src/media/storage.ts";
import { route } from "../../src/http/routes/route.ts";
import { MascotSchema } from "../../src/views/schemas/own.ts";
import { renderMascot } from "../../src/views/mascot.ts";

const mascotErrors = (e: DomainError) =>
  e instanceof NotAnImage ? { status: 415, body: { error: e.message } } : e instanceof FileTooLarge ? { status: 413, body: { error: "File is too large" } } : undefined;

export const mascotRoutes = [
  route({
    method: "GET",
    path: "/api/v1/$ns/mascot",
    view: MascotSchema,
    summary: "The account's mascot (the instance default until one is set)",
    tags: ["Accounts"],
    operation: showMascot,
    handler: async (ctx) => renderMascot(ctx, await showMascot(ctx, {})),
  }),
  route({
    method: "PUT",
    path: "/api/v1/$ns/mascot",
    view: MascotSchema,
    summary: "Sets the mascot from an uploaded image (415 for anything else)",
    tags: ["Accounts"],
    operation: updateMascot,
    files: ["file"],
    errors: mascotErrors,
    async handler(ctx, { files }) {
      return renderMascot(ctx, await updateMascot(ctx, { file: files.file?.[0] as never }));
    },
  }),
];
