// Media uploads over GraphQL (the multipart request spec, as emoji files are uploaded): upload, show and
// describe the viewer's own attachments, through the operations REST calls.
import { showMedia, updateMedia, uploadMedia } from "../domain/media/media.ops.ts";
import { builder } from "./builder.ts";
import { FileScalar } from "./emoji.ts";
import { opt } from "./paging.ts";
import { MediaAttachment } from "./statuses.ts";
import { accessOf } from "./access.ts";


builder.queryFields((t) => ({
  media: t.field({ ...accessOf(showMedia), type: MediaAttachment, args: { id: t.arg.id({ required: true }) }, resolve: (_r, a, ctx) => showMedia(ctx, { id: String(a.id) }) }),
}));

builder.mutationFields((t) => ({
  uploadMedia: t.field({
    ...accessOf(uploadMedia),
    type: MediaAttachment,
    args: { file: t.arg({ type: FileScalar, required: true }), description: t.arg.string(), focus: t.arg.string({ description: "x,y between -1.0 and 1.0" }) },
    resolve: async (_r, a, ctx) =>
      uploadMedia(ctx, {
        file: { buffer: Buffer.from(await a.file.arrayBuffer()), mimetype: a.file.type, originalname: a.file.name, size: a.file.size },
        description: opt(a.description),
        focus: opt(a.focus),
      }),
  }),
  updateMedia: t.field({
    ...accessOf(updateMedia),
    type: MediaAttachment,
    args: { id: t.arg.id({ required: true }), description: t.arg.string(), focus: t.arg.string({ description: "x,y between -1.0 and 1.0" }) },
    resolve: (_r, a, ctx) => updateMedia(ctx, { id: String(a.id), description: opt(a.description), focus: opt(a.focus) }),
  }),
}));
