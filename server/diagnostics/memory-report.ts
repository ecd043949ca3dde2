// Where the server's memory is, thread by thread: `kill -USR2 <pid>` prints one line (studyloop-server.ts).
// RSS is the whole process; each isolate (the main thread, every terminal mirror's worker) reports its
// own heap, and what neither accounts for is native: Node and V8 themselves, compiled code, the
// allocator's free pages. bench/server-flood.ts reads this line after each flood.
import { mirrorsMemory } from "../transports/pty/mirror-thread.ts";
import { threadMemory, type ThreadMemory } from "../transports/pty/thread-memory.ts";

/** How the memory report's log line begins; bench/server-flood.ts looks for it. */
export const MEMORY_REPORT_PREFIX = "Memory report (MiB): ";

export interface MemoryReport {
  readonly rss: number;
  readonly main: ThreadMemory;
  readonly mirrors: readonly ThreadMemory[];
}

export async function memoryReport(): Promise<MemoryReport> {
  const mirrors = await mirrorsMemory();
  return { rss: process.memoryUsage.rss(), main: threadMemory(), mirrors };
}

/** One log line: the prefix, then the report as JSON in MiB (one decimal). */
export function formatMemoryReport(report: MemoryReport): string {
  const mib = (bytes: number) => Math.round((bytes / 1048576) * 10) / 10;
  const thread = (t: ThreadMemory) => Object.fromEntries(Object.entries(t).map(([k, v]) => [k, mib(v as number)]));
  return MEMORY_REPORT_PREFIX + JSON.stringify({ rss: mib(report.rss), main: thread(report.main), mirrors: report.mirrors.map(thread) });
}
