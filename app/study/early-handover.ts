// The console's side of the early catcher (early-catcher.ts): takes the keys the HTML's inline script
// caught before the page's scripts ran. Called in the same task that starts the console's own typing
// path, so each key goes one way or the other, never both and never neither. `held` settles once the
// catcher's worker has stopped: the keys it did not send, which the console sends before any other.
import type { EarlyHandover } from "./early-catcher";

const NOTHING: EarlyHandover = { held: Promise.resolve([]), typed: false };

/** The keys caught before hydration and not sent yet, in order, and whether the learner typed. */
export function takeEarlyKeys(): EarlyHandover {
  const w = window as unknown as { __studyloopEarlyKeys?: { handOver(): EarlyHandover } };
  const catcher = w.__studyloopEarlyKeys;
  delete w.__studyloopEarlyKeys;
  return catcher ? catcher.handOver() : NOTHING;
}
