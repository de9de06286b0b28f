// Helpers of the outbound tests: a delivery sink in the test process that stands for many remote
// instances (each `<name>.fed.test` routed to it by the TLS front), verifies every request's HTTP
// signature with Fedify's `verifyRequest` (fetching our actor's key from our server over HTTPS) and
// records what arrived; and seeding of remote accounts and their follows straight into a server's
// database, so delivery is tested without depending on inbound processing.
import http from "node:http";
import { randomUUID } from "node:crypto";
import { verifyRequestDetailed } from "@fedify/fedify";
import { getDocumentLoader } from "@fedify/vocab-runtime";
import type { FederationNet, TestInstance } from "../support/federation/network.ts";

export interface Delivery {
  host: string;
  path: string;
  /** "rfc9421" when signed with HTTP Message Signatures, else draft-cavage */
  spec: "rfc9421" | "cavage";
  /** the verified key id, or null when the signature did not verify */
  keyId: string | null;
  status: number;
  activity: any;
  /** why the signature did not verify */
  reason?: string;
}

export interface HostBehaviour {
  /** answer this status instead of 202 (e.g. 503 for a failing host, 410 for a gone one) */
  status?: number;
  /** refuse RFC 9421 signatures (401), accept draft-cavage: a peer that only knows the older draft */
  cavageOnly?: boolean;
}

export interface Sink {
  port: number;
  deliveries: Delivery[];
  /** accepted deliveries (2xx) to `host` */
  to(host: string): Delivery[];
  behave(host: string, behaviour: HostBehaviour): void;
  /** routes `<name>.fed.test` to the sink and answers the host name */
  host(name: string): string;
  close(): Promise<void>;
}

export async function startSink(net: FederationNet, opts: { verify?: boolean } = {}): Promise<Sink> {
  const deliveries: Delivery[] = [];
  // the test servers live on loopback addresses, which Fedify's default loader refuses
  const documentLoader = getDocumentLoader({ allowPrivateAddress: true });
  const behaviours = new Map<string, HostBehaviour>();
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    const host = String(req.headers.host ?? "").split(":")[0];
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
    const spec = headers.has("signature-input") ? "rfc9421" : "cavage";
    const behaviour = behaviours.get(host) ?? {};
    let keyId: string | null = null;
    let reason: string | undefined;
    if (opts.verify !== false && req.method === "POST") {
      const request = new Request(`https://${host}${req.url}`, { method: "POST", headers, body });
      const result = await verifyRequestDetailed(request, { documentLoader }).catch((error) => ({ verified: false as const, reason: String(error) }));
      if (result.verified) keyId = result.key.id?.href ?? null;
      else reason = JSON.stringify(result.reason);
    }
    let status = behaviour.status ?? 202;
    if (behaviour.cavageOnly && spec === "rfc9421") status = 401;
    if (req.method === "POST" && keyId === null && opts.verify !== false && status < 300) status = 401;
    let activity: unknown = null;
    try {
      activity = JSON.parse(body.toString("utf8"));
    } catch {
      /* not JSON */
    }
    if (req.method === "POST") deliveries.push({ host, path: req.url ?? "", spec, keyId, status, activity, reason });
    res.writeHead(status, { "content-type": "text/plain" }).end();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as { port: number }).port;
  return {
    port,
    deliveries,
    to: (host) => deliveries.filter((d) => d.host === host && d.status < 300),
    behave: (host, behaviour) => void behaviours.set(host, behaviour),
    host(name) {
      net.route(name, port);
      return `${name}.fed.test`;
    },
    close: () => new Promise((r) => server.close(() => r())),
  };
}

export interface RemoteAccount {
  id: string;
  apId: string;
  nickname: string;
  host: string;
}

/** A remote account of `host` in `instance`'s database: actor `https://host/users/name`, personal and shared inboxes. */
export async function seedRemoteAccount(instance: TestInstance, host: string, name: string): Promise<RemoteAccount> {
  const id = `0remote${randomUUID().replace(/-/g, "")}`;
  const apId = `https://${host}/users/${name}`;
  const nickname = `${name}@${host}`;
  await instance.sql(
    `INSERT INTO accounts (id, nickname, domain, local, ap_id, inbox, shared_inbox, url, created_at, updated_at)
     VALUES ($1, $2, $3, false, $4, $5, $6, $4, now(), now())`,
    [id, nickname, host, apId, `${apId}/inbox`, `https://${host}/inbox`],
  );
  return { id, apId, nickname, host };
}

/** `follower` (remote) follows the local account `followingId`, accepted. */
export async function seedFollow(instance: TestInstance, followerId: string, followingId: string): Promise<void> {
  await instance.sql(
    `INSERT INTO follows (id, follower_id, following_id, state, ap_id, created_at, updated_at) VALUES ($1, $2, $3, 'accept', $4, now(), now())`,
    [`0follow${randomUUID().replace(/-/g, "")}`, followerId, followingId, `https://remote.example/follows/${randomUUID()}`],
  );
}

export async function post(instance: TestInstance, token: string, json: Record<string, unknown>): Promise<any> {
  const res = await instance.api("/api/v1/statuses", { token, json });
  if (res.status !== 200) throw new Error(`post: ${res.status} ${await res.text()}`);
  return res.json();
}

export const activitiesOf = (deliveries: Delivery[], type: string) => deliveries.filter((d) => d.activity?.type === type);
