// Typing on a reloaded study page before its scripts run. The page hydrates ~450 ms after navigation on
// 2 cores whatever its terminal does (docs/performance.md, round 7), and until then nothing takes keys:
// they were lost. This function runs IN the page's HTML (an inline script with the CSP's nonce,
// `earlyCatcherScript`), before the bundles: it maps each key (the pure table early-keys.ts), keeps
// its bytes, in order, and posts them to a dedicated Worker (common/study/early-worker.ts) that sends
// them to the agent on a socket of its own, off this thread (round 8's socket on this thread waited
// behind the bundles' tasks: docs/performance/reattach.md). The console takes over (early-handover.ts):
// the worker stops, says how many keys it sent, and the console sends the rest first, through its gate.
//
// Self-contained (its source is inlined): plain browser JavaScript, nothing from outside its body.
import type { EarlyKey } from "./early-keys";
import { earlyKeyBytes } from "./early-keys";

export interface EarlyCatcherConfig {
  /** The element whose focus counts as the terminal's (with the page's body). */
  readonly frameId: string;
  /** The live session the keys are for. */
  readonly sessionId: string;
  /** The worker's script (EARLY_WORKER_PATH with its hash); none: the keys are only held. */
  readonly workerUrl?: string;
}

/** What the console takes over (window.__studyloopEarlyKeys.handOver). */
export interface EarlyHandover {
  /** Keys typed that the worker did not send, in order: the console sends them first. */
  readonly held: Promise<string[]>;
  /** Whether the learner typed at all (typing claims the terminal's size for this device). */
  readonly typed: boolean;
}

export function earlyCatcher(config: EarlyCatcherConfig, keyBytes: (e: EarlyKey) => string | null): void {
  const w = window as unknown as { __studyloopEarlyKeys?: { handOver(): EarlyHandover } };
  /** How long after hydration (app/components/HydrationMarker.tsx) the console may take to come. */
  const HANDOVER_GRACE_MS = 3000;
  /** How long the console waits for the worker's last acks: past it, what it reported sending counts as sent. */
  const WORKER_GRACE_MS = 2000;
  // Every key typed, in order; the worker sends a prefix of them (`sent` once it is done).
  const held: string[] = [];
  let over = false;
  let worker: Worker | undefined;
  let sent: number | undefined;
  /** Keys the worker has put on its socket so far: they count as sent if it stops answering. */
  let onSocket = 0;
  let whenDone: ((sent: number) => void) | undefined;
  const done = (count: number) => {
    if (sent !== undefined) return;
    sent = count;
    worker?.terminate();
    worker = undefined;
    whenDone?.(count);
  };
  if (config.workerUrl && typeof Worker === "function") {
    try {
      // Its settings in its name (early-worker.ts): it connects without waiting for a message from here.
      const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/socket.io/?EIO=4&transport=websocket`;
      worker = new Worker(config.workerUrl, { name: JSON.stringify({ url, sessionId: config.sessionId }) });
      worker.onmessage = (e: MessageEvent<{ type: "sent" | "done"; sent: number }>) =>
        e.data.type === "done" ? done(e.data.sent) : (onSocket = e.data.sent);
      worker.onerror = () => done(0); // its script did not load or failed: it sent nothing
    } catch {
      done(0);
    }
  } else done(0); // no worker: the keys are only held

  const onKey = (e: KeyboardEvent) => {
    const focus = document.activeElement;
    if (over || e.defaultPrevented || (focus && focus !== document.body && !document.getElementById(config.frameId)?.contains(focus)))
      return;
    const data = keyBytes(e);
    if (data === null) return;
    e.preventDefault();
    held.push(data);
    worker?.postMessage({ type: "key", data });
  };
  document.addEventListener("keydown", onKey, true);
  /** No more keys; the worker sends what it has, then says how many it sent. */
  const stop = (): Promise<number> => {
    over = true;
    document.removeEventListener("keydown", onKey, true);
    if (sent !== undefined) return Promise.resolve(sent);
    return new Promise((resolve) => {
      whenDone = resolve;
      worker?.postMessage({ type: "stop" });
      // Keys it put on its socket may have reached the agent: sent at most once, never twice.
      setTimeout(() => done(onSocket), WORKER_GRACE_MS);
    });
  };
  // A page that hydrated without a console (the session ended meanwhile) must get its keys back.
  const html = document.documentElement;
  const hydration = new MutationObserver(() => {
    if (!html.hasAttribute("data-hydrated")) return;
    hydration.disconnect();
    setTimeout(() => {
      if (over) return;
      void stop();
      held.length = 0;
    }, HANDOVER_GRACE_MS);
  });
  hydration.observe(html, { attributes: true, attributeFilter: ["data-hydrated"] });

  w.__studyloopEarlyKeys = {
    handOver: () => {
      const typed = held.length > 0;
      const keys = held.splice(0, held.length);
      return { held: stop().then((count) => keys.slice(count)), typed };
    },
  };
}

/** The inline script's text: the two functions' own sources, called with this page's settings. */
export function earlyCatcherScript(config: EarlyCatcherConfig): string {
  // "<" escaped: the JSON sits inside a <script> element.
  const settings = JSON.stringify(config).replace(/</g, "\\u003c");
  return `(${earlyCatcher.toString()})(${settings},${earlyKeyBytes.toString()});`;
}
