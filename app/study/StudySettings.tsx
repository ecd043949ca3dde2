"use client";
// This device's settings in the study panel: the terminal's colours, and break notifications (asked
// for once, from this click: browsers only allow asking from a learner's action).
import { useState, useSyncExternalStore } from "react";
import { THEME_CHOICES, chooseTerminalTheme, onThemeChoice, storedThemeChoice, type ThemeChoice } from "../components/terminal-theme";
import { askForNotifications, notificationsOffered } from "./break-alerts";

const THEME_WORDS: Record<ThemeChoice, string> = { auto: "Like the system", light: "Light", dark: "Dark" };

/** The notification permission changes only by asking, which this component tracks itself. */
const noChange = () => () => {};

export function StudySettings() {
  // This device's choice (the server cannot know it: "auto" until hydrated).
  const theme = useSyncExternalStore(onThemeChoice, storedThemeChoice, () => "auto" as ThemeChoice);
  const offered = useSyncExternalStore(noChange, notificationsOffered, () => false);
  const [asked, setAsked] = useState(false);
  const [notifyNote, setNotifyNote] = useState<string | null>(null);
  const offer = offered && !asked;

  const ask = async () => {
    const allowed = await askForNotifications();
    setAsked(true);
    setNotifyNote(
      allowed
        ? "Breaks will also show as a system notification."
        : "Notifications stay off; breaks still show here and in the tab's title.",
    );
  };

  return (
    <details className="panel settings">
      <summary>This device</summary>
      <div className="stack">
        <div>
          <label htmlFor="terminal-theme">Terminal colours</label>
          <select
            id="terminal-theme"
            value={theme}
            onChange={(e) => {
              chooseTerminalTheme(e.target.value as ThemeChoice);
            }}
          >
            {THEME_CHOICES.map((c) => (
              <option key={c} value={c}>
                {THEME_WORDS[c]}
              </option>
            ))}
          </select>
        </div>
        {offer ? (
          <button type="button" onClick={() => void ask()} data-testid="notify-breaks">
            Notify me of breaks
          </button>
        ) : null}
        {notifyNote ? (
          <p className="muted" role="status">
            {notifyNote}
          </p>
        ) : null}
      </div>
    </details>
  );
}
