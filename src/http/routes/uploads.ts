// Multipart bodies of REST routes. mount.ts reads one only after the route's authorization passed, so an
// anonymous or under-scoped client is answered before a byte of its body is read (issue 32). Files stream
// to a temporary folder under DATA_DIR (`tmp/uploads`), never held in memory while they arrive, each up to
// the route's limit from the instance's settings (`fileLimit` in the declaration, else `upload_limit`);
// one past it stops the read with the route's "too large" error, and multer removes what it wrote. Text
// fields are few and small. Once the body is whole and within its limits the files are read for the handler
// (the domain takes bytes), and removed when the response is done.
import fs from "node:fs";
import path from "node:path";
import type { RequestHandler } from "express";
import multer from "multer";
import { FileTooLarge } from "../../media/storage.ts";
import { HTTP_LIMITS, multipartBoundary } from "../boundary.ts";

export interface MultipartOptions {
  /** the folder the files are written to while the request lasts */
  dir: string;
  /** the route's file fields (none: a multipart body of text fields only) */
  files: readonly string[] | undefined;
  /** the largest file the route takes now (the instance's upload limits are runtime settings) */
  fileBytes: () => number;
  /** the largest text field */
  fieldBytes: number;
}

type Files = Record<string, Express.Multer.File[]>;
const filesOf = (files: unknown): Express.Multer.File[] => (files && typeof files === "object" ? Object.values(files as Files).flat() : []);

const remove = (files: Express.Multer.File[]) => {
  for (const file of files) if (file.path) fs.rm(file.path, { force: true }, () => {});
};

export function multipartToDisk(options: MultipartOptions): RequestHandler {
  const storage = multer.diskStorage({ destination: options.dir });
  return (req, res, next) => {
    const fileSize = options.fileBytes();
    const upload = multer({ storage, limits: { ...HTTP_LIMITS.multipart, fileSize, fieldSize: options.fieldBytes } });
    const read = options.files?.length ? upload.fields(options.files.map((name) => ({ name }))) : upload.none();
    // a file past the limit is the route's own "too large" (media answers 413 `File is too large`)
    const tooLarge = (error: unknown) => (error instanceof multer.MulterError && error.code === "LIMIT_FILE_SIZE" ? new FileTooLarge(error.field ?? "file", fileSize) : error);
    const parse = multipartBoundary((rq, rs, done) => read(rq, rs, (error?: unknown) => done(tooLarge(error))));
    // whatever the outcome (answered, failed, the client gone), the files go with the request
    res.once("close", () => remove(filesOf(req.files)));
    parse(req, res, (error?: unknown) => {
      if (error) return next(error);
      Promise.all(filesOf(req.files).map(async (file) => void (file.buffer = await fs.promises.readFile(file.path)))).then(() => next(), next);
    });
  };
}

/** The folder of files being received, emptied at start-up (a crash may have left some). */
export function uploadsTempDir(dataDir: string): string {
  const dir = path.join(dataDir, "tmp", "uploads");
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}
