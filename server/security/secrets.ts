// Random secrets and their stored form: a pairing token or a device cookie is 256 random bits, and
// only its SHA-256 is ever kept (in memory for pairing tokens, in the devices table for cookies).
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/** Bytes of randomness in every token and cookie secret: 256 bits, beyond guessing at any rate. */
export const SECRET_BYTES = 32;

/** A fresh secret, URL- and cookie-safe (base64url, 43 chars). */
export function newSecret(): string {
  return randomBytes(SECRET_BYTES).toString("base64url");
}

/** What is stored for a secret: its SHA-256, hex. */
export function hashSecret(secret: string): string {
  return createHash("sha256").update(secret, "utf8").digest("hex");
}

/** A secret as a client sends it: base64url only, so odd bytes never reach a query or a log. */
export function isWellFormedSecret(value: string): boolean {
  return /^[A-Za-z0-9_-]{16,128}$/.test(value);
}

/** Compares two hex hashes in constant time. */
export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, "hex");
  const y = Buffer.from(b, "hex");
  return x.length === y.length && x.length > 0 && timingSafeEqual(x, y);
}
