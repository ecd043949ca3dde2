// The study page's terminal on a phone: come back cleanly from the background (visibilitychange,
// the back/forward cache).
import type { StudySocket } from "../components/socket";

/** Below this width, or on a touch screen, the page is a phone's (the key bar, the device kind). */
export const PHONE_QUERY = "(max-width: 700px), (pointer: coarse)";
/**
 * Hidden at least this long (ms), the page checks its socket on return: a phone's OS may have dropped
 * it without telling it, and waiting for socket.io's heartbeat to notice takes up to a minute.
 */
const PROBE_AFTER_HIDDEN_MS = 3_000;
/** A live server answers the probe in milliseconds; no answer in this long (ms) means a dead socket. */
const PROBE_TIMEOUT_MS = 2_500;

/**
 * Watches the page's lifecycle on a phone; returns a function that stops. The terminal's size is the
 * stylesheet's alone (the study room is as tall as the visual viewport: visual-viewport.ts).
 */
export function supportPhone(socket: StudySocket): () => void {
  return resumeFromBackground(socket);
}

function resumeFromBackground(socket: StudySocket): () => void {
  let hiddenAt: number | undefined = document.visibilityState === "hidden" ? Date.now() : undefined;
  const onVisibility = () => {
    if (document.visibilityState === "hidden") {
      hiddenAt = Date.now();
      return;
    }
    const away = hiddenAt === undefined ? 0 : Date.now() - hiddenAt;
    hiddenAt = undefined;
    if (!socket.connected) {
      // Reconnect now rather than after socket.io's back-off; the console re-attaches on "connect"
      // from the last output number it saw.
      socket.connect();
    } else if (away >= PROBE_AFTER_HIDDEN_MS) {
      // Ask before tearing down: a healthy socket is shared by the notifications and the study loop,
      // and reconnecting it would drop their registrations (and any answer in flight) for nothing.
      socket.timeout(PROBE_TIMEOUT_MS).emit("clock:sync", (error: Error | null) => {
        if (!error || !socket.connected) return;
        socket.disconnect();
        socket.connect();
      });
    }
  };
  // Back from the back/forward cache: the page's socket was closed while it sat there.
  const onPageShow = (event: PageTransitionEvent) => {
    if (event.persisted && !socket.connected) socket.connect();
  };
  document.addEventListener("visibilitychange", onVisibility);
  window.addEventListener("pageshow", onPageShow);
  return () => {
    document.removeEventListener("visibilitychange", onVisibility);
    window.removeEventListener("pageshow", onPageShow);
  };
}
