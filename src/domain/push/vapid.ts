// The server's VAPID key pair (RFC 8292): generated once by whichever process asks first and shared
// through `instance_secrets`, so every process signs with the key clients were given.
import type { Services } from "../context.ts";
import { instanceSecret } from "../instance/secrets.ts";

export interface VapidKeys {
  /** uncompressed P-256 point, base64url: the entity's `server_key` and the instance's `vapid_public_key` */
  publicKey: string;
  privateKey: string;
}

export async function vapidKeys(services: Pick<Services, "db">): Promise<VapidKeys> {
  // web-push (~1.5 MB of heap) is imported only by the process that generates the pair, once per instance
  const generate = async () => JSON.stringify((await import("web-push")).default.generateVAPIDKeys());
  return JSON.parse(await instanceSecret(services, "vapid_keys", generate)) as VapidKeys;
}

export async function vapidPublicKey(services: Pick<Services, "db">): Promise<string> {
  return (await vapidKeys(services)).publicKey;
}
