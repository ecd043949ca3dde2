"use client";
// The terminal keeps every key (Tab and Esc included: agents need them), so one documented key moves
// the focus out of it to the session bar, and back: Alt+T (Option+T on a Mac). Parking a thought
// returns the focus to the terminal too (ParkThought.tsx).
import { useEffect } from "react";

export const FOCUS_SHORTCUT = "Alt+T";
/** Where the learner types to the tutor: xterm's input, or the chat's composer. */
const TUTOR_INPUT = ".terminal-frame .xterm-helper-textarea, .composer textarea";

export function isFocusShortcut(e: Pick<KeyboardEvent, "altKey" | "ctrlKey" | "metaKey" | "code">): boolean {
  return e.altKey && !e.ctrlKey && !e.metaKey && e.code === "KeyT";
}

/** Focuses the tutor's input; false when there is none on the page. */
export function focusTutor(): boolean {
  const input = document.querySelector<HTMLElement>(TUTOR_INPUT);
  input?.focus();
  return !!input;
}

/** Alt+T: from the tutor to the first control of `bar`, from anywhere else back to the tutor. */
export function useFocusSwitch(bar: React.RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!isFocusShortcut(event)) return;
      // Capture phase: the terminal would otherwise send it to the agent.
      event.preventDefault();
      event.stopPropagation();
      const active = document.activeElement;
      const inTutor = active instanceof Element && active.matches(TUTOR_INPUT);
      if (inTutor) bar.current?.querySelector<HTMLElement>("button:not(:disabled), a[href], input")?.focus();
      else focusTutor();
    };
    window.addEventListener("keydown", onKey, true);
    return () => window.removeEventListener("keydown", onKey, true);
  }, [bar]);
}
