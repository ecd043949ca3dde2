"use client";
// A saved transcript, read-only: replayed into an xterm that accepts no input.
import { useEffect, useRef } from "react";
import { Terminal } from "@xterm/xterm";
import { FitAddon } from "@xterm/addon-fit";
import "@xterm/xterm/css/xterm.css";
import { terminalTheme } from "../../components/terminal-theme";

export function TranscriptView({ transcript }: { transcript: string }) {
  const host = useRef<HTMLDivElement>(null);
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
    return () => term.dispose();
  }, [transcript]);
  return <div className="terminal-frame transcript" ref={host} data-testid="transcript" />;
}
