// A small LitePub/Mastodon-style relay written with Fedify, living in the test process at
// https://<name>.fed.test (routed through the test network's TLS front). Like the relays servers
// subscribe to: it accepts a Follow (at once, or when the test says so), follows the subscriber's actor
// back, and re-announces every public post it receives to its other subscribers; an Undo of the
// Follow unsubscribes. Every activity it receives is recorded for tests to look at.
import http from "node:http";
import { randomUUID } from "node:crypto";
import { createFederation, generateCryptoKeyPair, MemoryKvStore, type Context, type Federation } from "@fedify/fedify";
import { Accept, Announce, Application, Create, Endpoints, Follow, PUBLIC_COLLECTION, Undo, type Actor } from "@fedify/vocab";
import type { FederationNet } from "./network.ts";

export interface TestRelay {
  baseUrl: string;
  /** the relay's actor id: what an admin gives as `relay_url` */
  actorId: string;
  /** activities received (as JSON), in order */
  received: Record<string, any>[];
  /** actor ids of the current subscribers */
  subscribers(): string[];
  /** actor ids of the subscribers whose verified Follow is held (autoAccept off) */
  pending(): string[];
  /** accepts the Follows held while `autoAccept` was off (and follows those subscribers back) */
  acceptPending(): Promise<void>;
  /** announces `objectId` (a post on another server) to these subscribers, as it does a post it was sent */
  announce(objectId: string, to: string[]): Promise<void>;
  /** the relay stops answering (connections refused) */
  close(): Promise<void>;
}

export async function startRelay(net: FederationNet, name = "relay", opts: { autoAccept?: boolean } = {}): Promise<TestRelay> {
  const baseUrl = `https://${name}.fed.test`;
  const keys = await generateCryptoKeyPair("RSASSA-PKCS1-v1_5");
  const subscribers = new Map<string, Actor>();
  const pending: { follow: Follow; actor: Actor }[] = [];
  const received: Record<string, any>[] = [];

  const federation: Federation<void> = createFederation<void>({ kv: new MemoryKvStore(), origin: baseUrl, allowPrivateAddress: true });
  federation
    .setActorDispatcher("/users/{identifier}", (ctx, identifier) => {
      if (identifier !== "relay") return null;
      return ctx.getActorKeyPairs(identifier).then(
        (pairs) =>
          new Application({
            id: ctx.getActorUri(identifier),
            preferredUsername: "relay",
            name: "Test relay",
            inbox: ctx.getInboxUri(identifier),
            endpoints: new Endpoints({ sharedInbox: ctx.getInboxUri() }),
            followers: ctx.getFollowersUri(identifier),
            publicKey: pairs[0]?.cryptographicKey,
          }),
      );
    })
    .setKeyPairsDispatcher((_ctx, identifier) => (identifier === "relay" ? [keys] : []));
  federation.setFollowersDispatcher("/users/{identifier}/followers", () => ({ items: [...subscribers.values()] }));

  const accept = async (ctx: Context<void>, follow: Follow, actor: Actor) => {
    const self = ctx.getActorUri("relay");
    subscribers.set(actor.id!.href, actor);
    await ctx.sendActivity({ identifier: "relay" }, actor, new Accept({ id: new URL(`${baseUrl}/accepts/${randomUUID()}`), actor: self, object: follow, to: actor.id }));
    // the relay follows the subscriber back, as LitePub relays do
    await ctx.sendActivity({ identifier: "relay" }, actor, new Follow({ id: new URL(`${baseUrl}/follows/${randomUUID()}`), actor: self, object: actor.id, to: actor.id }));
  };
  federation
    .setInboxListeners("/users/{identifier}/inbox", "/inbox")
    .on(Follow, async (ctx, follow) => {
      const actor = await follow.getActor();
      if (!actor?.id || follow.objectId?.href !== ctx.getActorUri("relay").href) return;
      if (opts.autoAccept === false) pending.push({ follow, actor });
      else await accept(ctx, follow, actor);
    })
    .on(Undo, async (_ctx, undo) => {
      const object = await undo.getObject().catch(() => null);
      if (object instanceof Follow && undo.actorId) subscribers.delete(undo.actorId.href);
    })
    .on(Create, async (ctx, create) => {
      // re-announced to every other subscriber (those of the author's own server excluded)
      const origin = create.actorId?.origin;
      if (!create.objectId || !create.toIds.concat(create.ccIds).some((u) => u.href === PUBLIC_COLLECTION.href)) return;
      const to = [...subscribers.values()].filter((a) => a.id!.origin !== origin);
      if (!to.length) return;
      const self = ctx.getActorUri("relay");
      const announce = new Announce({ id: new URL(`${baseUrl}/announces/${randomUUID()}`), actor: self, object: create.objectId, to: PUBLIC_COLLECTION, cc: ctx.getFollowersUri("relay") });
      await ctx.sendActivity({ identifier: "relay" }, to, announce, { preferSharedInbox: true });
    })
    .on(Accept, async () => {});

  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    const url = new URL(req.url ?? "/", baseUrl);
    if (req.method === "POST" && url.pathname.endsWith("/inbox")) {
      try {
        received.push(JSON.parse(body.toString("utf8")));
      } catch {
        /* not JSON */
      }
    }
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
    try {
      const response = await federation.fetch(new Request(url, { method: req.method, headers, body: req.method === "GET" || req.method === "HEAD" ? undefined : body }), { contextData: undefined });
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
    } catch (error) {
      res.writeHead(500).end(String(error));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  net.route(name, (server.address() as { port: number }).port);

  return {
    baseUrl,
    actorId: `${baseUrl}/users/relay`,
    received,
    subscribers: () => [...subscribers.keys()],
    pending: () => pending.map((p) => p.actor.id!.href),
    async acceptPending() {
      for (const { follow, actor } of pending.splice(0)) await accept(federation.createContext(new URL(baseUrl)), follow, actor);
    },
    async announce(objectId, to) {
      const ctx = federation.createContext(new URL(baseUrl));
      const self = ctx.getActorUri("relay");
      const inboxes = to.map((id) => subscribers.get(id)).filter((a): a is Actor => !!a);
      const announce = new Announce({ id: new URL(`${baseUrl}/announces/${randomUUID()}`), actor: self, object: new URL(objectId), to: PUBLIC_COLLECTION, cc: ctx.getFollowersUri("relay") });
      await ctx.sendActivity({ identifier: "relay" }, inboxes, announce, { preferSharedInbox: true });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
