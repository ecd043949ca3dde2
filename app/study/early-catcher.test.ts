// The early catcher as the page runs it: its inlined script text, against a fake page. The real page,
// server and Chromium are e2e/early-keys.spec.ts's.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { earlyCatcherScript, type EarlyHandover } from "./early-catcher.ts";

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

function handOver(): EarlyHandover {
  return (window as unknown as { __studyloopEarlyKeys: { handOver(): EarlyHandover } }).__studyloopEarlyKeys.handOver();
}

beforeEach(() => {
  listeners = [];
  focus = body;
  hydrated = false;
  vi.stubGlobal("window", {});
  // Anything that would talk to the network fails the test: the catcher only holds keys.
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
  new Function(earlyCatcherScript({ frameId: "terminal-frame" }))();
});
afterEach(() => {
  expect(WebSocket).not.toHaveBeenCalled();
  expect(fetch).not.toHaveBeenCalled();
  vi.unstubAllGlobals();
});

describe("the early catcher", () => {
  it("holds the keys' bytes in order and hands them over once, taking nothing after", () => {
    expect(press("h").preventDefault).toHaveBeenCalled();
    press("i");
    press("Enter");
    press("c", { ctrlKey: true });
    press("ArrowLeft");
    expect(handOver()).toEqual({ held: ["h", "i", "\r", "\x03", "\x1b[D"], typed: true });
    // Keys after the handover are the console's.
    expect(listeners).toEqual([]);
    expect(press("x").preventDefault).not.toHaveBeenCalled();
    expect(handOver()).toEqual({ held: [], typed: false });
  });

  it("hands over nothing when nothing was typed (the size stays whose it was)", () => {
    press("F5");
    press("Shift", { shiftKey: true });
    expect(handOver()).toEqual({ held: [], typed: false });
  });

  it("leaves keys the page already took, and keys for other fields, alone", () => {
    expect(press("a", { defaultPrevented: true }).preventDefault).not.toHaveBeenCalled();
    focus = "a form field";
    expect(press("q").preventDefault).not.toHaveBeenCalled();
    focus = "inside";
    press("r");
    expect(handOver()).toEqual({ held: ["r"], typed: true });
  });

  it("gives the keys back to the page when no console came after hydration (the session ended meanwhile)", () => {
    vi.useFakeTimers();
    try {
      hydrated = true;
      onMutation();
      expect(press("a").preventDefault).toHaveBeenCalled();
      vi.advanceTimersByTime(3_000);
      expect(press("b").preventDefault).not.toHaveBeenCalled();
      expect(handOver()).toEqual({ held: [], typed: false });
    } finally {
      vi.useRealTimers();
    }
  });
});
