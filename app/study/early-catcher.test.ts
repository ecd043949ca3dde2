// The early catcher as the page runs it: its inlined script text, against a fake page and a fake
// Worker (the worker's own side: common/study/early-worker.test.ts). The real page, server, worker and
// Chromium are e2e/early-keys.spec.ts's.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { earlyCatcherScript, type EarlyCatcherConfig, type EarlyHandover } from "./early-catcher.ts";

/** The catcher's worker: what the page posted to it, and a way to answer. */
class FakeWorker {
  static made: FakeWorker[] = [];
  readonly posted: unknown[] = [];
  onmessage: ((e: { data: unknown }) => void) | null = null;
  onerror: (() => void) | null = null;
  terminated = false;
  constructor(
    readonly url: string,
    readonly options: { name: string },
  ) {
    FakeWorker.made.push(this);
  }
  postMessage(message: unknown) {
    this.posted.push(message);
  }
  terminate() {
    this.terminated = true;
  }
  /** The keys it was given, in order. */
  keys() {
    return this.posted.filter((m) => (m as { type: string }).type === "key").map((m) => (m as { data: string }).data);
  }
}

let listeners: ((e: unknown) => void)[] = [];
let hydrated = false;
let onMutation: () => void = () => undefined;
const body = { tagName: "BODY" };
let focus: unknown = body;

function press(key: string, mods: Record<string, boolean> = {}) {
  const event = {
    key,
    ctrlKey: false,
    altKey: false,
    metaKey: false,
    shiftKey: false,
    defaultPrevented: false,
    ...mods,
    preventDefault: vi.fn(),
  };
  for (const listener of listeners) listener(event);
  return event;
}

function handOverNow(): EarlyHandover {
  return (window as unknown as { __studyloopEarlyKeys: { handOver(): EarlyHandover } }).__studyloopEarlyKeys.handOver();
}

async function handOver(): Promise<{ held: string[]; typed: boolean }> {
  const { held, typed } = handOverNow();
  return { held: await held, typed };
}

function run(config: Partial<EarlyCatcherConfig> = {}) {
  new Function(earlyCatcherScript({ frameId: "terminal-frame", sessionId: "s1", ...config }))();
}

beforeEach(() => {
  listeners = [];
  focus = body;
  hydrated = false;
  vi.stubGlobal("window", {});
  vi.stubGlobal("location", { protocol: "http:", host: "127.0.0.1:3000" });
  FakeWorker.made = [];
  vi.stubGlobal("Worker", FakeWorker);
  // Anything on this thread that would talk to the network fails the test: only the worker does.
  vi.stubGlobal("WebSocket", vi.fn());
  vi.stubGlobal("fetch", vi.fn());
  vi.stubGlobal(
    "MutationObserver",
    class {
      constructor(callback: () => void) {
        onMutation = callback;
      }
      observe() {}
      disconnect() {}
    },
  );
  vi.stubGlobal("document", {
    body,
    documentElement: { hasAttribute: () => hydrated },
    get activeElement() {
      return focus;
    },
    getElementById: () => ({ contains: (el: unknown) => el === "inside" }),
    addEventListener: (_: string, l: (e: unknown) => void) => listeners.push(l),
    removeEventListener: (_: string, l: (e: unknown) => void) => (listeners = listeners.filter((x) => x !== l)),
  });
});
afterEach(() => {
  expect(WebSocket).not.toHaveBeenCalled();
  expect(fetch).not.toHaveBeenCalled();
  vi.unstubAllGlobals();
});

describe("the early catcher without a worker", () => {
  beforeEach(() => run());

  it("holds the keys' bytes in order and hands them over once, taking nothing after", async () => {
    expect(press("h").preventDefault).toHaveBeenCalled();
    press("i");
    press("Enter");
    press("c", { ctrlKey: true });
    press("ArrowLeft");
    expect(await handOver()).toEqual({ held: ["h", "i", "\r", "\x03", "\x1b[D"], typed: true });
    // Keys after the handover are the console's.
    expect(listeners).toEqual([]);
    expect(press("x").preventDefault).not.toHaveBeenCalled();
    expect(await handOver()).toEqual({ held: [], typed: false });
  });

  it("hands over nothing when nothing was typed (the size stays whose it was)", async () => {
    press("F5");
    press("Shift", { shiftKey: true });
    expect(await handOver()).toEqual({ held: [], typed: false });
  });

  it("leaves keys the page already took, and keys for other fields, alone", async () => {
    expect(press("a", { defaultPrevented: true }).preventDefault).not.toHaveBeenCalled();
    focus = "a form field";
    expect(press("q").preventDefault).not.toHaveBeenCalled();
    focus = "inside";
    press("r");
    expect(await handOver()).toEqual({ held: ["r"], typed: true });
  });

  it("gives the keys back to the page when no console came after hydration (the session ended meanwhile)", async () => {
    vi.useFakeTimers();
    try {
      hydrated = true;
      onMutation();
      expect(press("a").preventDefault).toHaveBeenCalled();
      vi.advanceTimersByTime(3_000);
      expect(press("b").preventDefault).not.toHaveBeenCalled();
      expect(await handOver()).toEqual({ held: [], typed: false });
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("the early catcher with its worker", () => {
  beforeEach(() => run({ workerUrl: "/early-keys-worker.js?v=1" }));

  it("starts the worker, named with this page's socket.io endpoint and session, and posts it each key, in order", () => {
    const [worker] = FakeWorker.made;
    expect(worker!.url).toBe("/early-keys-worker.js?v=1");
    expect(JSON.parse(worker!.options.name)).toEqual({ url: "ws://127.0.0.1:3000/socket.io/?EIO=4&transport=websocket", sessionId: "s1" });
    press("h");
    press("Enter");
    expect(worker!.keys()).toEqual(["h", "\r"]);
  });

  it("on handover, stops the worker and gives back only the keys it did not send", async () => {
    const [worker] = FakeWorker.made;
    for (const key of "abcd") press(key);
    const { held, typed } = handOverNow();
    expect(typed).toBe(true);
    expect(worker!.posted.at(-1)).toEqual({ type: "stop" });
    // Keys after the handover are the console's, not the worker's.
    expect(press("x").preventDefault).not.toHaveBeenCalled();
    expect(worker!.keys()).toEqual(["a", "b", "c", "d"]);
    worker!.onmessage!({ data: { type: "done", sent: 3 } });
    expect(await held).toEqual(["d"]);
    expect(worker!.terminated).toBe(true);
  });

  it("once the worker is done (its socket closed, its attach refused), holds later keys itself", async () => {
    const [worker] = FakeWorker.made;
    press("a");
    worker!.onmessage!({ data: { type: "done", sent: 1 } });
    press("b");
    press("c");
    expect(worker!.keys()).toEqual(["a"]);
    expect(await handOver()).toEqual({ held: ["b", "c"], typed: true });
  });

  it("a worker that did not load sent nothing: every key is handed over", async () => {
    const [worker] = FakeWorker.made;
    press("a");
    worker!.onerror!();
    press("b");
    expect(await handOver()).toEqual({ held: ["a", "b"], typed: true });
  });

  it("a worker that does not answer the handover in 2 s: what it put on its socket counts as sent, the rest is handed over", async () => {
    vi.useFakeTimers();
    try {
      const [worker] = FakeWorker.made;
      press("a");
      press("b");
      press("c");
      worker!.onmessage!({ data: { type: "sent", sent: 1 } });
      worker!.onmessage!({ data: { type: "sent", sent: 2 } });
      const { held } = handOverNow();
      vi.advanceTimersByTime(2_000);
      expect(await held).toEqual(["c"]);
      expect(worker!.terminated).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });
});
