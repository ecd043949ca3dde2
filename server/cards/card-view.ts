// What the API, the pages and the CLI show of a card and its reviews: pure mappers from rows, safe to
// import in the browser (types only from Prisma).
import type { Card, CardReview } from "../db/generated/client.ts";
import { formatWait, preview, ratingName, RATINGS, type RatingName, type SchedulingState } from "./scheduling.ts";

export const CARD_ORIGINS = ["mark", "parked", "transcript", "hand", "agent", "import"] as const;
export type CardOrigin = (typeof CARD_ORIGINS)[number];

export const STATE_WORDS = ["new", "learning", "review", "relearning"] as const;

export interface CardView {
  readonly id: string;
  readonly front: string;
  readonly back: string;
  readonly topic: string;
  readonly origin: CardOrigin;
  readonly originId: string | null;
  readonly sessionId: string | null;
  readonly author: "learner" | "agent";
  readonly createdAt: string;
  readonly due: string;
  readonly isDue: boolean;
  readonly state: (typeof STATE_WORDS)[number];
  /** Reviews so far: a review must name the count it saw, so a second device cannot review twice. */
  readonly reps: number;
  readonly lapses: number;
  readonly lastReview: string | null;
  /** For each answer, how long until the card is due again ("10m", "4d"). */
  readonly waits: Record<RatingName, string>;
}

export interface ReviewView {
  readonly id: number;
  readonly cardId: string;
  readonly rating: RatingName;
  readonly reviewedAt: string;
  readonly durationMs: number | null;
  readonly due: string;
  readonly stability: number;
  readonly difficulty: number;
  readonly state: (typeof STATE_WORDS)[number];
}

export function schedulingOf(card: Card): SchedulingState {
  return {
    due: card.due,
    stability: card.stability,
    difficulty: card.difficulty,
    scheduledDays: card.scheduledDays,
    learningSteps: card.learningSteps,
    reps: card.reps,
    lapses: card.lapses,
    state: card.state,
    lastReview: card.lastReview,
  };
}

export function toCardView(card: Card, now: Date): CardView {
  const next = preview(schedulingOf(card), now);
  const waits = {} as Record<RatingName, string>;
  for (const name of RATINGS) waits[name] = formatWait(now, next[name]);
  return {
    id: card.id,
    front: card.front,
    back: card.back,
    topic: card.topic,
    origin: (CARD_ORIGINS as readonly string[]).includes(card.origin) ? (card.origin as CardOrigin) : "hand",
    originId: card.originId,
    sessionId: card.sessionId,
    author: card.author === "agent" ? "agent" : "learner",
    createdAt: card.createdAt.toISOString(),
    due: card.due.toISOString(),
    isDue: card.due.getTime() <= now.getTime(),
    state: STATE_WORDS[card.state] ?? "new",
    reps: card.reps,
    lapses: card.lapses,
    lastReview: card.lastReview?.toISOString() ?? null,
    waits,
  };
}

export function toReviewView(review: CardReview): ReviewView {
  return {
    id: review.id,
    cardId: review.cardId,
    rating: ratingName(review.rating),
    reviewedAt: review.reviewedAt.toISOString(),
    durationMs: review.durationMs,
    due: review.due.toISOString(),
    stability: review.stability,
    difficulty: review.difficulty,
    state: STATE_WORDS[review.state] ?? "new",
  };
}

/** Where a card came from, in the learner's words. */
export function originWords(card: Pick<CardView, "origin" | "author">): string {
  switch (card.origin) {
    case "mark":
      return "from a topic mark";
    case "parked":
      return "from a parked thought";
    case "transcript":
      return "from a session's transcript";
    case "agent":
      return "written by the tutor";
    case "import":
      return "imported";
    default:
      return card.author === "agent" ? "written by the tutor" : "written by you";
  }
}
