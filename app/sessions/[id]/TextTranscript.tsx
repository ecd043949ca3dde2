// The text transcript derived from the recording: what scrolled by and what each full screen showed,
// each stretch with its time, which opens the player there.
import Link from "next/link";
import { clock, type TranscriptSegment } from "@/common/transcript-text";

/** Characters shown on the page at most; the download has everything. */
const SHOWN_MAX_CHARS = 400_000;

export function TextTranscript({ segments, playable }: { segments: readonly TranscriptSegment[]; playable: boolean }) {
  if (segments.length === 0) return <p className="muted">Nothing was printed in this session.</p>;
  let shown = 0;
  const visible: TranscriptSegment[] = [];
  for (const s of segments) {
    if (shown + s.text.length > SHOWN_MAX_CHARS && visible.length > 0) break;
    visible.push(s);
    shown += s.text.length;
  }
  return (
    <div className="text-transcript" data-testid="text-transcript">
      {visible.map((s, i) => (
        <div key={i} className={`tx-${s.kind}`}>
          {playable ? (
            <Link className="tx-time" href={`?t=${Math.round(s.atMs) / 1000}`} scroll={false} replace title="Play from here">
              {clock(s.atMs)}
            </Link>
          ) : (
            <span className="tx-time">{clock(s.atMs)}</span>
          )}
          {s.kind === "screen" ? <span className="muted tx-label">full screen</span> : null}
          <pre>{s.text}</pre>
        </div>
      ))}
      {visible.length < segments.length ? <p className="muted">The transcript goes on: download it to read all of it.</p> : null}
    </div>
  );
}
