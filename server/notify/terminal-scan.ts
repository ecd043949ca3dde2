// Reads a terminal's raw output for the notifier: the bells it rings and its plain text. A BEL that
// ends an OSC string (a window title: ESC ] 0 ; title BEL) is a terminator, not a bell, so the scanner
// keeps the escape-sequence state across chunks (ECMA-48: CSI, OSC, DCS/SOS/PM/APC strings). Pure.
//
// A flood is megabytes a second, and its readers keep only its last lines (terminal-watch.ts), so
// output is read in two passes (docs/performance.md, round 7):
// 1. Its state, without text. Only a BEL, an 8-bit OSC or DCS, or an ESC (with intermediates) then
//    ] P X ^ _ can ring a bell or open a string ("signals", found by a regular expression, in native
//    code). In a stretch without signals that starts outside a string, no string opens, and any char
//    of 0x40-0x7e but [ ends whatever sequence was open ("landmarks"): the state after one is ground.
//    So such a stretch is not read char by char: its state at the end is read from its last landmark
//    on. Signals, and the strings they open, are read exactly.
// 2. Its text, only as far back as the last `tail.lines` kept lines go: read from points whose state
//    pass 1 knows (a mark, or right after a landmark), a stretch at a time backwards until they are in.

const GROUND = 0;
const ESC_ = 1;
const CSI = 2;
const STRING = 3;
const STRING_ESC = 4;

const ESC = 0x1b;
const BEL = 0x07;

/** What can ring a bell or open a string: a BEL, 8-bit OSC or DCS, ESC [intermediates] ] P X ^ _. */
const SIGNAL = /\x1b[\x20-\x2f]*[\]PX^_]|[\x07\x90\x9d]/g;

/**
 * Chars of the output's end read for text first, at least; doubled until the tail's lines are in it.
 * The first read is sized from how far back the last tail reached (a flood's lines are alike), so a
 * flood's tail is usually read in one stretch.
 */
export const TAIL_FIRST_CHARS = 16 * 1024;

export interface Scanned {
  /** Bells rung in this chunk. */
  readonly bells: number;
  /** Printable text with "\n" and "\r" kept (every other control and escape removed). */
  readonly text: string;
  /**
   * The text is only the chunk's last lines: what came before it ended with a newline (a reader starts
   * a fresh line) and is pushed out of a reader that keeps `tail.lines` lines by what follows.
   */
  readonly fresh: boolean;
}

/** The lines a reader keeps: its last `lines` newline-ended segments that `kept` accepts (all by default). */
export interface TailWanted {
  readonly lines: number;
  readonly kept?: (segment: string) => boolean;
}

/** Where pass 1 knew the state; `quiet`: no signal from here to the next mark, and not in a string here. */
interface Mark {
  readonly at: number;
  readonly state: number;
  readonly quiet: boolean;
}

/**
 * In a stretch without signals that starts outside a string, any of these ends the sequence that was
 * open (or is text): ground follows. (After an ESC, ] P X ^ _ would open a string: that is a signal.)
 */
function landmark(code: number): boolean {
  return code >= 0x40 && code <= 0x7e && code !== 0x5b;
}

export class TerminalScanner {
  private state = GROUND;
  /** Chars of output the last tail's lines took, about (pass 2 sizes its first read from it). */
  private lastReach = 0;

  /** `tailFirstChars`: a test's few chars make pass 2 read back in many small stretches. */
  constructor(private readonly opts: { tailFirstChars?: number } = {}) {}

  /**
   * Scans output, a chunk or chunks in a row (not joined: a flood's batch is megabytes). With `tail`,
   * the text may be only the last lines (`fresh`): enough for a reader that keeps `tail.lines` lines to
   * end up as it would after all of it.
   */
  scan(output: string | readonly string[], tail?: TailWanted): Scanned {
    const chunks = typeof output === "string" ? [output] : output;
    let bells = 0;
    if (!tail) {
      const runs: string[] = [];
      for (const chunk of chunks) {
        const r = run(chunk, 0, chunk.length, this.state, runs);
        this.state = r.state;
        bells += r.bells;
      }
      return { bells, text: join(runs), fresh: false };
    }
    const scanned: { chunk: string; marks: Mark[] }[] = [];
    for (const chunk of chunks) {
      const r = scanState(chunk, this.state);
      this.state = r.state;
      bells += r.bells;
      scanned.push({ chunk, marks: r.marks });
    }
    const first = Math.max(this.opts.tailFirstChars ?? TAIL_FIRST_CHARS, Math.ceil(this.lastReach * 1.25));
    const { text, fresh, reach } = tailText(scanned, tail, first);
    if (fresh) this.lastReach = reach;
    return { bells, text, fresh };
  }
}

/** Pass 1: bells, the state at the end, and where the state is known. */
function scanState(chunk: string, from: number): { bells: number; marks: Mark[]; state: number } {
  const n = chunk.length;
  const marks: Mark[] = [];
  let bells = 0;
  let state = from;
  let pos = 0;
  while (pos < n) {
    if (state !== GROUND && state !== CSI) {
      // An ESC's next chars may open a string; a string runs to its terminator: read exactly.
      marks.push({ at: pos, state, quiet: false });
      let end = pos;
      while (end < n && state !== GROUND && state !== CSI) state = step(state, chunk.charCodeAt(end++));
      pos = end;
      continue;
    }
    SIGNAL.lastIndex = pos;
    const signal = SIGNAL.exec(chunk);
    const at = signal ? signal.index : n;
    marks.push({ at: pos, state, quiet: true });
    if (at > pos) state = settle(chunk, pos, at, state);
    if (!signal) break;
    // The signal's first char, from the state before it (exactly); what it opens is read above.
    marks.push({ at, state, quiet: false });
    const code = chunk.charCodeAt(at);
    if (state === GROUND && code === BEL) bells++;
    state = step(state, code);
    pos = at + 1;
  }
  return { bells, marks, state };
}

/** The state after chunk[from, to), a stretch without signals that starts outside a string. */
function settle(chunk: string, from: number, to: number, state: number): number {
  for (let i = to - 1; i >= from; i--) if (landmark(chunk.charCodeAt(i))) return run(chunk, i + 1, to, GROUND).state;
  return run(chunk, from, to, state).state;
}

/**
 * Pass 2: the text of the output's end, read backwards a stretch at a time (each from a point whose
 * state pass 1 knows), each stretch once: its lines are counted as it comes, and the text is cut at the
 * newline before the tail's first line (a fresh line); or all of it, with fewer lines.
 */
function tailText(
  scanned: readonly { chunk: string; marks: Mark[] }[],
  tail: TailWanted,
  first: number,
): { text: string; fresh: boolean; reach: number } {
  const kept = tail.kept ?? (() => true);
  /** The text of the stretches read, oldest first. */
  const stretches: string[] = [];
  /** The text before the first newline read so far; undefined until a newline is read. */
  let front: string | undefined;
  let found = 0;
  let read = 0;
  let want = first;
  for (let c = scanned.length - 1; c >= 0; c--) {
    const { chunk, marks } = scanned[c]!;
    for (let to = chunk.length; to > 0; want *= 2) {
      const start = knownAt(chunk, marks, Math.max(0, to - want));
      const text = textOf(chunk, start.at, to, start.state);
      const stretch = to - start.at;
      read += stretch;
      to = start.at;
      stretches.unshift(text);
      let end = text.lastIndexOf("\n");
      if (end === -1) {
        if (front !== undefined) front = text + front;
        continue;
      }
      // A segment that ends at a newline and starts right after one: a line the reader keeps, or not.
      let segment = front === undefined ? undefined : text.slice(end + 1) + front;
      let at = end + 1;
      for (;;) {
        if (segment !== undefined && kept(segment) && ++found === tail.lines) {
          // How far back the tail reached, in output chars: this stretch's share estimated from its text's.
          const reach = read - Math.floor((stretch * at) / text.length);
          return { text: text.slice(at) + stretches.slice(1).join(""), fresh: true, reach };
        }
        if (end === 0) {
          front = "";
          break;
        }
        const before = text.lastIndexOf("\n", end - 1);
        if (before === -1) {
          front = text.slice(0, end);
          break;
        }
        segment = text.slice(before + 1, end);
        at = before + 1;
        end = before;
      }
    }
  }
  return { text: stretches.join(""), fresh: false, reach: read };
}

/** Longest stretch whose text is copied into the scratch arrays below; a longer one is sliced. */
const SCRATCH_MAX_CHARS = 128 * 1024;
/** The kept chars of a stretch, copied one by one: reused from stretch to stretch (one thread). */
let scratch = new Uint16Array(0);
let narrow = Buffer.alloc(0);

/**
 * The text of chunk[from, to) read from `state`, as one string made at once: a flood's stretch has a
 * few runs of text a line, and slicing each then joining them made several times the text's size in
 * garbage, every FEED_MS.
 */
function textOf(chunk: string, from: number, to: number, state: number): string {
  const n = to - from;
  if (n > SCRATCH_MAX_CHARS) {
    const runs: string[] = [];
    run(chunk, from, to, state, runs);
    return join(runs);
  }
  if (scratch.length < n) {
    scratch = new Uint16Array(Math.min(SCRATCH_MAX_CHARS, Math.max(n, scratch.length * 2, 16 * 1024)));
    narrow = Buffer.allocUnsafeSlow(scratch.length);
  }
  let length = 0;
  let wide = false;
  for (let i = from; i < to; i++) {
    const code = chunk.charCodeAt(i);
    if (state === GROUND && isText(code)) {
      scratch[length++] = code;
      if (code > 0xff) wide = true;
    } else {
      state = step(state, code);
    }
  }
  if (wide) return Buffer.from(scratch.buffer, 0, length * 2).toString("ucs2");
  for (let i = 0; i < length; i++) narrow[i] = scratch[i]!;
  return narrow.toString("latin1", 0, length);
}

/** A char that is text in ground: a newline, a carriage return, or printable (no C0, DEL or C1). */
function isText(code: number): boolean {
  return code === 0x0a || code === 0x0d || (code >= 0x20 && code !== 0x7f && !(code >= 0x80 && code < 0xa0));
}

/** A point at or before `at` whose state pass 1 knows: right after a landmark, or a mark. */
function knownAt(chunk: string, marks: readonly Mark[], at: number): { at: number; state: number } {
  let m = marks[0]!;
  for (let i = marks.length - 1; i >= 0; i--) {
    if (marks[i]!.at <= at) {
      m = marks[i]!;
      break;
    }
  }
  if (m.quiet) for (let i = at - 1; i >= m.at; i--) if (landmark(chunk.charCodeAt(i))) return { at: i + 1, state: GROUND };
  return m;
}

function join(runs: string[]): string {
  return runs.length === 1 ? runs[0]! : runs.join("");
}

/** One char through the state machine (bells are counted by the caller: a BEL in ground). */
function step(state: number, code: number): number {
  switch (state) {
    case GROUND:
      if (code === ESC) return ESC_;
      if (code === 0x9b) return CSI; // 8-bit CSI
      if (code === 0x9d || code === 0x90) return STRING; // 8-bit OSC, DCS
      return GROUND; // text, or a control that is dropped
    case ESC_:
      if (code === 0x5b) return CSI; // [
      if (code === 0x5d || code === 0x50 || code === 0x58 || code === 0x5e || code === 0x5f) return STRING; // ] P X ^ _
      if (code >= 0x20 && code <= 0x2f) return ESC_; // intermediates: ESC ( B and the like
      return GROUND;
    case CSI:
      if (code >= 0x40 && code <= 0x7e) return GROUND;
      return code === ESC ? ESC_ : CSI;
    case STRING:
      if (code === BEL || code === 0x9c) return GROUND;
      return code === ESC ? STRING_ESC : STRING;
    default:
      // ESC \ ends the string; any other ESC starts a new sequence.
      return code === 0x5c ? GROUND : code === 0x5b ? CSI : ESC_;
  }
}

/**
 * chunk[from, to) read char by char from `state`: the state after it and its bells, and with `runs` its
 * text as runs of kept chars (slices, not char by char: a flood is megabytes of it).
 */
function run(chunk: string, from: number, to: number, state: number, runs?: string[]): { state: number; bells: number } {
  let bells = 0;
  let runStart = -1;
  for (let i = from; i < to; i++) {
    const code = chunk.charCodeAt(i);
    if (state === GROUND && isText(code)) {
      if (runStart === -1) runStart = i;
      continue;
    }
    if (runStart !== -1) {
      runs?.push(chunk.slice(runStart, i));
      runStart = -1;
    }
    if (state === GROUND && code === BEL) bells++;
    state = step(state, code);
  }
  if (runStart !== -1) runs?.push(chunk.slice(runStart, to));
  return { state, bells };
}
