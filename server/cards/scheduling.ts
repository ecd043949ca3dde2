// The scheduler: a thin, pure adapter over ts-fsrs (FSRS, the scheduler Anki ships). No I/O and no
// clock of its own: every function takes the time, so a card's history can be replayed exactly.
import { createEmptyCard, fsrs, generatorParameters, Rating, State, type Card as FsrsCard, type FSRSParameters, type Grade } from "ts-fsrs";

import { RATINGS, type RatingName, type RatingNumber } from "../../common/cards/ratings.ts";

export { RATINGS, type RatingName, type RatingNumber };

export const ratingNumber = (name: RatingName): RatingNumber => (RATINGS.indexOf(name) + 1) as RatingNumber;
export const ratingName = (n: number): RatingName => RATINGS[n - 1] ?? "good";

/** What the cards table stores about scheduling: ts-fsrs's card, minus its deprecated day counters. */
export interface SchedulingState {
  readonly due: Date;
  readonly stability: number;
  readonly difficulty: number;
  readonly scheduledDays: number;
  readonly learningSteps: number;
  readonly reps: number;
  readonly lapses: number;
  /** ts-fsrs State: 0 new, 1 learning, 2 review, 3 relearning. */
  readonly state: number;
  readonly lastReview: Date | null;
}

/** The scheduler's settings, stored with every review so a replay can use the same ones (or new ones). */
export type SchedulerParameters = FSRSParameters & { readonly scheduler: string };

/** ts-fsrs's defaults (FSRS-6 weights, 90% retention), without fuzz: due dates are reproducible. */
export function defaultParameters(): SchedulerParameters {
  return { scheduler: SCHEDULER_NAME, ...generatorParameters({ enable_fuzz: false }) };
}

/** Names the scheduler in each review row: the adapter's contract is with this version's behaviour. */
export const SCHEDULER_NAME = "ts-fsrs@5";

export function newState(now: Date): SchedulingState {
  return fromFsrs(createEmptyCard(now));
}

export interface ReviewOutcome {
  readonly before: SchedulingState;
  readonly after: SchedulingState;
}

/** The state after answering `rating` at `at`. */
export function schedule(
  state: SchedulingState,
  rating: RatingNumber,
  at: Date,
  params: FSRSParameters = defaultParameters(),
): ReviewOutcome {
  const result = fsrs(params).next(toFsrs(state), at, rating as Grade);
  return { before: state, after: fromFsrs(result.card) };
}

/** A card's state from its creation time and its reviews in order: what the cards table caches. */
export function replay(
  createdAt: Date,
  reviews: readonly { rating: number; reviewedAt: Date }[],
  params: FSRSParameters = defaultParameters(),
): SchedulingState {
  const scheduler = fsrs(params);
  let card = createEmptyCard(createdAt);
  for (const r of reviews) card = scheduler.next(card, r.reviewedAt, r.rating as Grade).card;
  return fromFsrs(card);
}

/** For each answer, when the card would next be due: shown under the buttons ("10m", "3d"). */
export function preview(state: SchedulingState, at: Date, params: FSRSParameters = defaultParameters()): Record<RatingName, Date> {
  const scheduler = fsrs(params);
  const card = toFsrs(state);
  const out = {} as Record<RatingName, Date>;
  for (const name of RATINGS) out[name] = scheduler.next(card, at, ratingNumber(name) as Grade).card.due;
  return out;
}

/** The chance of recalling the card at `at`, 0..1 (FSRS's forgetting curve); null for a new card. */
export function recallChance(state: SchedulingState, at: Date, params: FSRSParameters = defaultParameters()): number | null {
  if (state.state === State.New || !state.lastReview) return null;
  return fsrs(params).get_retrievability(toFsrs(state), at, false);
}

/** "10m", "3h", "4d", "2mo": a wait as a phone button can show it. */
export function formatWait(from: Date, to: Date): string {
  const minutes = Math.max(1, Math.round((to.getTime() - from.getTime()) / 60_000));
  if (minutes < 60) return `${minutes}m`;
  const hours = Math.round(minutes / 60);
  if (hours < 24) return `${hours}h`;
  const days = Math.round(hours / 24);
  if (days < 31) return `${days}d`;
  const months = Math.round(days / 30.4);
  if (months < 12) return `${months}mo`;
  return `${Math.round((days / 365) * 10) / 10}y`;
}

export { Rating, State };

function toFsrs(s: SchedulingState): FsrsCard {
  return {
    due: s.due,
    stability: s.stability,
    difficulty: s.difficulty,
    // Deprecated in ts-fsrs 5 (it derives elapsed time from last_review); kept for its type.
    elapsed_days: 0,
    scheduled_days: s.scheduledDays,
    learning_steps: s.learningSteps,
    reps: s.reps,
    lapses: s.lapses,
    state: s.state as State,
    last_review: s.lastReview ?? undefined,
  };
}

function fromFsrs(c: FsrsCard): SchedulingState {
  return {
    due: c.due,
    stability: c.stability,
    difficulty: c.difficulty,
    scheduledDays: c.scheduled_days,
    learningSteps: c.learning_steps,
    reps: c.reps,
    lapses: c.lapses,
    state: c.state,
    lastReview: c.last_review ?? null,
  };
}
