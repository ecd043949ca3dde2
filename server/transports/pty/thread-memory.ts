// One thread's memory as its own isolate sees it, for the memory report (diagnostics/memory-report.ts):
// the main thread and each terminal mirror's worker (mirror-worker.ts posts its own, as only it can
// read it).
// Plain data, so it crosses postMessage as it is.
import v8 from "node:v8";

export interface ThreadMemory {
  /** JavaScript heap in use and reserved (all spaces), bytes. */
  readonly heapUsed: number;
  readonly heapTotal: number;
  /** The young generation's reserved size: slack the flood's garbage passes through. */
  readonly newSpace: number;
  /** Memory outside the heap that this isolate's objects hold (Buffers, typed arrays' stores). */
  readonly external: number;
  readonly arrayBuffers: number;
}

export function threadMemory(): ThreadMemory {
  const usage = process.memoryUsage();
  const newSpace = v8.getHeapSpaceStatistics().find((s) => s.space_name === "new_space")?.space_size ?? 0;
  return {
    heapUsed: usage.heapUsed,
    heapTotal: usage.heapTotal,
    newSpace,
    external: usage.external,
    arrayBuffers: usage.arrayBuffers,
  };
}
