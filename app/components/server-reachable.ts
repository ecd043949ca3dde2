"use client";
// Whether this page can reach the StudyLoop server, shared by every component of the page. A drop
// shorter than AWAY_AFTER_MS is a blip (socket.io reconnects on its own); longer, the page says so,
// stops counting and stops taking input until the server is back and has said what happened.
import { useSyncExternalStore } from "react";
import { studySocket } from "./socket";

/** How long the socket may be down before the page says the server is not reachable. */
export const AWAY_AFTER_MS = 3_000;
/** How often a page retries after the server closed the connection itself (a clean stop). */
const RETRY_AFTER_CLOSE_MS = 2_000;

export interface Reachability {
  /** Not reachable for AWAY_AFTER_MS or more. */
  readonly away: boolean;
  /** When the connection was lost (ms since the epoch), while it is lost. */
  readonly since: number | null;
}

const REACHABLE: Reachability = { away: false, since: null };
let current: Reachability = REACHABLE;
const listeners = new Set<() => void>();
let watching = false;
let awayTimer: ReturnType<typeof setTimeout> | undefined;
let retryTimer: ReturnType<typeof setInterval> | undefined;

function set(next: Reachability): void {
  if (next.away === current.away && next.since === current.since) return;
  current = next;
  for (const listener of listeners) listener();
}

function lost(): void {
  if (current.since !== null) return;
  const since = Date.now();
  set({ away: false, since });
  clearTimeout(awayTimer);
  awayTimer = setTimeout(() => {
    if (current.since === since) set({ away: true, since });
  }, AWAY_AFTER_MS);
}

function watch(): void {
  if (watching || typeof window === "undefined") return;
  watching = true;
  const socket = studySocket();
  socket.on("connect", () => {
    clearTimeout(awayTimer);
    clearInterval(retryTimer);
    retryTimer = undefined;
    set(REACHABLE);
  });
  socket.on("connect_error", lost);
  socket.on("disconnect", (reason) => {
    lost();
    // A server that stops cleanly closes the connection itself, and socket.io then waits for the
    // page to reconnect by hand: keep trying, so the page learns when the server is back.
    if (reason === "io server disconnect" && !retryTimer) {
      retryTimer = setInterval(() => {
        if (!socket.connected) socket.connect();
      }, RETRY_AFTER_CLOSE_MS);
    }
  });
  if (!socket.connected && socket.disconnected && !socket.active) lost();
}

function subscribe(listener: () => void): () => void {
  watch();
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** This page's view of the server: reachable, or away since when. Reachable during server rendering. */
export function useServerReachable(): Reachability {
  return useSyncExternalStore(
    subscribe,
    () => current,
    () => REACHABLE,
  );
}

/** "10:42": the time the server was last reachable, for the sentence that says so. */
export function clockOf(ms: number): string {
  return new Date(ms).toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit" });
}
