"use client";
// The session's recording in asciinema-player (bundled from npm, no CDN): its markers on the
// timeline, opened at `?t=` (a chapter, a transcript line or a search hit sets it), with the markers
// listed below as chapters ("struggling: recursion · 12:41"). Under it, controls of our own that are
// always visible and big enough for a finger: Play/Pause, a position slider (a click or a tap on it
// seeks) and the speed. The player's own bar shows only while the pointer moves over it, and it has
// no speed choice (issue 40). asciinema-player takes its speed when it is created, so a new speed
// makes a new player at the same moment, from the recording fetched once.
import { useCallback, useEffect, useRef, useState } from "react";
import Link from "next/link";
import "asciinema-player/dist/bundle/asciinema-player.css";
import type { Player } from "asciinema-player";
import { chapterTitle, clock } from "@/common/transcript-text";

/** The speeds offered, as the select lists them. */
const SPEEDS = [0.5, 1, 1.5, 2, 4] as const;
/** While playing, the slider and the time follow the player this often (ms): an animation, not a wait. */
const FOLLOW_MS = 250;

export interface RecordPlayerProps {
  readonly sessionId: string;
  /** Seconds into the recording to open at, from the page's address; null: the start. */
  readonly startAt: number | null;
  readonly markers: readonly { readonly time: number; readonly label: string }[];
}

export function RecordPlayer({ sessionId, startAt, markers }: RecordPlayerProps) {
  const host = useRef<HTMLDivElement>(null);
  const player = useRef<Player | null>(null);
  const cast = useRef<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [ready, setReady] = useState(false);
  const [speed, setSpeed] = useState(1);
  const [playing, setPlaying] = useState(false);
  const [time, setTime] = useState(startAt ?? 0);
  const [duration, setDuration] = useState<number | null>(null);
  const initialStart = useRef(startAt);
  /** Where (s) and whether playing the next player starts: the last one's, when the speed changes. */
  const resume = useRef<{ at: number; play: boolean }>({ at: startAt ?? 0, play: false });

  const follow = useCallback(() => {
    const p = player.current;
    if (!p) return;
    setTime(Number(p.getCurrentTime()) || 0);
    const d = p.getDuration();
    if (typeof d === "number") setDuration(d);
  }, []);

  // One player per speed: made from the recording fetched once, at the moment the last one was at.
  useEffect(() => {
    let disposed = false;
    let timer: ReturnType<typeof setInterval> | undefined;
    const stopFollowing = () => {
      if (timer) clearInterval(timer);
      timer = undefined;
    };
    void (async () => {
      try {
        const [ap, text] = await Promise.all([import("asciinema-player"), cast.current ?? fetchCast(sessionId)]);
        cast.current = text;
        if (disposed || !host.current) return;
        const { at, play } = resume.current;
        const p = ap.create({ data: text }, host.current, {
          startAt: at,
          speed,
          autoPlay: play,
          // The screen at that moment, shown before play is pressed ("npt": normal play time, seconds).
          ...(at > 0 && !play ? { poster: `npt:${at}` } : {}),
          preload: true,
          fit: "width",
          controls: true,
          // Idle time is kept as it was: a moment's time (a chapter, a search hit) must match the player's clock.
          terminalFontFamily: "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace",
        });
        player.current = p;
        p.addEventListener("playing", () => {
          setPlaying(true);
          stopFollowing();
          timer = setInterval(follow, FOLLOW_MS);
        });
        for (const stop of ["pause", "ended"] as const) {
          p.addEventListener(stop, () => {
            setPlaying(false);
            stopFollowing();
            follow();
          });
        }
        // Not in the published types, but dispatched by the player's core: the metadata (duration) and a seek done.
        const on = p.addEventListener as (name: string, handler: () => void) => void;
        on("ready", follow);
        on("metadata", follow);
        on("seeked", follow);
        setReady(true);
      } catch (e) {
        setError(`The player could not load: ${e instanceof Error ? e.message : String(e)}. Reload the page to try again.`);
      }
    })();
    return () => {
      disposed = true;
      stopFollowing();
      player.current?.dispose();
      player.current = null;
    };
  }, [sessionId, speed, follow]);

  // A chapter, a transcript line or a search result changed ?t=: go there.
  useEffect(() => {
    if (!ready || startAt === null || startAt === initialStart.current) return;
    initialStart.current = startAt;
    void player.current?.seek(startAt).then(follow);
    host.current?.scrollIntoView({ block: "nearest", behavior: "smooth" });
  }, [startAt, ready, follow]);

  const seek = (to: number) => {
    setTime(to);
    void player.current?.seek(to).then(follow);
  };
  const changeSpeed = (next: number) => {
    const p = player.current;
    resume.current = { at: p ? Number(p.getCurrentTime()) || 0 : time, play: playing };
    setReady(false);
    setSpeed(next);
  };

  return (
    <div className="stack">
      <div className="record-player" ref={host} data-testid="record-player" data-ready={ready ? "yes" : "no"} data-speed={speed} />
      <div className="player-controls" role="group" aria-label="Replay controls" data-testid="player-controls">
        <button
          type="button"
          className="primary"
          disabled={!ready}
          onClick={() => void (playing ? player.current?.pause() : player.current?.play())}
          data-testid="player-play"
        >
          {playing ? "Pause" : "Play"}
        </button>
        <input
          type="range"
          className="player-seek"
          aria-label="Position in the recording"
          aria-valuetext={`${clock(time * 1000)} of ${clock((duration ?? 0) * 1000)}`}
          min={0}
          max={duration ?? 0}
          step="any"
          value={Math.min(time, duration ?? time)}
          disabled={!ready || duration === null}
          onChange={(e) => seek(Number(e.target.value))}
          data-testid="player-seek"
        />
        <span className="player-time muted" data-testid="player-time">
          {clock(time * 1000)} / {duration === null ? "--:--" : clock(duration * 1000)}
        </span>
        <label className="player-speed">
          Speed{" "}
          <select value={speed} onChange={(e) => changeSpeed(Number(e.target.value))} data-testid="player-speed">
            {SPEEDS.map((s) => (
              <option key={s} value={s}>
                {s}×
              </option>
            ))}
          </select>
        </label>
      </div>
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

async function fetchCast(sessionId: string): Promise<string> {
  const res = await fetch(`/api/sessions/${sessionId}/cast`, { cache: "no-store" });
  if (!res.ok) throw new Error(`the recording could not be read (HTTP ${res.status})`);
  return res.text();
}
