// V8's young generation on the server's main thread: kept at its first size (1-2 MB) instead of letting
// it double to 16 MB a semi-space (32 MB reserved, mostly slack once start-up is over). The limit
// itself (--max-semi-space-size) is read only when the isolate is made, but the growth factor is read
// at every scavenge, so it can be set here, before the server's modules load, without a second process.
// V8 raises the factor back to at least 2 whenever another isolate is configured (a worker thread:
// each terminal's mirror), so it is set again once each worker is running. Measured in
// docs/performance.md ("Round 5: memory").
import process from "node:process";
import v8 from "node:v8";

/** Each scavenge may grow the young generation by this factor (V8's default 2); 1 keeps its size. */
export const SEMI_SPACE_GROWTH_FACTOR = 1;

export function holdYoungGeneration() {
  const apply = () => v8.setFlagsFromString(`--semi-space-growth-factor=${SEMI_SPACE_GROWTH_FACTOR}`);
  apply();
  process.on("worker", (worker) => worker.once("online", apply));
}
