// Hands ActivityPub requests to Fedify: POSTs to an inbox, and GETs that ask for ActivityStreams JSON.
// Everything else (and whatever Fedify does not serve or cannot render in the asked type) goes on to the
// other routes, so the same URL serves HTML to browsers. Mounted before the body parsers: signature
// digests are computed over the raw body.
import type express from "express";
import type { Services } from "../domain/context.ts";
import { importKeepingBuiltins } from "../kernel/native-builtins.ts";
import { withGuard } from "../net/outbound.ts";
import { refusedInboxPost } from "./inbox/domain-block.ts";

const AP_TYPES = ["application/activity+json", "application/ld+json"];
const MAX_INBOX_BYTES = 1024 * 1024;

export function wantsActivityJson(req: express.Request): boolean {
  const accept = req.get("accept") ?? "";
  return AP_TYPES.some((t) => accept.includes(t)) && req.accepts(["text/html", ...AP_TYPES]) !== "text/html";
}

const isInboxPost = (req: express.Request) => req.method === "POST" && /\/inbox\/?$/.test(req.path);

/**
 * The inbox body, counted as it arrives: null past MAX_INBOX_BYTES (a declared Content-Length past it is
 * refused before anything is read). The rest of a body too large is let through unkept, not the connection
 * cut, so the client reads its 413.
 */
function readBody(req: express.Request): Promise<Buffer | null> {
  if (Number(req.headers["content-length"] ?? 0) > MAX_INBOX_BYTES) return Promise.resolve(null);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_INBOX_BYTES) return void chunks.push(chunk);
      chunks.length = 0;
      req.off("data", onData).resume();
      resolve(null);
    };
    req.on("data", onData);
    req.once("end", () => resolve(Buffer.concat(chunks)));
    req.once("error", reject);
  });
}

export function federationMiddleware(services: Services): express.RequestHandler {
  return async (req, res, next) => {
    const inbox = isInboxPost(req);
    if (!inbox && !((req.method === "GET" || req.method === "HEAD") && wantsActivityJson(req))) return next();
    try {
      const body = inbox ? await readBody(req) : undefined;
      if (body === null) return void res.status(413).json({ error: "Request entity too large" });
      const url = new URL(req.originalUrl, services.settings.baseUrl);
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(", ") : v);
      // servers the instance rejects are refused before Fedify fetches their keys (inbox/domain-block.ts)
      const refused = body ? refusedInboxPost(services, body, headers) : null;
      if (refused) return void res.status(403).json({ error: refused });
      const request = new Request(url, { method: req.method, headers, body: body ? new Uint8Array(body) : undefined });
      let passed = false;
      // Fedify (with its vocabulary, JSON-LD and Temporal polyfill, ~50 MB resident) is loaded by the
      // first ActivityPub request or federation job, not at start: see federation/lazy.ts
      const { federationFor } = await importKeepingBuiltins(() => import("./federation.ts"));
      const response = await withGuard(services, () =>
        federationFor(services).fetch(request, {
          contextData: services,
          onNotFound: async () => ((passed = true), new Response(null, { status: 404 })),
          onNotAcceptable: async () => ((passed = true), new Response(null, { status: 406 })),
        }),
      );
      if (passed && !inbox) return next();
      res.status(response.status);
      response.headers.forEach((value, key) => res.setHeader(key, value));
      res.end(Buffer.from(await response.arrayBuffer()));
    } catch (error) {
      next(error);
    }
  };
}
