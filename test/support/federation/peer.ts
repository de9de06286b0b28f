// A minimal ActivityPub peer written with Fedify, living in the test process: its actors (with their
// own RSA keys) are served by a Fedify federation at https://peer.fed.test (routed through the test
// network's TLS front), and it sends any JSON activity to an inbox with a real HTTP signature (draft-cavage
// or RFC 9421), or deliberately wrong ones (unsigned, another actor's key, a body changed after signing).
// Deliveries it receives are recorded, unverified, for tests to look at.
import http from "node:http";
import { createFederation, generateCryptoKeyPair, MemoryKvStore, signRequest, type Federation } from "@fedify/fedify";
import { Endpoints, Person, PropertyValue, Image, Emoji } from "@fedify/vocab";
import type { FederationNet } from "./network.ts";

export interface PeerActorOptions {
  name?: string;
  summary?: string;
  locked?: boolean;
  alsoKnownAs?: string[];
  movedTo?: string;
  fields?: { name: string; value: string }[];
  /** custom emoji used in the profile: shortcode → image URL */
  emojis?: Record<string, string>;
  icon?: string;
  /** the header image's URL */
  image?: string;
}

interface PeerActor {
  id: string;
  keyId: string;
  inbox: string;
  followers: string;
  options: PeerActorOptions;
  keys: CryptoKeyPair;
}

export interface SendOptions {
  spec?: "draft-cavage-http-signatures-12" | "rfc9421";
  unsigned?: boolean;
  /** sign with this other actor's key (key owner ≠ activity actor) */
  signAs?: string;
  /** change the body after signing (the digest no longer matches) */
  tamper?: boolean;
}

export interface Peer {
  baseUrl: string;
  domain: string;
  /** creates (or re-describes) an actor served at {baseUrl}/users/{name} */
  actor(name: string, options?: PeerActorOptions): Promise<PeerActor>;
  /** a new key pair for the actor (same key id, as Mastodon keeps `#main-key`) */
  rotateKey(name: string): Promise<void>;
  /** the actor's document is gone (410), as after an account deletion */
  remove(name: string): void;
  /** serves bytes at `url` with the given Content-Type (media files) */
  serveFile(url: string, body: Buffer, contentType: string): void;
  /** serves a JSON object at its id (which must be under baseUrl) */
  publish(object: Record<string, unknown>): void;
  /** serves any JSON document (a JSON-LD context, say) at `url` */
  serve(url: string, document: unknown): void;
  /** the request `send` would make (signed now, sent later: benchmarks sign before they measure) */
  sign(from: string, inbox: string, activity: unknown, opts?: SendOptions): Promise<Request>;
  /** POSTs `activity` to `inbox`, signed by `from` unless told otherwise */
  send(from: string, inbox: string, activity: unknown, opts?: SendOptions): Promise<Response>;
  /** activities POSTed to the peer's inboxes */
  received: Record<string, any>[];
  /**
   * From now on inbox POSTs are recorded when they arrive but answered only at `release()`: deliveries the
   * sender has made and not yet seen acknowledged (what a crash of the sender leaves in flight).
   */
  hold(): { held(): number; release(): void };
  /** the next `count` GETs of `url` are answered `status` (a server briefly down); answers how many were */
  failNext(url: string, count: number, status?: number): { failed(): number };
  close(): Promise<void>;
}

export async function startPeer(net: FederationNet, name = "peer"): Promise<Peer> {
  const domain = `${name}.fed.test`;
  const baseUrl = `https://${domain}`;
  const actors = new Map<string, PeerActor>();
  const removed = new Set<string>();
  const objects = new Map<string, string>();
  const files = new Map<string, { body: Buffer; contentType: string }>();
  const received: Record<string, any>[] = [];
  let holding: { waiting: (() => void)[] } | null = null;
  const failing = new Map<string, { left: number; status: number; failed: number }>();

  const federation: Federation<void> = createFederation<void>({ kv: new MemoryKvStore(), origin: baseUrl, allowPrivateAddress: true });
  federation
    .setActorDispatcher("/users/{identifier}", async (ctx, identifier) => {
      const a = actors.get(identifier);
      if (!a) return null;
      const keys = await ctx.getActorKeyPairs(identifier);
      const o = a.options;
      return new Person({
        id: ctx.getActorUri(identifier),
        preferredUsername: identifier,
        name: o.name ?? identifier,
        summary: o.summary ?? null,
        url: new URL(`${baseUrl}/@${identifier}`),
        inbox: new URL(a.inbox),
        endpoints: new Endpoints({ sharedInbox: new URL(`${baseUrl}/inbox`) }),
        followers: new URL(a.followers),
        manuallyApprovesFollowers: o.locked ?? false,
        discoverable: true,
        publicKey: keys[0]?.cryptographicKey,
        aliases: (o.alsoKnownAs ?? []).map((u) => new URL(u)),
        successor: o.movedTo ? new URL(o.movedTo) : null,
        attachments: (o.fields ?? []).map((f) => new PropertyValue({ name: f.name, value: f.value })),
        icon: o.icon ? new Image({ url: new URL(o.icon), mediaType: "image/png" }) : null,
        image: o.image ? new Image({ url: new URL(o.image), mediaType: "image/png" }) : null,
        tags: Object.entries(o.emojis ?? {}).map(([code, url]) => new Emoji({ id: new URL(`${baseUrl}/emoji/${code}`), name: `:${code}:`, icon: new Image({ url: new URL(url), mediaType: "image/png" }) })),
      });
    })
    .setKeyPairsDispatcher((_ctx, identifier) => {
      const a = actors.get(identifier);
      return a ? [a.keys] : [];
    });

  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    const url = new URL(req.url ?? "/", baseUrl);
    const user = url.pathname.match(/^\/users\/([^/]+)$/)?.[1];
    if (req.method === "GET" && user && removed.has(user)) return void res.writeHead(410).end();
    const failure = req.method === "GET" ? failing.get(url.href) : undefined;
    if (failure && failure.left > 0) {
      failure.left--;
      failure.failed++;
      return void res.writeHead(failure.status).end();
    }
    if (req.method === "POST" && url.pathname.endsWith("/inbox")) {
      try {
        received.push(JSON.parse(body.toString("utf8")));
      } catch {
        /* not JSON */
      }
      if (holding) await new Promise<void>((resolve) => holding!.waiting.push(resolve));
      if (!res.destroyed) res.writeHead(202).end();
      return;
    }
    const file = files.get(url.href);
    if ((req.method === "GET" || req.method === "HEAD") && file) return void res.writeHead(200, { "content-type": file.contentType }).end(file.body);
    const object = objects.get(url.href);
    if (req.method === "GET" && object) return void res.writeHead(200, { "content-type": "application/activity+json" }).end(object);
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
    const response = await federation.fetch(new Request(url, { method: req.method, headers, body: req.method === "GET" || req.method === "HEAD" ? undefined : body }), { contextData: undefined });
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  net.route(name, (server.address() as { port: number }).port);

  const peer: Peer = {
    baseUrl,
    domain,
    received,
    async actor(actorName, options = {}) {
      const existing = actors.get(actorName);
      if (existing) {
        existing.options = options;
        return existing;
      }
      const id = `${baseUrl}/users/${actorName}`;
      const a: PeerActor = { id, keyId: `${id}#main-key`, inbox: `${id}/inbox`, followers: `${id}/followers`, options, keys: await generateCryptoKeyPair("RSASSA-PKCS1-v1_5") };
      actors.set(actorName, a);
      removed.delete(actorName);
      return a;
    },
    async rotateKey(actorName) {
      actors.get(actorName)!.keys = await generateCryptoKeyPair("RSASSA-PKCS1-v1_5");
    },
    remove(actorName) {
      removed.add(actorName);
    },
    serveFile(url, body, contentType) {
      files.set(url, { body, contentType });
    },
    publish(object) {
      objects.set(String(object.id), JSON.stringify(object));
    },
    serve(url, document) {
      objects.set(url, JSON.stringify(document));
    },
    async send(from, inbox, activity, opts = {}) {
      return fetch(await peer.sign(from, inbox, activity, opts));
    },
    async sign(from, inbox, activity, opts = {}) {
      const signer = actors.get(opts.signAs ?? from);
      if (!signer) throw new Error(`no peer actor ${opts.signAs ?? from}`);
      const body = JSON.stringify(activity);
      let request = new Request(inbox, { method: "POST", headers: { "content-type": "application/activity+json", accept: "application/activity+json" }, body });
      if (!opts.unsigned) request = await signRequest(request, signer.keys.privateKey, new URL(signer.keyId), { spec: opts.spec ?? "draft-cavage-http-signatures-12" });
      if (opts.tamper) request = new Request(request.url, { method: "POST", headers: request.headers, body: body.replace(/}$/, ',"extra":"changed after signing"}') });
      return request;
    },
    failNext(url, count, status = 503) {
      const failure = { left: count, status, failed: 0 };
      failing.set(url, failure);
      return { failed: () => failure.failed };
    },
    hold() {
      const h = { waiting: [] as (() => void)[] };
      holding = h;
      return {
        held: () => h.waiting.length,
        release() {
          if (holding === h) holding = null;
          for (const resolve of h.waiting.splice(0)) resolve();
        },
      };
    },
    close: () => {
      holding?.waiting.splice(0).forEach((resolve) => resolve());
      holding = null;
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return peer;
}

/** A fixture with its `{{name}}` placeholders filled (`{{peer}}` the peer's base URL, `{{target}}` ours, `{{id}}` a fresh suffix…). */
export function fill(template: unknown, values: Record<string, string>): any {
  let text = JSON.stringify(template);
  for (const [k, v] of Object.entries(values)) text = text.replaceAll(`{{${k}}}`, v);
  return JSON.parse(text);
}
