// "Review" in the navigation, with the number of cards due now (counted by the layout when it renders).
import Link from "next/link";
import "./review.css";

export function DueNavLink({ due }: { due: number }) {
  return (
    <Link
      href="/review"
      prefetch={false}
      data-testid="nav-review"
      aria-label={due ? `Review: ${due} card${due === 1 ? "" : "s"} due` : "Review"}
    >
      Review{due ? <span className="nav-due">{due}</span> : null}
    </Link>
  );
}
