// Reference API: media uploads (v1 and v2, both processed at once → 200), reading and describing them.
import { z } from "zod";
import { showMedia, updateMedia, uploadMedia } from "../../src/domain/media/media.ops.ts";
import type { DomainError } from "../../src/kernel/errors.ts";
import { Invalid } from "../../src/kernel/errors.ts";
import { FileTooLarge } from "../../src/media/storage.ts";
import { route } from "../../src/http/routes/route.ts";
import { renderMedia } from "../../src/views/media.ts";
import { text } from "../../src/domain/input-limits.ts";
import { MediaAttachmentSchema } from "../../src/views/schemas/status.ts";

const describe = z.object({
  description: text().optional(),
  /** "x,y", both between -1.0 and 1.0 */
  focus: z.string().optional(),
});
const idParam = z.object({ id: z.string() });

/** Over the upload limit: 413 like a server refusing the body, with the usual `{error}`. */
const tooLarge = (error: DomainError) => (error instanceof FileTooLarge ? { status: 413, body: { error: "File is too large" } } : undefined);

const upload = (path: string, summary: string) =>
  route({
    method: "POST",
    path,
    view: MediaAttachmentSchema,
    rateLimit: "media_upload",
    summary,
    tags: ["Media"],
    operation: uploadMedia,
    body: describe,
    files: ["file"],
    response: { description: "The MediaAttachment, already processed" },
    errors: tooLarge,
    async handler(ctx, input) {
      const file = input.files.file?.[0];
      if (!file) throw Invalid("Missing field: file.", { file: "Missing field: file." });
      return renderMedia(ctx, await uploadMedia(ctx, { file, ...input.body }));
    },
  });

export const mediaRoutes = [
  upload("/api/v1/media", "Upload an image, video or audio file to attach to a status"),
  upload("/api/v2/media", "Upload an image, video or audio file (processed synchronously, so 200 rather than 202)"),
  route({
    method: "GET",
    path: "/api/v1/media/:id",
    view: MediaAttachmentSchema,
    summary: "One of the signed-in account's uploads",
    tags: ["Media"],
    operation: showMedia,
    params: idParam,
    response: { description: "The MediaAttachment" },
    async handler(ctx, { params }) {
      return renderMedia(ctx, await showMedia(ctx, params));
    },
  }),
  route({
    method: "PUT",
    path: "/api/v1/media/:id",
    view: MediaAttachmentSchema,
    summary: "Change the description or focal point of one of the signed-in account's uploads",
    tags: ["Media"],
    operation: updateMedia,
    params: idParam,
    body: describe,
    response: { description: "The updated MediaAttachment" },
    async handler(ctx, { params, body }) {
      return renderMedia(ctx, await updateMedia(ctx, { id: params.id, ...body }));
    },
  }),
];
