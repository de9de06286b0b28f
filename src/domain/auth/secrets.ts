// Random secrets and their stored digests: tokens, codes and session ids are never stored in clear.
import { sha256 } from "@oslojs/crypto/sha2";
import { encodeBase32LowerCaseNoPadding, encodeHexLowerCase } from "@oslojs/encoding";
import { randomBytes, timingSafeEqual } from "node:crypto";

export function newSecret(bytes = 32): string {
  return encodeBase32LowerCaseNoPadding(randomBytes(bytes));
}

export function digest(secret: string): string {
  return encodeHexLowerCase(sha256(new TextEncoder().encode(secret)));
}

export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
