// The study page's terminal on a phone: fit it to the part of the screen the on-screen keyboard
// leaves (visualViewport), and come back cleanly from the background (visibilitychange).
import type { StudySocket } from "../components/socket";

/** Below this width, or on a touch screen, the console fills the visible screen height. */
export const PHONE_QUERY = "(max-width: 700px), (pointer: coarse)";
/** Elements that may be fixed to the bottom of the screen over the page (app/study/ParkThought.tsx). */
const BOTTOM_DOCKS = ".park-dock";
/** The terminal never gets shorter than this (px), however little the keyboard leaves. */
const MIN_FRAME_PX = 120;
/**
 * Hidden at least this long (ms), the page checks its socket on return: a phone's OS may have dropped
 * it without telling it, and waiting for socket.io's heartbeat to notice takes up to a minute.
 */
const PROBE_AFTER_HIDDEN_MS = 3_000;
/** A live server answers the probe in milliseconds; no answer in this long (ms) means a dead socket. */
const PROBE_TIMEOUT_MS = 2_500;

/** Starts fitting `frame` and watching the page's lifecycle; returns a function that stops both. */
export function supportPhone(frame: HTMLElement, socket: StudySocket): () => void {
  const stopFit = fitToVisualViewport(frame);
  const stopLifecycle = resumeFromBackground(socket);
  return () => {
    stopFit();
    stopLifecycle();
  };
}

function fitToVisualViewport(frame: HTMLElement): () => void {
  const phone = window.matchMedia(PHONE_QUERY);
  const viewport = window.visualViewport;
  let queued = 0;
  const apply = () => {
    queued = 0;
    const consoleEl = frame.parentElement;
    if (!phone.matches || !viewport || !consoleEl) {
      frame.style.height = "";
      frame.style.minHeight = "";
      return;
    }
    // Everything in the console but the terminal (its bar, the key bar, the gaps) stays visible too.
    const others = consoleEl.getBoundingClientRect().height - frame.getBoundingClientRect().height;
    // A sticky header stays on screen above the console; one that scrolls away (phones) does not.
    const header = document.querySelector<HTMLElement>(".topbar");
    const topbar = header && getComputedStyle(header).position === "sticky" ? header.getBoundingClientRect().height : 0;
    const height = Math.max(MIN_FRAME_PX, Math.floor(viewport.height - topbar - others - bottomDockOverlap(viewport) - 12));
    // The stylesheet's min-height is for desktops; here the visible screen decides.
    frame.style.minHeight = `${MIN_FRAME_PX}px`;
    if (frame.style.height !== `${height}px`) frame.style.height = `${height}px`;
  };
  const schedule = () => {
    if (!queued) queued = requestAnimationFrame(apply);
  };
  // Typing in the terminal (a tap focuses it, and opens the keyboard): the console, sized to the
  // visible screen, is scrolled to its top so the terminal, the cursor and the key bar are all in view.
  const reveal = () => {
    if (phone.matches) requestAnimationFrame(() => frame.parentElement?.scrollIntoView({ block: "start" }));
  };
  const onViewportResize = () => {
    schedule();
    if (frame.contains(document.activeElement)) reveal();
  };
  apply();
  frame.addEventListener("focusin", reveal);
  viewport?.addEventListener("resize", onViewportResize);
  window.addEventListener("orientationchange", schedule);
  phone.addEventListener("change", schedule);
  return () => {
    if (queued) cancelAnimationFrame(queued);
    frame.removeEventListener("focusin", reveal);
    viewport?.removeEventListener("resize", onViewportResize);
    window.removeEventListener("orientationchange", schedule);
    phone.removeEventListener("change", schedule);
    frame.style.height = "";
    frame.style.minHeight = "";
  };
}

/**
 * How much of the visible screen a dock fixed to the bottom (the study page's "Park a thought") covers:
 * its height while the keyboard is closed, nothing once the keyboard hides it.
 */
function bottomDockOverlap(viewport: VisualViewport): number {
  let overlap = 0;
  for (const dock of document.querySelectorAll<HTMLElement>(BOTTOM_DOCKS)) {
    if (getComputedStyle(dock).position !== "fixed") continue;
    const visibleBottom = viewport.offsetTop + viewport.height;
    overlap = Math.max(overlap, visibleBottom - dock.getBoundingClientRect().top);
  }
  return Math.max(0, overlap);
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
