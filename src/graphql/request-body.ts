// The body yoga reads. GraphQL's body was read before yoga (src/http/boundary.ts bounds it as it arrives),
// and yoga's Node adapter (`normalizeNodeRequest` in @whatwg-node/server) tests a body read before it with
// `Object.keys(body)`: for a string or a Buffer that is one key per character or byte, about a second a MB
// of blocked event loop (issue 32). Yoga is given the same bytes as a stream instead, which it reads in
// linear time; the text stays here for the kept queries (kept-queries.ts), keyed by the request.
import { Readable } from "node:stream";

const texts = new WeakMap<object, string>();

/** Replaces `req.body` (the text or bytes read by the boundary) with a stream of its bytes for yoga. */
export function bodyAsStream(req: { body?: unknown }): void {
  const body = req.body;
  if (typeof body === "string") texts.set(req, body);
  if (typeof body === "string" || Buffer.isBuffer(body)) req.body = Readable.from([Buffer.from(body as string)]);
}

/** The JSON text of a POST's body as sent (undefined for other bodies). */
export const sentText = (req: object): string | undefined => texts.get(req);
