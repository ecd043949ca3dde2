// `studyloop card "FRONT" "BACK" [--topic T]`: the tutor writes a review card in the running session
// (same token and rules as `studyloop park`); `studyloop cards --due [--topic T]` lists cards.
import { CARD_SIDE_MAX_CHARS } from "../cards/card-schemas.ts";
import { TOPIC_MAX_CHARS } from "../../common/study/topic-limits.ts";
import type { CardView } from "../cards/card-view.ts";
import type { CommandSpec } from "./options.ts";
import { formatHelp, parseCommand, UsageError } from "./options.ts";
import { getFromSession, type Fetch } from "./session-client.ts";
import { sessionWriter } from "./session-writer.ts";
import { openLocalData } from "./local-data.ts";
import { choosesData, DATA_OPTIONS, dataChoice, type DataChoice } from "./database-option.ts";
import { WHERE_IT_WRITES } from "./park.ts";

type Env = Readonly<Record<string, string | undefined>>;

export const cardCommand: CommandSpec = {
  name: "card",
  summary: "Write a review card in the running study session: a question and its answer (for the tutor).",
  usage: 'studyloop card "FRONT (the question)" "BACK (the answer)" [--topic TOPIC] [--data-dir D] [--database URL]',
  options: [
    { name: "topic", kind: "string", value: "TOPIC", description: "What the card is about (the session's topic when left out)." },
    ...DATA_OPTIONS,
  ],
  maxPositionals: 2,
};

export const cardsCommand: CommandSpec = {
  name: "cards",
  summary: "List review cards: the due ones with --due, one topic with --topic.",
  usage: "studyloop cards [--due] [--topic TOPIC] [--data-dir D] [--database URL]",
  options: [
    { name: "due", kind: "boolean", description: "Only the cards due for review now." },
    { name: "topic", kind: "string", value: "TOPIC", description: "Only the cards on this topic." },
    ...DATA_OPTIONS,
  ],
  maxPositionals: 0,
};

export interface CardArgs {
  readonly front: string;
  readonly back: string;
  readonly topic?: string;
}

/** The card, from the words given. Pure. */
export function parseCardArgs(argv: readonly string[]): { help: true } | ({ help: false } & CardArgs & DataChoice) {
  const parsed = parseCommand(cardCommand, argv);
  if (parsed.help) return { help: true };
  const [front = "", back = ""] = parsed.positionals.map((p) => p.trim());
  const example = 'e.g. studyloop card "What does a closure capture?" "The variables of its lexical scope" --topic closures';
  if (!front) throw new UsageError(`Give the card's front (the question) and back (the answer), ${example}. Nothing was written.`);
  if (!back) throw new UsageError(`The card has no back: give the answer as a second quoted argument, ${example}. Nothing was written.`);
  for (const [name, text] of [
    ["front", front],
    ["back", back],
  ] as const) {
    if (text.length > CARD_SIDE_MAX_CHARS)
      throw new UsageError(`The ${name} is ${text.length} characters long; use at most ${CARD_SIDE_MAX_CHARS}. Nothing was written.`);
  }
  const topic = typeof parsed.options.topic === "string" ? parsed.options.topic.trim() : undefined;
  if (topic !== undefined && !topic)
    throw new UsageError("--topic is empty: name the topic, or leave it out for the session's topic. Nothing was written.");
  if (topic && topic.length > TOPIC_MAX_CHARS)
    throw new UsageError(`The topic is ${topic.length} characters long; use at most ${TOPIC_MAX_CHARS}. Nothing was written.`);
  return { help: false, front, back, ...(topic ? { topic } : {}), ...dataChoice(parsed.options) };
}

export function parseCardsArgs(argv: readonly string[]): { help: true } | ({ help: false; due: boolean; topic?: string } & DataChoice) {
  const parsed = parseCommand(cardsCommand, argv);
  if (parsed.help) return { help: true };
  const topic = typeof parsed.options.topic === "string" ? parsed.options.topic.trim() : undefined;
  if (topic !== undefined && !topic) throw new UsageError("--topic is empty: name the topic, or leave it out for every topic.");
  if (topic && topic.length > TOPIC_MAX_CHARS)
    throw new UsageError(`The topic is ${topic.length} characters long; use at most ${TOPIC_MAX_CHARS}.`);
  return { help: false, due: parsed.options.due === true, ...(topic ? { topic } : {}), ...dataChoice(parsed.options) };
}

export async function runCard(argv: readonly string[], env: Env = process.env, fetchImpl?: Fetch): Promise<number> {
  const args = parseCardArgs(argv);
  if (args.help) {
    console.log(`${formatHelp(cardCommand)}\n\n${WHERE_IT_WRITES}`);
    return 0;
  }
  const { topic } = await sessionWriter("card", env, fetchImpl, args).card({
    front: args.front,
    back: args.back,
    ...(args.topic ? { topic: args.topic } : {}),
  });
  console.log(`Card added to "${topic}": ${args.front}`);
  return 0;
}

/** Cards as plain text: one block per card, the question, the answer, when it is due. Pure. */
export function formatCards(cards: readonly CardView[], due: boolean, topic: string | undefined): string {
  const scope = `${due ? "due " : ""}card${cards.length === 1 ? "" : "s"}${topic ? ` on "${topic}"` : ""}`;
  if (cards.length === 0) return `${due ? "No cards are due" : "No cards yet"}${topic ? ` on "${topic}"` : ""}.`;
  const blocks = cards.map(
    (c, i) =>
      `${i + 1}. Q: ${c.front}\n   A: ${c.back}\n   (${c.topic} · ${c.isDue ? "due now" : `due ${c.due.slice(0, 16).replace("T", " ")} UTC`})`,
  );
  return `${cards.length} ${scope}:\n\n${blocks.join("\n\n")}`;
}

export async function runCards(argv: readonly string[], env: Env = process.env, fetchImpl?: Fetch): Promise<number> {
  const args = parseCardsArgs(argv);
  if (args.help) {
    console.log(`${formatHelp(cardsCommand)}\n\nInside a session it asks the server that runs it; elsewhere it reads the data directory.`);
    return 0;
  }
  const query = new URLSearchParams({ ...(args.due ? { due: "1" } : {}), ...(args.topic ? { topic: args.topic } : {}), limit: "200" });
  let cards: CardView[];
  const url = env.STUDYLOOP_URL?.trim();
  const token = env.STUDYLOOP_SESSION_TOKEN?.trim();
  if (url && token && !choosesData(args)) {
    cards = ((await getFromSession({ url: url.replace(/\/+$/, ""), token }, `/api/cards?${query}`, fetchImpl)) as { cards: CardView[] })
      .cards;
  } else {
    const data = await openLocalData(
      args.dataDir ?? (env.STUDYLOOP_DATA_DIR?.trim() || undefined),
      args.database ?? (env.STUDYLOOP_DATABASE_URL?.trim() || undefined),
      env,
    );
    try {
      cards = (await data.cards.list({ due: args.due, topic: args.topic, limit: 200 })).cards;
    } finally {
      await data.close();
    }
  }
  console.log(formatCards(cards, args.due, args.topic));
  return 0;
}
