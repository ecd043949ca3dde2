// What the study loop and the cards refuse: the learner asked for something that cannot be done now
// (a thought already carried on, a card reviewed on another device), with the sentence that says why
// and what to do. The edges give each kind its answer: an HTTP status (api/api-error.ts) or the CLI's
// exit code (cli/session-writer.ts); nothing below them knows either.

export type RefusalKind = "invalid" | "not-found" | "conflict";

// Route handlers are bundled apart from the custom server, so this class exists twice at run time:
// recognise it by a registered symbol, never by instanceof.
const BRAND = Symbol.for("studyloop.Refusal");

export class Refusal extends Error {
  readonly [BRAND] = true;

  constructor(
    readonly kind: RefusalKind,
    message: string,
    /** Facts the answer carries beside the sentence (the field at fault, the current state). */
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = "Refusal";
  }
}

export function isRefusal(error: unknown): error is Refusal {
  return typeof error === "object" && error !== null && (error as Record<symbol, unknown>)[BRAND] === true;
}

export const invalid = (message: string, extra?: Record<string, unknown>) => new Refusal("invalid", message, extra);
export const notFound = (message: string) => new Refusal("not-found", message);
export const conflict = (message: string, extra?: Record<string, unknown>) => new Refusal("conflict", message, extra);
