// The input boundary of the HTTP server: the one place where what a client sent becomes either input
// for a route or a 4xx in the family's `{"error": "…"}` shape. It bounds the request target and the query
// string (length, nesting, key count), refuses malformed percent-encoding, unsupported media types and
// text PostgreSQL cannot store, and maps every body-parser, multipart and URL-decoding failure to 400,
// 413 or 415. Limits and the text rule are described in docs/security.md.
import express, { type ErrorRequestHandler, type Request, type RequestHandler, type Response } from "express";
import multer from "multer";
import qs from "qs";
import { DomainError } from "../kernel/errors.ts";
import { findUnsafeInput, MAX_DEPTH } from "../domain/input-limits.ts";
import { faultOf } from "./faults.ts";

export const HTTP_LIMITS = {
  /** characters of the request target (path and query string); longer → 414 */
  urlLength: 8 * 1024,
  /** nesting of query-string keys (`a[b][c]`); deeper → 400 */
  queryDepth: 5,
  /** parameters in a query string or urlencoded body; more → 400 (query) or 413 (body) */
  parameters: 1000,
  /** items of one array parameter (`ids[]=…`); more → 400 */
  arrayItems: 1000,
  /** JSON and urlencoded bodies of a REST route that declares no `bodyLimit` (bytes, after decompression) */
  bodyBytes: 1024 * 1024,
  /** the largest `bodyLimit` a route may declare for JSON and urlencoded bodies */
  maxBodyBytes: 10 * 1024 * 1024,
  /** GraphQL and tRPC bodies (GraphQL uploads aside: src/http/surface-bodies.ts); the admin UI's largest is a few KiB */
  apiBodyBytes: 1024 * 1024,
  /** nesting of urlencoded body keys */
  bodyDepth: 10,
  /**
   * multipart (read after authorization, files to disk: src/http/routes/uploads.ts): files, text fields and the
   * size of one (a route that declares a larger `bodyLimit` takes text fields up to it); a file's size is the
   * route's from the instance's upload limits
   */
  multipart: { files: 10, fields: 100, fieldSize: 256 * 1024, fieldNameSize: 200 },
} as const;

/** The media types REST routes that take a body accept; anything else declared is refused with 415. */
export const REST_BODY_TYPES = ["application/json", "application/*+json", "application/x-www-form-urlencoded", "multipart/form-data"];

/** A refusal at the boundary, with its HTTP status. */
export class InputError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** Express's "extended" query parser (qs) with limits: deeper nesting, more keys or longer arrays throw. */
export function parseQueryString(str: string): Record<string, unknown> {
  try {
    return qs.parse(str, {
      depth: HTTP_LIMITS.queryDepth,
      strictDepth: true,
      parameterLimit: HTTP_LIMITS.parameters,
      arrayLimit: HTTP_LIMITS.arrayItems,
      throwOnLimitExceeded: true,
      allowPrototypes: false,
    }) as Record<string, unknown>;
  } catch (error) {
    throw new InputError(400, `Invalid query string: ${(error as Error).message}`);
  }
}

const send = (res: Response, status: number, message: string) => {
  if (!res.headersSent) res.status(status).json({ error: message });
};

/**
 * The first middleware: bounds the request target, refuses malformed percent-encoding in the path,
 * parses the query string once under the limits, and applies the text rule to the path and the query.
 */
export function requestBoundary(): RequestHandler {
  return (req, res, next) => {
    const url = req.originalUrl ?? req.url;
    if (url.length > HTTP_LIMITS.urlLength) return send(res, 414, `URI too long (at most ${HTTP_LIMITS.urlLength} characters)`);
    const q = url.indexOf("?");
    const rawPath = q >= 0 ? url.slice(0, q) : url;
    let path: string;
    try {
      path = decodeURIComponent(rawPath);
    } catch {
      return send(res, 400, "Malformed percent-encoding in the path");
    }
    let query: Record<string, unknown>;
    try {
      query = q >= 0 ? parseQueryString(url.slice(q + 1)) : {};
    } catch (error) {
      return send(res, (error as InputError).status ?? 400, (error as Error).message);
    }
    const problem = findUnsafeInput(path, "path") ?? findUnsafeInput(query, "query");
    if (problem) return problem.kind === "depth" ? send(res, 400, `Query string nested deeper than ${MAX_DEPTH} levels`) : send(res, 422, `${problem.where}: text must not contain NUL characters or unpaired surrogates.`);
    // Express 5 re-parses req.query on every read; the checked result is kept instead
    Object.defineProperty(req, "query", { value: query, writable: true, configurable: true, enumerable: true });
    next();
  };
}

/** 415 for a REST request whose body is of a media type the route does not accept (no type: no body). */
export const restMediaType: RequestHandler = (req, res, next) => {
  const length = Number(req.headers["content-length"] ?? 0);
  const hasBody = req.headers["transfer-encoding"] !== undefined || length > 0;
  if (hasBody && req.headers["content-type"] && !req.is(REST_BODY_TYPES)) {
    return send(res, 415, `Unsupported media type ${req.headers["content-type"].split(";")[0]}: send application/json, application/x-www-form-urlencoded or multipart/form-data`);
  }
  next();
};

const TOO_LARGE = new Set(["LIMIT_FILE_SIZE", "LIMIT_FIELD_VALUE", "LIMIT_PART_COUNT", "LIMIT_FILE_COUNT", "LIMIT_FIELD_COUNT"]);

/** Runs a multer middleware; a malformed multipart body (busboy's errors) becomes a 400, limits a 413. */
export function multipartBoundary(parse: RequestHandler): RequestHandler {
  return (req, res, next) =>
    parse(req, res, (err?: unknown) => {
      if (!err) return next();
      if (err instanceof multer.MulterError) return next(new InputError(TOO_LARGE.has(err.code) ? 413 : 400, err.field ? `${err.message}: ${err.field}` : err.message));
      // a full disk while a file streams to DATA_DIR/tmp/uploads is the server's fault (507), not the body's
      if (err instanceof InputError || err instanceof DomainError || faultOf(err)) return next(err);
      next(new InputError(400, `Malformed multipart body: ${(err as Error).message ?? "unreadable"}`));
    });
}

/** body-parser's error types and the status and words we answer them with. */
const BODY_ERRORS: Record<string, [number, string]> = {
  "entity.parse.failed": [400, "Invalid JSON body"],
  "entity.too.large": [413, "Request entity too large"],
  "entity.verify.failed": [400, "Invalid body"],
  "parameters.too.many": [413, "Too many parameters"],
  "request.aborted": [400, "Request aborted"],
  "request.size.invalid": [400, "Request size did not match Content-Length"],
  "encoding.unsupported": [415, "Unsupported content encoding"],
  "charset.unsupported": [415, "Unsupported charset"],
  "stream.encoding.set": [500, "Internal server error"],
};

/** The status and `{error}` body of a failure that happened before a route's handler ran, if it is one. */
export function inputErrorShape(err: any): { status: number; body: { error: string } } | undefined {
  if (err instanceof InputError) return { status: err.status, body: { error: err.message } };
  if (err instanceof DomainError) return undefined;
  if (typeof err?.type === "string" && BODY_ERRORS[err.type]) {
    const [status, message] = BODY_ERRORS[err.type];
    return { status, body: { error: err.type === "charset.unsupported" || err.type === "encoding.unsupported" ? `${message}: ${err.charset ?? err.encoding ?? ""}`.replace(/: $/, "") : message } };
  }
  if (err?.name === "MulterError") return { status: TOO_LARGE.has(err.code) ? 413 : 400, body: { error: err.message } };
  // the router's param decoding (URIError), body-parser's depth error and other http-errors with a 4xx
  const status = Number(err?.status ?? err?.statusCode);
  if (status >= 400 && status < 500) return { status, body: { error: err instanceof URIError || /decode param/i.test(err?.message ?? "") ? "Malformed percent-encoding in the path" : err.expose === false ? "Bad request" : String(err.message) } };
  return undefined;
}

/** The last error handler of the app: boundary failures answer 4xx; the rest goes to `fallback`. */
export function boundaryErrorHandler(fallback: (res: Response, err: unknown, req: Request) => void): ErrorRequestHandler {
  return (err, req, res, _next) => {
    const shape = inputErrorShape(err);
    if (shape) return void (res.headersSent || res.status(shape.status).json(shape.body));
    fallback(res, err, req);
  };
}


/**
 * Requests Node's HTTP parser refuses before express sees them (a request line or headers over
 * `--max-http-header-size`, malformed HTTP) get the same `{error}` body instead of an empty answer.
 */
export function answerClientErrors(server: import("node:http").Server) {
  server.on("clientError", (err: NodeJS.ErrnoException, socket) => {
    if (err.code === "ECONNRESET" || !socket.writable) return void socket.destroy();
    const [status, reason, message] =
      err.code === "HPE_HEADER_OVERFLOW"
        ? [431, "Request Header Fields Too Large", "Request line or headers too large"]
        : err.code === "ERR_HTTP_REQUEST_TIMEOUT"
          ? [408, "Request Timeout", "Request timeout"]
          : [400, "Bad Request", "Malformed HTTP request"];
    const body = JSON.stringify({ error: message });
    socket.end(`HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  });
}

/**
 * For surfaces that read their own bodies (GraphQL, tRPC): a declared Content-Length over `maxBytes`
 * answers 413 before anything is read.
 */
export function declaredBodyLimit(maxBytes: number): RequestHandler {
  return (req, res, next) => {
    const length = Number(req.headers["content-length"] ?? 0);
    if (length > maxBytes) return send(res, 413, "Request entity too large");
    next();
  };
}

/**
 * Reads any body (chunked or not, gzip/deflate/br inflated) as text, counting the bytes as they arrive
 * after decompression: past `maxBytes` the read stops and the request answers 413 — so a surface that
 * reads bodies itself (GraphQL, tRPC) never holds more than the limit, whatever Content-Length said.
 */
export function boundedTextBody(maxBytes: number): RequestHandler {
  // multipart bodies (GraphQL file uploads) carry binary parts: kept as bytes, not decoded as text
  const isMultipart = (req: { headers: Record<string, unknown> }) => String(req.headers["content-type"] ?? "").toLowerCase().startsWith("multipart/");
  const raw = express.raw({ type: isMultipart as never, limit: maxBytes, inflate: true });
  const text = express.text({ type: ((req: never) => !isMultipart(req)) as never, limit: maxBytes, inflate: true, defaultCharset: "utf-8" });
  return (req, res, next) => raw(req, res, (error?: unknown) => (error ? next(error) : text(req, res, next)));
}

/** JSON and urlencoded parsers for one REST route, under its body limit (after decompression). */
export function restBodyParsers(maxBytes: number): RequestHandler[] {
  return [
    express.json({ limit: maxBytes, type: ["application/json", "application/*+json"] }),
    // `depth` (body-parser 2) is missing from its type declarations
    express.urlencoded({ extended: true, limit: maxBytes, depth: HTTP_LIMITS.bodyDepth, parameterLimit: HTTP_LIMITS.parameters } as Parameters<typeof express.urlencoded>[0]),
  ];
}
