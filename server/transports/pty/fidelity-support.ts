// Test helpers for the fidelity suite: a reference terminal (a headless xterm with the mirror's extras,
// as a page that saw the whole stream), a recording's events fed to it and to a TerminalMirror, and a
// snapshot restored into a fresh terminal the way a page restores it. Not part of the server.
import fs from "node:fs";
import path from "node:path";
import headless from "@xterm/headless";
import { TerminalExtras } from "./terminal-extras.ts";
import { DEFAULT_TERMINAL_COLOURS } from "./terminal-colours.ts";
import { readTerminalState, type TerminalState } from "./terminal-state.ts";
import type { MirrorSnapshot, TerminalMirror } from "./terminal-mirror.ts";

const { Terminal } = headless;
type HeadlessTerminal = InstanceType<typeof Terminal>;

/** A recording: output and resizes in the order the terminal saw them (fixtures/recordings/*.json). */
export type RecordedEvent = { readonly o: string } | { readonly r: readonly [number, number] };
export interface Recording {
  readonly name: string;
  readonly cols: number;
  readonly rows: number;
  readonly events: readonly RecordedEvent[];
}

export const RECORDINGS_DIR = path.resolve(import.meta.dirname, "fixtures", "recordings");

export function loadRecordings(): Recording[] {
  if (!fs.existsSync(RECORDINGS_DIR)) return [];
  return fs
    .readdirSync(RECORDINGS_DIR)
    .filter((file) => file.endsWith(".json"))
    .sort()
    .map((file) => JSON.parse(fs.readFileSync(path.join(RECORDINGS_DIR, file), "utf8")) as Recording);
}

export class ReferenceTerminal {
  readonly terminal: HeadlessTerminal;
  readonly extras: TerminalExtras;
  constructor(cols: number, rows: number) {
    this.terminal = new Terminal({ cols, rows, scrollback: 10_000, allowProposedApi: true });
    this.extras = new TerminalExtras(this.terminal, DEFAULT_TERMINAL_COLOURS, () => undefined);
  }
  write(data: string): Promise<void> {
    return new Promise((resolve) => this.terminal.write(data, resolve));
  }
  resize(cols: number, rows: number): void {
    this.terminal.resize(cols, rows);
  }
  async apply(event: RecordedEvent): Promise<void> {
    if ("o" in event) await this.write(event.o);
    else this.resize(event.r[0], event.r[1]);
  }
  state(opts: { scrollback?: boolean } = {}): TerminalState {
    return readTerminalState(this.terminal, this.extras, opts);
  }
  dispose(): void {
    this.extras.dispose();
    this.terminal.dispose();
  }
}

/** Feeds a mirror as TerminalSession does: writes and resizes in order. */
export function feedMirror(mirror: TerminalMirror, event: RecordedEvent): void {
  if ("o" in event) mirror.write(event.o);
  else mirror.resize(event.r[0], event.r[1]);
}

/** A page's restore: a fresh terminal at the snapshot's size, then the snapshot written into it. */
export async function restore(snapshot: MirrorSnapshot): Promise<ReferenceTerminal> {
  const terminal = new ReferenceTerminal(snapshot.cols, snapshot.rows);
  await terminal.write(snapshot.data);
  return terminal;
}
