"use client";
// A saved transcript, read-only: replayed into an xterm that accepts no input.
import { useEffect, useRef, useState } from "react";
import { Terminal } from "@xterm/xterm";
import { FitAddon } from "@xterm/addon-fit";
import "@xterm/xterm/css/xterm.css";
import { terminalTheme } from "../../components/terminal-theme";
import { PassageCard } from "../../review/PassageCard";

export function TranscriptView({ transcript, card }: { transcript: string; card?: { sessionId: string; topic: string } }) {
  const host = useRef<HTMLDivElement>(null);
  const [selected, setSelected] = useState("");
  useEffect(() => {
    if (!host.current) return;
    const term = new Terminal({
      disableStdin: true,
      scrollback: 10_000,
      fontSize: window.innerWidth < 600 ? 12 : 14,
      theme: terminalTheme(window.matchMedia("(prefers-color-scheme: dark)").matches),
    });
    const fit = new FitAddon();
    term.loadAddon(fit);
    term.open(host.current);
    fit.fit();
    term.write(transcript);
    term.onSelectionChange(() => setSelected(term.getSelection()));
    return () => term.dispose();
  }, [transcript]);
  return (
    <>
      <div className="terminal-frame transcript" ref={host} data-testid="transcript" />
      {card ? <PassageCard sessionId={card.sessionId} topic={card.topic} text={selected} /> : null}
    </>
  );
}
