"use client";
// The banner a page shows while the StudyLoop server cannot be reached: what happened, since when,
// and that the page will show the real outcome once the server is back.
import { clockOf } from "./server-reachable";

export function ServerAway({ since, live }: { since: number | null; live: boolean }) {
  const at = since === null ? "a moment ago" : clockOf(since);
  return (
    <div className="panel notice warn server-away" role="alert" data-testid="server-away">
      <strong>StudyLoop is not reachable since {at}</strong>
      {live ? ": your session may have ended. " : ". "}
      This page stopped counting and will show what happened as soon as the server is back.
      {live ? (
        <>
          {" "}
          If you stopped StudyLoop yourself, start it again with <code>npm run web</code> in its folder.
        </>
      ) : null}
    </div>
  );
}
