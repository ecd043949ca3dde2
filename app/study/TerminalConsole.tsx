"use client";
// The live console: xterm.js attached to the session over socket.io. Attaching starts with one
// replay of the server's screen; after a short drop it resumes from the last output number seen.
import { useEffect, useRef, useState } from "react";
import { Terminal } from "@xterm/xterm";
import { FitAddon } from "@xterm/addon-fit";
import { WebLinksAddon } from "@xterm/addon-web-links";
import "@xterm/xterm/css/xterm.css";
import type { SessionView } from "@/server/sessions/session-view";
import type { TerminalFrameView } from "@/server/realtime/events";
import { FlowControl } from "@/server/transports/pty/flow-control";
import { studySocket } from "../components/socket";
import { SessionHeader } from "./SessionHeader";
import { keepAttached, type AttachStatus } from "./keep-attached";
import { followTerminalTheme } from "../components/terminal-theme";
import { KeyBar } from "./KeyBar";
import { KeyBarKeys } from "./key-bar-keys";
import { supportPhone } from "./phone-support";
import { ScreenPreviewView } from "./ScreenPreview";
import type { ScreenPreview } from "@/server/transports/pty/screen-preview";


export function TerminalConsole({
  session,
  preview = null,
  onEnded,
}: {
  session: SessionView;
  /** The screen as the server saw it when it rendered the page: shown until the replay is on screen. */
  preview?: ScreenPreview | null;
  onEnded: (view: SessionView) => void;
}) {
  const frame = useRef<HTMLDivElement>(null);
  const host = useRef<HTMLDivElement>(null);
  const [restored, setRestored] = useState(false);
  const [status, setStatus] = useState<AttachStatus>("connecting");
  const [error, setError] = useState<string | null>(null);
  const [keys] = useState(() => new KeyBarKeys());

  useEffect(() => {
    const element = host.current;
    if (!element || !frame.current) return;
    const term = new Terminal({
      // A blinking cursor costs every echo one frame: xterm's DOM renderer redraws the cursor's row on
      // the frame after the blink restarts (measured in docs/performance.md).
      cursorBlink: false,
      fontSize: window.innerWidth < 600 ? 12 : 14,
      fontFamily: "ui-monospace, 'DejaVu Sans Mono', Menlo, Consolas, monospace",
      scrollback: 10_000,
    });
    const stopTheme = followTerminalTheme(term);
    const fit = new FitAddon();
    term.loadAddon(fit);
    term.loadAddon(new WebLinksAddon());
    term.open(element);
    (window as unknown as { __studyloopTerm?: Terminal }).__studyloopTerm = term;

    const socket = studySocket();
    const id = session.id;
    let lastSeq: number | undefined;
    let unacked = 0;
    let disposed = false;

    const sendAck = () => {
      if (unacked > 0) socket.emit("terminal:ack", { sessionId: id, chars: unacked });
      unacked = 0;
    };
    const parsed = (chars: number) => {
      unacked += chars;
      if (unacked >= FlowControl.ACK_EVERY_CHARS) sendAck();
    };
    const ackTimer = setInterval(sendAck, 100);

    const sendSize = () => {
      try {
        fit.fit();
      } catch {
        return;
      }
      if (socket.connected) socket.emit("terminal:resize", { sessionId: id, cols: term.cols, rows: term.rows });
    };

    const onFrame = (sessionId: string, frame: TerminalFrameView) => {
      if (sessionId !== id || disposed) return;
      if (frame.type === "replay") {
        // Restore at the size the snapshot was taken at, then fit to this screen.
        term.reset();
        term.resize(frame.cols, frame.rows);
        term.write(frame.data, () => {
          parsed(frame.data.length);
          sendSize();
          setRestored(true);
        });
        lastSeq = frame.seq;
      } else if (frame.type === "output") {
        if (lastSeq !== undefined && frame.seq <= lastSeq) return;
        lastSeq = frame.seq;
        term.write(frame.data, () => parsed(frame.data.length));
      } else if (frame.type === "resize") {
        if (frame.cols !== term.cols || frame.rows !== term.rows) term.resize(frame.cols, frame.rows);
      }
    };
    const onTerminalError = (sessionId: string, message: string) => {
      if (sessionId === id) setError(message);
    };

    socket.on("terminal:frame", onFrame);
    socket.on("terminal:error", onTerminalError);
    const release = keepAttached(socket, {
      sessionId: id,
      request: (ack) => socket.emit("terminal:attach", { sessionId: id, ...(lastSeq !== undefined ? { sinceSeq: lastSeq } : {}) }, ack),
      onAttached: sendSize,
      setStatus,
      setError,
      onEnded,
    });

    keys.connect({
      send: (data) => socket.emit("terminal:input", { sessionId: id, data }),
      applicationCursor: () => term.modes.applicationCursorKeysMode,
    });
    const input = term.onData((data) => keys.typed(data));
    const stopPhone = supportPhone(frame.current, socket);
    const observer = new ResizeObserver(() => sendSize());
    observer.observe(element);
    term.focus();

    return () => {
      disposed = true;
      stopTheme();
      clearInterval(ackTimer);
      observer.disconnect();
      input.dispose();
      stopPhone();
      keys.disconnect();
      release();
      socket.off("terminal:frame", onFrame);
      socket.off("terminal:error", onTerminalError);
      socket.emit("terminal:detach", { sessionId: id });
      term.dispose();
    };
  }, [session.id, onEnded]);

  return (
    <section className="console" aria-label="Tutor terminal">
      <SessionHeader session={session} status={status} statusTestId="console-status" error={error} onError={setError} onEnded={onEnded} />
      <div className="terminal-frame" ref={frame} data-testid="terminal">
        <div className="terminal-host" ref={host} />
        {preview && !restored ? <ScreenPreviewView preview={preview} /> : null}
      </div>
      <KeyBar keys={keys} />
    </section>
  );
}
