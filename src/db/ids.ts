// 128-bit, time-ordered, lexically sortable ids: 48-bit millisecond time + 80 bits that are random
// for the first id of a millisecond and incremented after it (monotonic within one process).
// Encoded as 26 lowercase Crockford base-32 characters: digits and lowercase letters sort the
// same way under every PostgreSQL collation, so `max_id`/`since_id` paging is a plain string comparison.
import { randomBytes } from "node:crypto";

const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";
let lastTime = -1;
let lastRandom = 0n;

function encode(value: bigint, length: number): string {
  let out = "";
  for (let i = 0; i < length; i++) {
    out = ALPHABET[Number(value & 31n)] + out;
    value >>= 5n;
  }
  return out;
}

export function newId(now = Date.now()): string {
  if (now <= lastTime) {
    now = lastTime;
    lastRandom = (lastRandom + 1n) & ((1n << 80n) - 1n);
  } else {
    lastTime = now;
    lastRandom = BigInt("0x" + randomBytes(10).toString("hex"));
  }
  return encode(BigInt(now), 10) + encode(lastRandom, 16);
}

/** The smallest id of a millisecond: every id made at or after `ms` sorts at or after it (for time ranges over ids). */
export function firstIdAt(ms: number): string {
  return encode(BigInt(ms), 10) + "0".repeat(16);
}

export function isId(value: string): boolean {
  return /^[0-9a-hjkmnp-tv-z]{26}$/.test(value);
}
