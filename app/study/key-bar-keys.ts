// What the key bar sends: the bytes a real keyboard's key would send to the terminal, and a sticky
// Ctrl that modifies the next key, from the bar or from the phone's own keyboard. Pure, no DOM.

/** The keys on the bar, in order. */
export const BAR_KEYS = [
  "Escape",
  "Tab",
  "Control",
  "Control-C",
  "ArrowLeft",
  "ArrowDown",
  "ArrowUp",
  "ArrowRight",
  "Enter",
  "y",
  "n",
] as const;
export type BarKey = (typeof BAR_KEYS)[number];

const ARROW_FINAL = { ArrowUp: "A", ArrowDown: "B", ArrowRight: "C", ArrowLeft: "D" } as const;

/**
 * An arrow key: CSI in normal mode, SS3 when the program asked for application cursor keys (DECCKM,
 * as vim and less do), and CSI 1;5 with Ctrl, as xterm sends them.
 */
export function arrowSequence(key: keyof typeof ARROW_FINAL, opts: { application: boolean; ctrl: boolean }): string {
  const final = ARROW_FINAL[key];
  if (opts.ctrl) return `\x1b[1;5${final}`;
  return opts.application ? `\x1bO${final}` : `\x1b[${final}`;
}

/** One typed character with Ctrl held: letters and @[\]^_ map to C0 controls, ? to DEL, space to NUL. */
export function withCtrl(data: string): string {
  if (data.length !== 1) return data;
  if (data === " ") return "\x00";
  if (data === "?") return "\x7f";
  const code = data.toUpperCase().charCodeAt(0);
  if (code >= 0x40 && code <= 0x5f) return String.fromCharCode(code & 0x1f);
  return data;
}

export interface KeyTarget {
  send(data: string): void;
  /** Whether the program asked for application cursor keys (xterm's modes.applicationCursorKeysMode). */
  applicationCursor(): boolean;
}

/** The bar's state, shared by the bar (which shows Ctrl armed) and the terminal (whose typing it modifies). */
export class KeyBarKeys {
  private target: KeyTarget | undefined;
  private armed = false;
  private readonly listeners = new Set<() => void>();

  connect(target: KeyTarget): void {
    this.target = target;
  }

  disconnect(): void {
    this.target = undefined;
    this.setArmed(false);
  }

  get ctrlArmed(): boolean {
    return this.armed;
  }

  /** What the terminal itself produced (the phone's keyboard, a paste): a sticky Ctrl applies once. */
  typed(data: string): void {
    if (this.armed) {
      this.setArmed(false);
      data = withCtrl(data);
    }
    this.target?.send(data);
  }

  press(key: BarKey): void {
    if (key === "Control") return this.setArmed(!this.armed);
    const ctrl = this.armed;
    this.setArmed(false);
    this.target?.send(this.sequence(key, ctrl));
  }

  sequence(key: Exclude<BarKey, "Control">, ctrl: boolean): string {
    switch (key) {
      case "Escape":
        return "\x1b";
      case "Tab":
        return "\t";
      case "Enter":
        return "\r";
      case "Control-C":
        return "\x03";
      case "y":
      case "n":
        return ctrl ? withCtrl(key) : key;
      default:
        return arrowSequence(key, { application: this.target?.applicationCursor() ?? false, ctrl });
    }
  }

  /** For React's useSyncExternalStore. */
  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private setArmed(armed: boolean): void {
    if (this.armed === armed) return;
    this.armed = armed;
    for (const listener of this.listeners) listener();
  }
}
