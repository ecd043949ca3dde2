// `studyloop card` and `studyloop cards`: parsing (pure) and the listing's text.
import { describe, expect, it } from "vitest";
import { UsageError } from "./options.ts";
import { formatCards, parseCardArgs, parseCardsArgs } from "./card.ts";
import type { CardView } from "../cards/card-view.ts";

describe("studyloop card", () => {
  it("takes a front, a back and an optional topic", () => {
    expect(parseCardArgs(["What does a closure capture?", "Its scope's variables", "--topic", "closures"])).toEqual({
      help: false,
      front: "What does a closure capture?",
      back: "Its scope's variables",
      topic: "closures",
    });
    expect(parseCardArgs(["  Q  ", " A "])).toEqual({ help: false, front: "Q", back: "A" });
    expect(parseCardArgs(["--help"])).toEqual({ help: true });
  });

  it.each([
    [[], /Give the card's front/],
    [["only a front"], /The card has no back/],
    [["q", "   "], /The card has no back/],
    [["q", "a", "extra"], /Unexpected argument "extra"/],
    [["q", "a", "--topic", " "], /--topic is empty/],
    [["q", "a", "--topic"], /--topic needs a value/],
    [["x".repeat(2001), "a"], /front is 2001 characters long/],
    [["q", "a", "--topic", "t".repeat(201)], /at most 200/],
    [["q", "a", "--deck", "x"], /Unknown option --deck/],
  ])("refuses %j with a sentence (exit 2)", (argv, message) => {
    expect(() => parseCardArgs(argv)).toThrow(UsageError);
    expect(() => parseCardArgs(argv)).toThrow(message);
  });
});

describe("studyloop cards", () => {
  it("reads --due and --topic", () => {
    expect(parseCardsArgs(["--due", "--topic", "closures"])).toEqual({ help: false, due: true, topic: "closures" });
    expect(parseCardsArgs([])).toEqual({ help: false, due: false });
    expect(() => parseCardsArgs(["closures"])).toThrow(/Unexpected argument/);
    expect(() => parseCardsArgs(["--due=yes"])).toThrow(/takes no value/);
  });

  const card = (front: string, isDue: boolean): CardView =>
    ({ id: front, front, back: `${front}!`, topic: "closures", isDue, due: "2026-12-03T10:00:00.000Z" }) as unknown as CardView;

  it("lists the cards as questions and answers", () => {
    expect(formatCards([card("Q1", true), card("Q2", false)], true, "closures")).toBe(
      '2 due cards on "closures":\n\n1. Q: Q1\n   A: Q1!\n   (closures · due now)\n\n2. Q: Q2\n   A: Q2!\n   (closures · due 2026-12-03 10:00 UTC)',
    );
    expect(formatCards([], true, "closures")).toBe('No cards are due on "closures".');
    expect(formatCards([], false, undefined)).toBe("No cards yet.");
  });
});
