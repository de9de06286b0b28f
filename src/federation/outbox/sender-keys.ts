// The keys a local account signs its deliveries with: shared by the delivery of every intent (deliver.ts)
// and the chat messages sent outside it (chat.ts), which deliver.ts dispatches to (so neither imports the other for it).
import type { SenderKeyPair } from "@fedify/fedify";
import type { Services } from "../../domain/context.ts";
import type { Account } from "../../generated/prisma/client.ts";
import { accountKeyPairs, cryptoKeyPairs } from "../keys.ts";

export type SenderAccount = Pick<Account, "id" | "apId" | "nickname" | "local" | "publicKey" | "privateKey" | "ed25519PublicKey" | "ed25519PrivateKey">;

/**
 * The signing keys of a local account, named as the actor document names them (Fedify's
 * `#main-key` for RSA, `#key-2` for Ed25519). Given explicitly rather than through the key-pairs
 * dispatcher, so a deleted (deactivated) account can still sign its own Delete.
 */
export async function senderKeys(services: Services, account: SenderAccount): Promise<SenderKeyPair[]> {
  const [rsa, ed] = await cryptoKeyPairs(await accountKeyPairs(services.db, account));
  return [
    { keyId: new URL(`${account.apId}#main-key`), privateKey: rsa.privateKey },
    { keyId: new URL(`${account.apId}#key-2`), privateKey: ed.privateKey },
  ];
}
