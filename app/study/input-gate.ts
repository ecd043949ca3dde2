// Typing that comes before the terminal is attached (the page still connecting, or reconnecting) is held
// here and sent in order once the attach is acknowledged. Sent at once, it would be refused: socket.io
// flushes what was emitted while offline before its "connect" event, so ahead of the attach request,
// and the server takes input only from an attached viewer. Pure, no DOM, no socket.

/** What may wait: a paste's worth. Past it, the oldest held input is kept and the rest dropped. */
export const HELD_INPUT_MAX_CHARS = 256 * 1024;

export class InputGate<T extends { readonly data: string }> {
  private open = false;
  private held: T[] = [];
  private heldChars = 0;

  constructor(private readonly send: (input: T) => void) {}

  /** Sends now when attached, else holds it (up to HELD_INPUT_MAX_CHARS). */
  push(input: T): void {
    if (this.open) {
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
