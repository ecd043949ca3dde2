import { ReviewDeck } from "./ReviewDeck";
import { CardsQuerySchema } from "@/server/cards/card-schemas";

export const dynamic = "force-dynamic";

type Search = Record<string, string | string[] | undefined>;

/** Where "Continue" may lead after a review: only this app's own pages. */
const THEN: Record<string, { href: string; label: string }> = {
  study: { href: "/study", label: "Continue to the start form" },
  session: { href: "/study", label: "Back to the session" },
};

export default async function ReviewPage({ searchParams }: { searchParams: Promise<Search> }) {
  const raw = await searchParams;
  const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
  const parsed = CardsQuerySchema.safeParse({ topic: first(raw.topic), limit: first(raw.limit) });
  const { topic, limit } = parsed.success ? parsed.data : { topic: undefined, limit: undefined };
  const then = THEN[first(raw.then) ?? ""];
  return (
    <div className="stack">
      <h1>Review{topic ? `: ${topic}` : ""}</h1>
      {!parsed.success ? (
        <p className="error">{parsed.error.issues[0]?.message ?? "That address is not valid"}: reviewing every due card instead.</p>
      ) : null}
      <ReviewDeck topic={topic} limit={limit ?? 50} then={then} />
    </div>
  );
}
