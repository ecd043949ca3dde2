// The four answers to a review card, in button order: shared by the scheduler (server/cards) and the
// review page. The number is FSRS's (and Anki's) rating and the keyboard key.
export const RATINGS = ["again", "hard", "good", "easy"] as const;
export type RatingName = (typeof RATINGS)[number];
export type RatingNumber = 1 | 2 | 3 | 4;
