"use client";
// The server's clock in the browser: the focus timer is kept by the server, so every device counts
// from the server's time, not its own (a phone's clock can be minutes off).
import { useEffect, useState } from "react";
import { studySocket } from "./socket";

/** Server time minus this device's time, in ms (half the round trip is added to the answer). */
let offsetMs = 0;

function sync(onSynced: () => void): void {
  const socket = studySocket();
  const sent = Date.now();
  socket.emit("clock:sync", (result) => {
    if (!result.ok) return;
    const received = Date.now();
    offsetMs = result.value.now + (received - sent) / 2 - received;
    onSynced();
  });
}

/** The server's time now, refreshed every `everyMs`; null until mounted (so the first render matches the server's HTML). */
export function useServerNow(everyMs = 1_000): number | null {
  const [now, setNow] = useState<number | null>(null);
  useEffect(() => {
    const socket = studySocket();
    const tick = () => setNow(Date.now() + offsetMs);
    const onConnect = () => sync(tick);
    tick();
    socket.on("connect", onConnect);
    if (socket.connected) onConnect();
    const timer = setInterval(tick, everyMs);
    return () => {
      clearInterval(timer);
      socket.off("connect", onConnect);
    };
  }, [everyMs]);
  return now;
}
