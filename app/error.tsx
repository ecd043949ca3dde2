"use client";
// A page that failed to render, in the app's own layout: what happened and what to do next. A live
// session keeps running on the server whatever this page does.
import Link from "next/link";
import { useEffect } from "react";

export default function PageError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  useEffect(() => {
    document.title = "Something went wrong · StudyLoop";
  }, []);
  return (
    <section className="panel notice warn stack" role="alert" data-testid="page-error">
      <h1>This page could not be shown</h1>
      <p>
        Something went wrong while showing it{error.digest ? ` (reference ${error.digest}, in the server's output)` : ""}. A live study
        session keeps running: try again, or go back to the dashboard.
      </p>
      <p className="row">
        <button type="button" className="primary" onClick={reset}>
          Try again
        </button>
        <Link href="/" prefetch={false} className="button">
          Go to the dashboard
        </Link>
      </p>
    </section>
  );
}
