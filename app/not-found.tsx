import Link from "next/link";

export const metadata = { title: "Page not found · StudyLoop" };

// Any address StudyLoop has no page for, in the app's own layout, with the way back.
export default function NotFound() {
  return (
    <section className="panel notice warn stack" data-testid="not-found">
      <h1>There is no page here</h1>
      <p>The address may be mistyped, or the session it named was removed.</p>
      <p className="row">
        <Link href="/" prefetch={false} className="button primary">
          Go to the dashboard
        </Link>
        <Link href="/study" prefetch={false} className="button">
          Study
        </Link>
      </p>
    </section>
  );
}
