// Which CLI (tmux) sessions this tab has opened in the browser, so a reload shows the terminal again
// instead of asking once more. Per tab (sessionStorage): another device or tab still chooses for
// itself, since opening attaches a tmux client that can change the window's size for the learner's
// own terminal.
const KEY = "studyloop.tmux-opened";

export function wasOpenedHere(sessionId: string): boolean {
  try {
    return window.sessionStorage.getItem(KEY) === sessionId;
  } catch {
    return false; // storage disabled: the learner taps "Open in browser" again
  }
}

export function rememberOpenedHere(sessionId: string): void {
  try {
    window.sessionStorage.setItem(KEY, sessionId);
  } catch {
    // Storage full or disabled: a reload asks again, nothing else changes.
  }
}
