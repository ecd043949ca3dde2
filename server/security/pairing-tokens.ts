// One-time pairing tokens: random, single use, short-lived, kept in memory as hashes only. A token
// is redeemed once (a second try is refused as "used"); tokens die with the server that printed them.
import { hashSecret, isWellFormedSecret, newSecret } from "./secrets.ts";

export const PairingLimits = {
  /** How long a printed or shown pairing link works (the issue's 10 minutes). */
  DEFAULT_TTL_MS: 10 * 60_000,
  /** Tokens kept at most; the oldest is dropped first, so memory stays bounded. */
  MAX_OUTSTANDING: 100,
  /** An expired or used token is remembered this long (ms) past its expiry, to say why it fails. */
  REMEMBER_AFTER_EXPIRY_MS: 60 * 60_000,
} as const;

export type RedeemResult = { ok: true } | { ok: false; reason: "unknown" | "expired" | "used" };

interface Entry {
  readonly expiresAt: number;
  used: boolean;
}

export class PairingTokens {
  /** By token hash; insertion order is issue order. Dead tokens stay a while, to say "used" or "expired". */
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly ttlMs: number = PairingLimits.DEFAULT_TTL_MS,
    private readonly now: () => number = Date.now,
  ) {}

  issue(): { token: string; expiresAt: Date } {
    this.sweep();
    while (this.entries.size >= PairingLimits.MAX_OUTSTANDING) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
    const token = newSecret();
    const expiresAt = this.now() + this.ttlMs;
    this.entries.set(hashSecret(token), { expiresAt, used: false });
    return { token, expiresAt: new Date(expiresAt) };
  }

  /** Whether a token would be accepted now, without using it (the pairing page shows this first). */
  check(token: string): RedeemResult {
    if (!isWellFormedSecret(token)) return { ok: false, reason: "unknown" };
    const entry = this.entries.get(hashSecret(token));
    if (!entry) return { ok: false, reason: "unknown" };
    if (entry.used) return { ok: false, reason: "used" };
    if (this.now() >= entry.expiresAt) return { ok: false, reason: "expired" };
    return { ok: true };
  }

  /** Uses a token up: only the first redeem of a live token succeeds. */
  redeem(token: string): RedeemResult {
    const verdict = this.check(token);
    if (verdict.ok) this.entries.get(hashSecret(token))!.used = true;
    return verdict;
  }

  /** Tokens that would still be accepted. */
  get outstanding(): number {
    this.sweep();
    const now = this.now();
    return [...this.entries.values()].filter((e) => !e.used && now < e.expiresAt).length;
  }

  private sweep(): void {
    const now = this.now();
    for (const [hash, entry] of this.entries)
      if (now >= entry.expiresAt + PairingLimits.REMEMBER_AFTER_EXPIRY_MS) this.entries.delete(hash);
  }
}
