// Gives the memory glibc's allocator holds free back to the system: once when the first pages have been
// rendered, then whenever the process has grown and then settled. glibc returns freed memory only from
// the top of a heap, so the scratch memory V8's optimizing compiler frees during start-up stays
// resident behind one long-lived block in about half of all starts (15-25 MiB; docs/performance/memory.md,
// "Round 15"). The call is native (native/malloc-trim) and runs off the event loop; where the addon
// cannot load, nothing is trimmed.
import { createRequire } from "node:module";
import path from "node:path";
import { PROJECT_ROOT } from "../config/paths.ts";

export const MemoryTrimLimits = {
  /** Milliseconds between looks at the resident size. */
  CHECK_MS: 2_000,
  /** Bytes the resident size must have grown since the last trim: each trim costs page faults later. */
  GROWTH_BYTES: 8 * 1024 * 1024,
  /**
   * Bytes the resident size may move between two looks and still count as settled. While output floods
   * in, a trim gives back next to nothing (measured: 1 MiB of 165) and costs milliseconds; afterwards,
   * several MiB.
   */
  SETTLED_BYTES: 1024 * 1024,
} as const;

/** Whether to trim now: grown by GROWTH_BYTES since the last trim left it, and not moving any more. */
export function trimDue(rss: { now: number; lastLook: number; afterLastTrim: number }): boolean {
  return rss.now - rss.afterLastTrim >= MemoryTrimLimits.GROWTH_BYTES && Math.abs(rss.now - rss.lastLook) < MemoryTrimLimits.SETTLED_BYTES;
}

export type Trim = () => Promise<boolean>;

/** The addon's trim(), or undefined where it is not built. */
export function loadTrim(root: string = PROJECT_ROOT): Trim | undefined {
  try {
    const addon = createRequire(import.meta.url)(path.join(root, "native", "malloc-trim")) as { trim?: Trim };
    return typeof addon.trim === "function" ? addon.trim : undefined;
  } catch {
    return undefined;
  }
}

export class MemoryTrimmer {
  private afterLastTrim = Number.POSITIVE_INFINITY;
  private lastLook = 0;
  private trimming = false;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly trim: Trim,
    private readonly rss: () => number = () => process.memoryUsage.rss(),
  ) {}

  /** Trims now, then looks every CHECK_MS. */
  start(): void {
    if (this.stopped || this.timer) return;
    void this.trimNow();
    this.timer = setInterval(() => this.look(), MemoryTrimLimits.CHECK_MS).unref();
  }

  stop(): void {
    this.stopped = true;
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private look(): void {
    const now = this.rss();
    const due = !this.trimming && trimDue({ now, lastLook: this.lastLook, afterLastTrim: this.afterLastTrim });
    this.lastLook = now;
    if (due) void this.trimNow();
  }

  private async trimNow(): Promise<void> {
    this.trimming = true;
    try {
      await this.trim();
    } catch {
      // Nothing was given back; the next growth tries again.
    } finally {
      this.trimming = false;
      this.afterLastTrim = this.lastLook = this.rss();
    }
  }
}
