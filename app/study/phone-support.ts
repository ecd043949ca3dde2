// The study page's terminal on a phone: fit it to the part of the screen the on-screen keyboard
// leaves (visualViewport), and come back cleanly from the background (visibilitychange).
import type { StudySocket } from "../components/socket";

/** Below this width, or on a touch screen, the console fills the visible screen height. */
const PHONE_QUERY = "(max-width: 700px), (pointer: coarse)";
/** The terminal never gets shorter than this (px), however little the keyboard leaves. */
const MIN_FRAME_PX = 120;
/**
 * Hidden at least this long (ms), the page reconnects on return: a phone's OS may have dropped the
 * socket without telling it, and waiting for socket.io's heartbeat to notice takes up to a minute.
 */
const RECONNECT_AFTER_HIDDEN_MS = 3_000;

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
      return;
    }
    // Everything in the console but the terminal (its bar, the key bar, the gaps) stays visible too.
    const others = consoleEl.getBoundingClientRect().height - frame.getBoundingClientRect().height;
    const topbar = document.querySelector<HTMLElement>(".topbar")?.getBoundingClientRect().height ?? 0;
    const height = Math.max(MIN_FRAME_PX, Math.floor(viewport.height - topbar - others - 12));
    if (frame.style.height !== `${height}px`) frame.style.height = `${height}px`;
  };
  const schedule = () => {
    if (!queued) queued = requestAnimationFrame(apply);
  };
  // The keyboard opening shrinks the visual viewport: keep the console's bottom (the cursor and the
  // key bar) on screen.
  const onViewportResize = () => {
    schedule();
    if (phone.matches && frame.contains(document.activeElement)) {
      requestAnimationFrame(() => frame.parentElement?.scrollIntoView({ block: "end" }));
    }
  };
  apply();
  viewport?.addEventListener("resize", onViewportResize);
  window.addEventListener("orientationchange", schedule);
  phone.addEventListener("change", schedule);
  return () => {
    if (queued) cancelAnimationFrame(queued);
    viewport?.removeEventListener("resize", onViewportResize);
    window.removeEventListener("orientationchange", schedule);
    phone.removeEventListener("change", schedule);
    frame.style.height = "";
  };
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
    } else if (away >= RECONNECT_AFTER_HIDDEN_MS) {
      socket.disconnect();
      socket.connect();
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
