// TOTP (RFC 6238) through @oslojs/otp: the key as authenticator apps read it (base32), its
// otpauth:// URI, and code checks against our clock. Authenticators only agree on SHA-1, 6 digits
// and 30 seconds, so these are fixed rather than settings.
import { decodeBase32IgnorePadding, encodeBase32UpperCaseNoPadding } from "@oslojs/encoding";
import { createTOTPKeyURI, verifyHOTP } from "@oslojs/otp";
import { randomBytes } from "node:crypto";

const PERIOD_SECONDS = 30;
const DIGITS = 6;
/** periods either side of now that still pass: phone clocks drift and people type slowly */
const DRIFT_PERIODS = 1;

/** A fresh 160-bit key (RFC 4226's recommended length), base32 as the family shows it. */
export function newTotpKey(): string {
  return encodeBase32UpperCaseNoPadding(randomBytes(20));
}

export function totpKeyUri(key: string, issuer: string, accountName: string): string {
  return createTOTPKeyURI(issuer, accountName, decodeBase32IgnorePadding(key), PERIOD_SECONDS, DIGITS);
}

/** The period (counter) whose code `code` is, for the period of `now` or a neighbouring one; null when none. */
export function matchTotp(key: string, code: string, now: Date): number | null {
  const otp = code.replace(/\s+/g, "");
  if (!/^\d+$/.test(otp)) return null;
  const secret = decodeBase32IgnorePadding(key);
  const current = Math.floor(now.getTime() / 1000 / PERIOD_SECONDS);
  for (let counter = current - DRIFT_PERIODS; counter <= current + DRIFT_PERIODS; counter++) {
    if (verifyHOTP(secret, BigInt(counter), DIGITS, otp)) return counter;
  }
  return null;
}

export const verifyTotp = (key: string, code: string, now: Date): boolean => matchTotp(key, code, now) !== null;
