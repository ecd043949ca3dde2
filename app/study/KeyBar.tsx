"use client";
// The keys a phone's keyboard lacks, under the terminal: Esc, Tab, a sticky Ctrl, arrows, Ctrl-C,
// Enter, y and n. Pressing one does not move the focus, so an open on-screen keyboard stays open.
import { useSyncExternalStore } from "react";
import "./key-bar.css";
import type { BarKey, KeyBarKeys } from "./key-bar-keys";

const LABELS: Record<BarKey, { text: string; name: string }> = {
  Escape: { text: "Esc", name: "Escape" },
  Tab: { text: "Tab", name: "Tab" },
  Control: { text: "Ctrl", name: "Control (applies to the next key)" },
  "Control-C": { text: "^C", name: "Control-C (interrupt)" },
  ArrowLeft: { text: "←", name: "Left arrow" },
  ArrowDown: { text: "↓", name: "Down arrow" },
  ArrowUp: { text: "↑", name: "Up arrow" },
  ArrowRight: { text: "→", name: "Right arrow" },
  Enter: { text: "⏎", name: "Enter" },
  y: { text: "y", name: "y" },
  n: { text: "n", name: "n" },
};

/** Two rows on a phone: keys you answer with on top, keys you move with below. */
const ROWS: readonly (readonly BarKey[])[] = [
  ["Escape", "Tab", "Control", "Control-C", "y", "n"],
  ["ArrowLeft", "ArrowDown", "ArrowUp", "ArrowRight", "Enter"],
];

export function KeyBar({ keys }: { keys: KeyBarKeys }) {
  const armed = useSyncExternalStore(
    keys.subscribe,
    () => keys.ctrlArmed,
    () => false,
  );
  return (
    <div className="key-bar" role="toolbar" aria-label="Terminal keys" data-testid="key-bar">
      {ROWS.map((row, i) => (
        <div className="key-row" key={i}>
          {row.map((key) => (
            <button
              key={key}
              type="button"
              className={key === "Control" && armed ? "key armed" : "key"}
              aria-label={LABELS[key].name}
              aria-pressed={key === "Control" ? armed : undefined}
              // Keep the focus (and the on-screen keyboard) where it is.
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => keys.press(key)}
            >
              {LABELS[key].text}
            </button>
          ))}
        </div>
      ))}
    </div>
  );
}
