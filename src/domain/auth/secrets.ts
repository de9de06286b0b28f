// Random secrets and their stored digests: tokens, codes and session ids are never stored in clear.
import { encodeBase32LowerCaseNoPadding } from "@oslojs/encoding";
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

export function newSecret(bytes = 32): string {
  return encodeBase32LowerCaseNoPadding(randomBytes(bytes));
}

/** SHA-256 of the secret's UTF-8 bytes, in lower-case hex. Node's own: every authenticated request hashes its token. */
export function digest(secret: string): string {
  return createHash("sha256").update(secret, "utf8").digest("hex");
}

export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
