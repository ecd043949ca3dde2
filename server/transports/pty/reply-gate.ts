// Late answers. The mirror answers a program's terminal queries (DA, CPR, OSC 11...) once it has parsed
// the output that holds them, and parsing lags when the machine is busy. If the program that asked has
// exited by then, its answer lands in the next program's input: the shell runs "rgb:1010/1212/1515" as a
// command. The gate remembers which process group held the terminal when output with a query arrived,
// and lets an answer through only while that group still holds it.
import fs from "node:fs";

/**
 * Queries a terminal answers: DA1/DA2/DA3 (CSI c), DSR and CPR (CSI n), XTVERSION (CSI > q), DECRQM
 * (CSI $ p), kitty keyboard (CSI ? u), XTWINOPS reports (CSI 11/14-21 t), OSC colour queries (OSC n ; ?)
 * and DECRQSS (DCS $ q). Catching a little more than these only costs a /proc read. The lookahead
 * only says what every CSI query has in common (its final is one of these): a flood's colours fail it at
 * once instead of each alternative in turn, which halves the gate's share of the main thread.
 */
export const TERMINAL_QUERY =
  /\x1b(?:\[(?=[>=?\d;]*[cnqtu$])(?:[>=]?[\d;]*c|\??[\d;]*n|>[\d;]*q|\??[\d;]*\$p|\?u|(?:1[14-9]|2[01])(?:;\d*)*t)|\]\d+;(?:\d+;)?\?|P\$q)/;

/** The longest query, so one split across two output chunks is still seen. */
const CARRY_CHARS = 24;

export class ReplyGate {
  private carry = "";
  private asker: number | undefined;

  /** `foregroundGroup`: the process group holding the terminal now, or undefined when unknown. */
  constructor(private readonly foregroundGroup: () => number | undefined) {}

  /** Each output chunk, in order, before the mirror sees it. */
  sawOutput(data: string): void {
    const query = TERMINAL_QUERY.test(data) || (this.carry !== "" && TERMINAL_QUERY.test(this.carry + data.slice(0, CARRY_CHARS)));
    this.carry = data.length >= CARRY_CHARS ? data.slice(-CARRY_CHARS) : (this.carry + data).slice(-CARRY_CHARS);
    if (query) this.asker = this.foregroundGroup();
  }

  /** Whether an answer the mirror gives now may go to the program's input. */
  admits(): boolean {
    if (this.asker === undefined) return true;
    const now = this.foregroundGroup();
    return now === undefined || now === this.asker;
  }
}

/** The foreground process group of the terminal `pid` is in (/proc/<pid>/stat's tpgid), or undefined. */
export function foregroundGroupOf(pid: number): number | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    // After "pid (comm) ": state ppid pgrp session tty_nr tpgid; comm may hold spaces and parentheses.
    const tpgid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[5]);
    return Number.isInteger(tpgid) && tpgid > 0 ? tpgid : undefined;
  } catch {
    return undefined;
  }
}
