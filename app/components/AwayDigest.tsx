"use client";
// "While you were away": what happened since this device was last looked at, shown first on return.
import type { Digest, DigestItem } from "@/server/notify/digest";

const LABEL: Record<DigestItem["kind"], string> = {
  output: "Tutor",
  said: "Tutor said",
  permission: "Waiting for you",
  mark: "Marked",
  parked: "Parked",
  notice: "Notified",
};

export function AwayDigest({ digest, onClose }: { digest: Digest; onClose: () => void }) {
  const minutes = Math.round(digest.awayMs / 60_000);
  const away = minutes < 1 ? "less than a minute" : minutes === 1 ? "1 minute" : `${minutes} minutes`;
  return (
    <section className="away-digest panel notice" role="dialog" aria-labelledby="away-title" data-testid="away-digest">
      <div className="row spread">
        <h2 id="away-title" className="flush">
          While you were away
        </h2>
        <span className="muted">
          {away}
          {digest.topic ? ` · ${digest.topic}` : ""}
        </span>
      </div>
      {digest.pending.length > 0 ? (
        <ul className="away-items pending" aria-label="Waiting for you">
          {digest.pending.map((item, i) => (
            <li key={`p${i}`} data-kind={item.kind}>
              <span className="badge">{LABEL[item.kind]}</span> {item.text}
            </li>
          ))}
        </ul>
      ) : null}
      <ul className="away-items" aria-label="What happened">
        {digest.items.map((item, i) => (
          <li key={i} data-kind={item.kind}>
            <span className="muted">{clock(item.at)}</span> <span className="badge">{LABEL[item.kind]}</span>{" "}
            <span className={item.kind === "output" ? "mono" : undefined}>{item.text}</span>
          </li>
        ))}
      </ul>
      <div className="row">
        {digest.sessionId ? (
          <a className="button primary" href="/study" onClick={onClose}>
            Back to the session
          </a>
        ) : null}
        <button onClick={onClose}>Got it</button>
      </div>
    </section>
  );
}

function clock(iso: string): string {
  return new Date(iso).toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit" });
}
