// What one client may ask of the realtime layer: how many sockets are open at once (in all, and from
// one address) and how many events one socket may send. Pure: counted here, refused by the caller.
// A storm of connections or events is refused at its edge, so it cannot stall the HTTP API or the
// live session beside it (issue 39; bench/socket-storm.ts measures it).

export const SocketLimits = {
  /** Sockets open at once, in all: a learner has a laptop and a phone, a few tabs each. */
  MAX_SOCKETS: 128,
  /** Sockets open at once from one address (a NAT or a proxy is one address: still many tabs). */
  MAX_SOCKETS_PER_ADDRESS: 48,
  /**
   * Events one socket may send a second, sustained. A page sends a few: keys (a paste is one event),
   * acks of parsed output (one per 50,000 chars: ~100 a second in a flood), resizes, and mouse reports while a program tracks
   * the mouse (about 60 a second while it moves).
   */
  EVENTS_PER_SECOND: 500,
  /** Events one socket may send at once before the rate applies (a page's bursts at attach, a fast mouse). */
  EVENT_BURST: 2_000,
} as const;

/** Counts the sockets open now, per address; admits a new one while both limits allow. */
export class SocketSlots {
  private total = 0;
  private readonly perAddress = new Map<string, number>();

  constructor(
    private readonly maxTotal: number = SocketLimits.MAX_SOCKETS,
    private readonly maxPerAddress: number = SocketLimits.MAX_SOCKETS_PER_ADDRESS,
  ) {}

  /** Takes a slot for `address`, or returns the sentence that refuses it (nothing is taken then). */
  admit(address: string): string | null {
    if (this.total >= this.maxTotal) {
      return `StudyLoop has ${this.total} connections open, its most: close some StudyLoop tabs, then reload this page.`;
    }
    const mine = this.perAddress.get(address) ?? 0;
    if (mine >= this.maxPerAddress) {
      return `This device has ${mine} connections open to StudyLoop, its most: close some StudyLoop tabs, then reload this page.`;
    }
    this.total++;
    this.perAddress.set(address, mine + 1);
    return null;
  }

  release(address: string): void {
    const mine = this.perAddress.get(address);
    if (mine === undefined) return;
    this.total--;
    if (mine <= 1) this.perAddress.delete(address);
    else this.perAddress.set(address, mine - 1);
  }

  get open(): number {
    return this.total;
  }
}

/** A token bucket: one socket's events. `take()` is false once it sends faster than the rate allows. */
export class EventBudget {
  private tokens: number;
  private at: number;

  constructor(
    private readonly perSecond: number = SocketLimits.EVENTS_PER_SECOND,
    private readonly burst: number = SocketLimits.EVENT_BURST,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.tokens = burst;
    this.at = now();
  }

  take(): boolean {
    const now = this.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.at) / 1000) * this.perSecond);
    this.at = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}
