"use client";
// The live console: xterm.js attached to the session over socket.io, its output, keys and acks on a
// terminal lane beside it when one opens (terminal-lane.ts). Attaching starts with one replay of the
// server's screen; after a short drop it resumes from the last output number seen.
// The page's terminal always has the session's size (the active device's: resize-policy.ts); this page
// reports the size that would fit it, shows the terminal scaled or scrollable when it does not, with a
// cue and "Fit to this screen". It never answers the program's queries (terminal-queries.ts).
import { useEffect, useRef, useState } from "react";
import { Terminal } from "@xterm/xterm";
import { FitAddon } from "@xterm/addon-fit";
import { WebLinksAddon } from "@xterm/addon-web-links";
import "@xterm/xterm/css/xterm.css";
import type { SessionView } from "@/server/sessions/session-view";
import type { TerminalFrameView } from "@/server/realtime/events";
import { FlowControl } from "@/common/terminal/flow-limits";
import { unpackReplay } from "@/common/terminal/replay-unpack";
import { studySocket } from "../components/socket";
import { SessionHeader } from "./SessionHeader";
import { keepAttached, type AttachStatus } from "./keep-attached";
import { followTerminalTheme } from "../components/terminal-theme";
import { KeyBar } from "./KeyBar";
import { KeyBarKeys } from "./key-bar-keys";
import { supportPhone } from "./phone-support";
import { swallowTerminalQueries } from "./terminal-queries";
import { deviceKind, TerminalFitView } from "./terminal-fit-view";
import { AckPacer } from "./ack-pacer";
import { ScreenPreviewView } from "./ScreenPreview";
import type { ScreenPreview } from "@/server/transports/pty/screen-preview";
import { InputGate } from "./input-gate";
import { openTypingStandIn, type TypingStandIn } from "./typing-stand-in";
import { replayPieces } from "./replay-pieces";
import { takeEarlyKeys } from "./early-handover";
import { whenDrawn } from "./starting-hint";
import { StartingHint } from "./StartingHint";
import { TERMINAL_FRAME_ID } from "./terminal-frame-id";
import { attachAgainAfterLane, TerminalLane, type LaneOutcome } from "./terminal-lane";

/** When the server could not send this page the terminal's screen (its "detached" frame). */
const DETACHED_MESSAGE =
  "This page stopped showing the terminal: the server could not copy its screen (its log says why). " +
  "Your session is still running: reload the page to try again.";

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
  const [cue, setCue] = useState<string | null>(null);
  const [drawn, setDrawn] = useState(false);
  const fitHere = useRef<() => void>(() => undefined);
  const focusHere = useRef<() => void>(() => undefined);

  useEffect(() => {
    const element = host.current;
    if (!element || !frame.current) return;
    const options = {
      // A blinking cursor costs every echo one frame: xterm's DOM renderer redraws the cursor's row on
      // the frame after the blink restarts (measured in docs/performance.md).
      cursorBlink: false,
      fontSize: window.innerWidth < 600 ? 12 : 14,
      fontFamily: "ui-monospace, 'DejaVu Sans Mono', Menlo, Consolas, monospace",
      scrollback: 10_000,
    };
    const term = new Terminal(options);
    const stopTheme = followTerminalTheme(term);
    const fit = new FitAddon();
    term.loadAddon(fit);
    term.loadAddon(new WebLinksAddon());
    const stopSwallowing = swallowTerminalQueries(term.parser);
    const stopDrawnWatch = whenDrawn(term, () => setDrawn(true));
    (window as unknown as { __studyloopTerm?: Terminal }).__studyloopTerm = term;
    // Until the first replay is parsed (off the page, twice as fast), a stand-in takes the keys.
    let standIn: TypingStandIn | null = null;

    const socket = studySocket();
    const id = session.id;
    let lastSeq: number | undefined;
    let disposed = false;

    const acks = new AckPacer((chars) => {
      if (!lane.ack(chars)) socket.emit("terminal:ack", { sessionId: id, chars });
    }, FlowControl.ACK_EVERY_CHARS);
    const parsed = (chars: number) => acks.parsed(chars);

    const fitView = new TerminalFitView(element, term, setCue);
    // Whether the server has this page's terminal attached: a size or a fit sent otherwise is refused
    // ("not attached… reload"), so it waits for the attach, which sends the size anyway.
    let attached = false;
    // Claim the terminal's size once attached: typing before hydration, or "Fit to this screen" asked
    // while the page attaches again.
    let claimOnAttach = false;
    // Attached before its replay arrives: the terminal's size (and so the cue) is not known yet.
    const showFit = () => {
      if (lastSeq !== undefined) fitView.show();
    };

    /** Tells the server the size that would fit here; the terminal takes it only on the active device. */
    const sendSize = () => {
      const fits = fitView.measure(standIn?.fit ?? fit);
      if (fits && socket.connected && attached) {
        const dark = window.matchMedia("(prefers-color-scheme: dark)").matches;
        socket.emit("terminal:resize", { sessionId: id, ...fits, device: deviceKind(), dark });
      }
      showFit();
    };
    fitHere.current = () => {
      sendSize();
      if (socket.connected && attached) socket.emit("terminal:fit", { sessionId: id });
      else claimOnAttach = true;
    };

    const onFrame = (sessionId: string, frame: TerminalFrameView) => {
      if (sessionId !== id || disposed) return;
      if (frame.type === "replay" || frame.type === "packed-replay") {
        // Restore at the size the snapshot was taken at: the session's size, whatever fits this page.
        term.reset();
        term.resize(frame.cols, frame.rows);
        fitView.sizedFor = frame.sizedFor;
        const chars = frame.type === "replay" ? frame.data.length : frame.chars;
        // The first replay, off the page, in pieces: xterm.js parses one write in one task, and 10,000
        // lines would hold the page that long. (On an open terminal pieces cost a frame each: whole.)
        const data = frame.type === "replay" ? frame.data : unpackReplay(frame.bytes);
        const pieces = standIn ? replayPieces(data) : [data];
        pieces.forEach((piece, i) =>
          term.write(
            piece,
            i < pieces.length - 1
              ? undefined
              : () => {
                  parsed(chars);
                  showTerminal();
                  showFit();
                  setRestored(true);
                  attachment.restored();
                },
          ),
        );
        lastSeq = frame.seq;
      } else if (frame.type === "output" || frame.type === "output-bytes") {
        if (lastSeq !== undefined && frame.seq <= lastSeq) return;
        lastSeq = frame.seq;
        // Bytes (a large chunk, output-wire.ts): xterm.js parses UTF-8 as it is; acked as the chunk's chars.
        if (frame.type === "output") term.write(frame.data, () => parsed(frame.data.length));
        else term.write(frame.bytes instanceof Uint8Array ? frame.bytes : new Uint8Array(frame.bytes), () => parsed(frame.chars));
      } else if (frame.type === "resize") {
        if (frame.cols !== term.cols || frame.rows !== term.rows) term.resize(frame.cols, frame.rows);
        fitView.sizedFor = frame.sizedFor;
        showFit();
      } else if (frame.type === "detached") {
        // The server could not send this page the screen and let it go. Its mirror may have been made
        // again meanwhile: the attachment tries once more, then says so rather than look live. Typing
        // waits for an attach either way.
        held.detached();
        attached = false;
        attachment.detached(DETACHED_MESSAGE);
      }
    };
    const onTerminalError = (sessionId: string, message: string) => {
      if (sessionId === id) setError(message);
    };

    // Typing before the attach is acknowledged waits for it (input-gate.ts).
    const held = new InputGate<{ data: string; binary?: boolean }>((typed) => {
      if (!lane.input(typed.data, typed.binary === true)) socket.emit("terminal:input", { sessionId: id, ...typed });
    });
    // Keys the page's inline script took before hydration (early-catcher.ts) and its worker did not send
    // go first, ahead of any the console takes from here on (same task), once the attach is acknowledged
    // and the worker has stopped (its keys sent before ours).
    const early = takeEarlyKeys();
    held.block();
    void early.held.then((keys) => held.unblock(keys.map((data) => ({ data }))));
    claimOnAttach = early.typed;
    const letGo = () => {
      attached = false;
      held.detached();
    };
    const onDisconnect = letGo;
    socket.on("disconnect", onDisconnect);
    socket.on("terminal:frame", onFrame);
    socket.on("terminal:error", onTerminalError);
    // The lane closing under a live page (not with its socket): keys wait, and the page attaches again on
    // a new lane (sent on the socket meanwhile, they would be refused and lost).
    const lane = new TerminalLane(id, { frame: (frame) => onFrame(id, frame), dropped: letGo, lost: () => attachment.reattach() });
    let laneOpening: Promise<LaneOutcome> = Promise.resolve("gave-up");
    const attachment = keepAttached(socket, {
      sessionId: id,
      request: (ack) => {
        const socketId = socket.id;
        if (!socketId) return;
        // The lane opens beside the attach request: the server holds the frames until it is open.
        const wanted = lane.worthTrying();
        laneOpening = wanted ? lane.open(socketId) : Promise.resolve("gave-up");
        socket.emit(
          "terminal:attach",
          { sessionId: id, packed: true, binary: true, lane: wanted, ...(lastSeq !== undefined ? { sinceSeq: lastSeq } : {}) },
          ack,
        );
      },
      onAttached: () => {
        // Keys go on the lane once it is open (on the socket if it did not open): never some on each.
        const opening = laneOpening;
        void opening.then(async (outcome) => {
          const current = () => !disposed && opening === laneOpening;
          if (outcome === "never-opened" && current() && (await attachAgainAfterLane(socket, id))) {
            if (!current()) return;
            letGo();
            attachment.reattach();
            return;
          }
          if (current()) held.attached();
        });
        attached = true;
        sendSize();
        // Typing claims the terminal's size for its device (resize-policy.ts): so does typing before hydration.
        if (claimOnAttach) socket.emit("terminal:fit", { sessionId: id });
        claimOnAttach = false;
      },
      setStatus,
      setError,
      onEnded,
    });

    keys.connect({
      send: (data) => held.push({ data }),
      applicationCursor: () => term.modes.applicationCursorKeysMode,
    });
    const typed = (data: string) => keys.typed(data);
    // Mouse reports in the default (X10) encoding: bytes, not text.
    const typedBinary = (data: string) => held.push({ data, binary: true });
    const input = term.onData(typed);
    const binary = term.onBinary(typedBinary);
    standIn = openTypingStandIn(element, options, { typed, binary: typedBinary });
    /** The replay is parsed: the terminal takes the stand-in's place (and its focus). */
    function showTerminal() {
      if (!standIn || disposed) return;
      const focused = standIn.focused();
      standIn.dispose();
      standIn = null;
      term.open(element!);
      if (focused) term.focus();
      sendSize();
    }
    const stopPhone = supportPhone(socket);
    const observer = new ResizeObserver(() => sendSize());
    observer.observe(element);
    standIn.focus();
    focusHere.current = () => (standIn ?? term).focus();

    return () => {
      disposed = true;
      stopTheme();
      acks.dispose();
      observer.disconnect();
      input.dispose();
      binary.dispose();
      stopSwallowing();
      stopDrawnWatch();
      fitHere.current = () => undefined;
      stopPhone();
      keys.disconnect();
      attachment.release();
      lane.close();
      socket.off("terminal:frame", onFrame);
      socket.off("terminal:error", onTerminalError);
      socket.off("disconnect", onDisconnect);
      socket.emit("terminal:detach", { sessionId: id });
      standIn?.dispose();
      fitView.dispose();
      term.dispose();
    };
  }, [session.id, onEnded, keys]);

  return (
    <section className="console" aria-label="Tutor terminal">
      <SessionHeader session={session} status={status} statusTestId="console-status" error={error} onError={setError} onEnded={onEnded} />
      {/* A terminal sized for another device leaves part of the frame empty: a click there focuses it too. */}
      <div
        className="terminal-frame"
        id={TERMINAL_FRAME_ID}
        ref={frame}
        data-testid="terminal"
        onClick={(event) => {
          if (event.target === event.currentTarget || event.target === host.current) focusHere.current();
        }}
      >
        <div className="terminal-host" ref={host} />
        {preview && !restored ? <ScreenPreviewView preview={preview} /> : null}
      </div>
      <StartingHint session={session} drawn={drawn} live={status === "live"} />
      {cue ? (
        <p className="terminal-cue" data-testid="terminal-cue">
          {cue} ·{" "}
          <button type="button" className="link-button" onClick={() => fitHere.current()}>
            Fit to this screen
          </button>
        </p>
      ) : null}
      <KeyBar keys={keys} />
    </section>
  );
}
