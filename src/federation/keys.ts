// Key pairs of local actors: RSA (draft-cavage signatures, `publicKey`) and Ed25519 (RFC 9421 and
// object integrity proofs, `assertionMethod`). Made on first use and kept as PEM on the account row;
// the instance's own actors (instance actor, relay actor) keep theirs as instance secrets.
import { webcrypto } from "node:crypto";
import type { Db } from "../db/client.ts";
import type { Account } from "../generated/prisma/client.ts";

const subtle = webcrypto.subtle as unknown as SubtleCrypto;
const RSA = { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" } as const;

export interface PemKeyPairs {
  rsaPublic: string;
  rsaPrivate: string;
  edPublic: string;
  edPrivate: string;
}

const pem = (label: string, der: ArrayBuffer) =>
  `-----BEGIN ${label}-----\n${Buffer.from(der).toString("base64").match(/.{1,64}/g)!.join("\n")}\n-----END ${label}-----\n`;
const der = (text: string) => Buffer.from(text.replace(/-----[^-]+-----/g, "").replace(/\s+/g, ""), "base64");

export async function generatePemKeyPairs(): Promise<PemKeyPairs> {
  const rsa = (await subtle.generateKey({ ...RSA, modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]) }, true, ["sign", "verify"])) as CryptoKeyPair;
  const ed = (await subtle.generateKey({ name: "Ed25519" }, true, ["sign", "verify"])) as CryptoKeyPair;
  return {
    rsaPublic: pem("PUBLIC KEY", await subtle.exportKey("spki", rsa.publicKey)),
    rsaPrivate: pem("PRIVATE KEY", await subtle.exportKey("pkcs8", rsa.privateKey)),
    edPublic: pem("PUBLIC KEY", await subtle.exportKey("spki", ed.publicKey)),
    edPrivate: pem("PRIVATE KEY", await subtle.exportKey("pkcs8", ed.privateKey)),
  };
}

const imported = new Map<string, Promise<CryptoKeyPair[]>>();

/** The pairs as CryptoKeys, RSA first (Fedify uses the first RSA key for cavage, Ed25519 for proofs). */
export function cryptoKeyPairs(keys: PemKeyPairs): Promise<CryptoKeyPair[]> {
  const cacheKey = keys.rsaPublic + keys.edPublic;
  let pairs = imported.get(cacheKey);
  if (!pairs) {
    pairs = (async () => [
      { publicKey: await subtle.importKey("spki", der(keys.rsaPublic), RSA, true, ["verify"]), privateKey: await subtle.importKey("pkcs8", der(keys.rsaPrivate), RSA, true, ["sign"]) },
      { publicKey: await subtle.importKey("spki", der(keys.edPublic), "Ed25519", true, ["verify"]), privateKey: await subtle.importKey("pkcs8", der(keys.edPrivate), "Ed25519", true, ["sign"]) },
    ])();
    imported.set(cacheKey, pairs);
    if (imported.size > 10_000) imported.delete(imported.keys().next().value!);
  }
  return pairs;
}

/** The local account's key pairs, made and stored on first use (two racing requests keep the first stored). */
export async function accountKeyPairs(db: Db, account: Pick<Account, "id" | "publicKey" | "privateKey" | "ed25519PublicKey" | "ed25519PrivateKey">): Promise<PemKeyPairs> {
  if (account.publicKey && account.privateKey && account.ed25519PublicKey && account.ed25519PrivateKey)
    return { rsaPublic: account.publicKey, rsaPrivate: account.privateKey, edPublic: account.ed25519PublicKey, edPrivate: account.ed25519PrivateKey };
  const fresh = await generatePemKeyPairs();
  await db.account.updateMany({
    where: { id: account.id, OR: [{ privateKey: null }, { ed25519PrivateKey: null }] },
    data: { publicKey: fresh.rsaPublic, privateKey: fresh.rsaPrivate, ed25519PublicKey: fresh.edPublic, ed25519PrivateKey: fresh.edPrivate },
  });
  const stored = await db.account.findUniqueOrThrow({ where: { id: account.id } });
  return { rsaPublic: stored.publicKey!, rsaPrivate: stored.privateKey!, edPublic: stored.ed25519PublicKey!, edPrivate: stored.ed25519PrivateKey! };
}
