"use client";
// The session's recording in asciinema-player (bundled from npm, no CDN): scrubbable, its markers on
// the timeline, opened at `?t=` (a chapter, a transcript line or a search hit sets it), with the
// markers listed below as chapters ("struggling: recursion · 12:41").
import { useEffect, useRef, useState } from "react";
import Link from "next/link";
import "asciinema-player/dist/bundle/asciinema-player.css";
import { chapterTitle } from "@/common/transcript-text";

type Player = { seek(at: number): Promise<unknown>; dispose(): void; el: HTMLElement };

export interface RecordPlayerProps {
  readonly sessionId: string;
  /** Seconds into the recording to open at, from the page's address; null: the start. */
  readonly startAt: number | null;
  readonly markers: readonly { readonly time: number; readonly label: string }[];
}

export function RecordPlayer({ sessionId, startAt, markers }: RecordPlayerProps) {
  const host = useRef<HTMLDivElement>(null);
  const player = useRef<Player | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [ready, setReady] = useState(false);
  const initialStart = useRef(startAt);

  useEffect(() => {
    let disposed = false;
    void import("asciinema-player")
      .then((ap) => {
        if (disposed || !host.current) return;
        player.current = ap.create({ url: `/api/sessions/${sessionId}/cast` }, host.current, {
          startAt: initialStart.current ?? 0,
          // The screen at that moment, shown before play is pressed ("npt": normal play time, seconds).
          ...(initialStart.current !== null ? { poster: `npt:${initialStart.current}` } : {}),
          preload: true,
          fit: "width",
          controls: true,
          // Idle time is kept as it was: a moment's time (a chapter, a search hit) must match the player's clock.
          terminalFontFamily: "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace",
        }) as Player;
        setReady(true);
      })
      .catch((e: unknown) =>
        setError(`The player could not load: ${e instanceof Error ? e.message : String(e)}. Reload the page to try again.`),
      );
    return () => {
      disposed = true;
      player.current?.dispose();
      player.current = null;
    };
  }, [sessionId]);

  // A chapter, a transcript line or a search result changed ?t=: go there.
  useEffect(() => {
    if (!ready || startAt === null || startAt === initialStart.current) return;
    initialStart.current = startAt;
    void player.current?.seek(startAt);
    host.current?.scrollIntoView({ block: "nearest", behavior: "smooth" });
  }, [startAt, ready]);

  return (
    <div className="stack">
      <div className="record-player" ref={host} data-testid="record-player" data-ready={ready ? "yes" : "no"} />
      {error ? <p className="error">{error}</p> : null}
      {markers.length > 0 ? (
        <ol className="chapters" data-testid="chapters" aria-label="Chapters">
          {markers.map((m, i) => (
            <li key={`${m.time}-${i}`}>
              <Link href={`?t=${m.time}`} scroll={false} replace>
                {chapterTitle(m.label, m.time)}
              </Link>
            </li>
          ))}
        </ol>
      ) : null}
    </div>
  );
}
