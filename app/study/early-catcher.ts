// Typing on a reloaded study page before its scripts run. The page hydrates ~450 ms after navigation on
// 2 cores whatever its terminal does (docs/performance.md, round 7), and until then nothing takes keys:
// they were lost. This function runs IN the page's HTML (an inline script with the CSP's nonce,
// `earlyCatcherScript`), before the bundles, and only holds the keys' bytes, in order (the pure table
// early-keys.ts). It sends nothing: the console takes them (early-handover.ts) and sends them first,
// through its own gate, once its attach is acknowledged. A socket of its own was tried and dropped: the
// keys reached the agent no sooner (each of its steps waited behind the bundles' tasks), for a second
// connection, attach and acks (docs/performance/reattach.md, "Round 8").
//
// Self-contained (its source is inlined): plain browser JavaScript, nothing from outside its body.
import type { EarlyKey } from "./early-keys";
import { earlyKeyBytes } from "./early-keys";

export interface EarlyCatcherConfig {
  /** The element whose focus counts as the terminal's (with the page's body). */
  readonly frameId: string;
}

/** What the console takes over (window.__studyloopEarlyKeys.handOver). */
export interface EarlyHandover {
  /** Keys typed, in order. */
  readonly held: string[];
  /** Whether the learner typed at all (typing claims the terminal's size for this device). */
  readonly typed: boolean;
}

export function earlyCatcher(config: EarlyCatcherConfig, keyBytes: (e: EarlyKey) => string | null): void {
  const w = window as unknown as { __studyloopEarlyKeys?: { handOver(): EarlyHandover } };
  /** How long after hydration (app/components/HydrationMarker.tsx) the console may take to come. */
  const HANDOVER_GRACE_MS = 3000;
  const held: string[] = [];
  let over = false;

  const onKey = (e: KeyboardEvent) => {
    const focus = document.activeElement;
    if (over || e.defaultPrevented || (focus && focus !== document.body && !document.getElementById(config.frameId)?.contains(focus)))
      return;
    const data = keyBytes(e);
    if (data === null) return;
    e.preventDefault();
    held.push(data);
  };
  document.addEventListener("keydown", onKey, true);
  const stop = () => {
    over = true;
    document.removeEventListener("keydown", onKey, true);
  };
  // A page that hydrated without a console (the session ended meanwhile) must get its keys back.
  const html = document.documentElement;
  const hydration = new MutationObserver(() => {
    if (!html.hasAttribute("data-hydrated")) return;
    hydration.disconnect();
    setTimeout(() => {
      if (over) return;
      stop();
      held.length = 0;
    }, HANDOVER_GRACE_MS);
  });
  hydration.observe(html, { attributes: true, attributeFilter: ["data-hydrated"] });

  w.__studyloopEarlyKeys = {
    handOver: () => {
      const typed = held.length > 0;
      stop();
      return { held: held.splice(0, held.length), typed };
    },
  };
}

/** The inline script's text: the two functions' own sources, called with this page's settings. */
export function earlyCatcherScript(config: EarlyCatcherConfig): string {
  // "<" escaped: the JSON sits inside a <script> element.
  const settings = JSON.stringify(config).replace(/</g, "\\u003c");
  return `(${earlyCatcher.toString()})(${settings},${earlyKeyBytes.toString()});`;
}
