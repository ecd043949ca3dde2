// Typing that comes before the terminal is attached (the page still connecting, or reconnecting) is held
// here and sent in order once the attach is acknowledged. Sent at once, it would be refused: socket.io
// flushes what was emitted while offline before its "connect" event, so ahead of the attach request,
// and the server takes input only from an attached viewer. Pure, no DOM, no socket.

/** What may wait: a paste's worth. Past it, the oldest held input is kept and the rest dropped. */
export const HELD_INPUT_MAX_CHARS = 256 * 1024;

export class InputGate<T extends { readonly data: string }> {
  private open = false;
  /** Input typed earlier elsewhere is still to come (block/unblock): nothing goes before it. */
  private blocked = false;
  private held: T[] = [];
  private heldChars = 0;

  constructor(private readonly send: (input: T) => void) {}

  /** Sends now when attached, else holds it (up to HELD_INPUT_MAX_CHARS). */
  push(input: T): void {
    if (this.open && !this.blocked) {
      this.send(input);
      return;
    }
    if (this.heldChars + input.data.length > HELD_INPUT_MAX_CHARS) return;
    this.held.push(input);
    this.heldChars += input.data.length;
  }

  /** The attach was acknowledged: what was held goes first, in the order it was typed. */
  attached(): void {
    this.open = true;
    if (!this.blocked) this.flush();
  }

  /** Input typed before this gate existed is still coming (the early keys' worker stopping): hold all. */
  block(): void {
    this.blocked = true;
  }

  /** That input, which goes first, in order; then what was held, once attached. */
  unblock(first: readonly T[]): void {
    if (!this.blocked) return;
    this.blocked = false;
    const later = this.held;
    this.held = [];
    this.heldChars = 0;
    for (const input of [...first, ...later]) this.push(input);
  }

  private flush(): void {
    const held = this.held;
    this.held = [];
    this.heldChars = 0;
    for (const input of held) this.send(input);
  }

  /** The connection dropped: hold typing until the next attach is acknowledged. */
  detached(): void {
    this.open = false;
  }
}
