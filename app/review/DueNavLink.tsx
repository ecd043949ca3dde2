// "Review" in the navigation, with the number of cards due now (read when the page renders).
import Link from "next/link";
import { getRuntime } from "@/server/runtime";
import "./review.css";

export async function DueNavLink() {
  let due = 0;
  try {
    due = await getRuntime().cards.dueCount();
  } catch {
    // The navigation never fails a page: without the count it is a plain link.
  }
  return (
    <Link href="/review" prefetch={false} data-testid="nav-review" aria-label={due ? `Review: ${due} card${due === 1 ? "" : "s"} due` : "Review"}>
      Review{due ? <span className="nav-due">{due}</span> : null}
    </Link>
  );
}
