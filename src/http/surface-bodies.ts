// The bodies of the surfaces that read their own (GraphQL, tRPC). Yoga and tRPC would read a body without a
// bound when it is chunked (no Content-Length) or compressed, so it is read here first: a declared
// Content-Length past the limit answers 413 before anything is read, and the bytes are counted as they
// arrive, after inflating (`boundedTextBody`). Their requests are small (the admin UI's largest is a few KiB),
// so the limit is `HTTP_LIMITS.apiBodyBytes` (1 MiB). A GraphQL upload (a multipart body, the GraphQL
// multipart request spec) is read only for a signed-in viewer, checked before a byte of it is read, and up
// to the instance's largest upload limit (`uploadBytes`) plus room for its `operations` and `map` parts.
import type { Request, RequestHandler } from "express";
import { boundedTextBody, declaredBodyLimit, HTTP_LIMITS } from "./boundary.ts";

const isMultipart = (req: Request) => String(req.headers["content-type"] ?? "").toLowerCase().startsWith("multipart/");

/** Runs two middlewares in a row. */
const both =
  (first: RequestHandler, second: RequestHandler): RequestHandler =>
  (req, res, next) =>
    first(req, res, (error?: unknown) => (error ? next(error) : second(req, res, next)));

const bounded = (maxBytes: number) => both(declaredBodyLimit(maxBytes), boundedTextBody(maxBytes));

export interface Uploads {
  /** the largest file the instance takes now (its upload limits are runtime settings) */
  uploadBytes: () => number;
  /** whether the request's credentials sign someone in */
  signedIn: (req: Request) => Promise<boolean>;
}

/** The body reader of GraphQL (with `uploads`) or tRPC (without: a multipart body is held to the same 1 MiB). */
export function surfaceBodies(uploads?: Uploads): RequestHandler {
  const plain = bounded(HTTP_LIMITS.apiBodyBytes);
  return (req, res, next) => {
    if (!uploads || !isMultipart(req)) return plain(req, res, next);
    uploads.signedIn(req).then((signedIn) => {
      if (!signedIn) return void res.status(401).json({ error: "Uploads need a signed-in account: the body was not read." });
      bounded(uploads.uploadBytes() + HTTP_LIMITS.apiBodyBytes)(req, res, next);
    }, next);
  };
}
