// What the demo tutors say (demo-tutor.mjs in a terminal, demo-chat.mjs in the chat): the session's
// topic from TUTOR.md, and the terminal tutor's answer to a line the learner typed, as steps (words
// to say, a `studyloop` command to run, an exit). Pure, so each answer is table-tested.

/** The session's topic, from the TUTOR.md StudyLoop writes in the session's folder. */
export function topicOf(tutorMd) {
  return /studying \*\*(.+?)\*\*/.exec(tutorMd)?.[1]?.trim() || "your topic";
}

export const HELP_LINES = [
  "Type a line and press Enter. I understand:",
  "  park <a thought>              park it for after the session",
  "  win | stuck | insight [note]  mark how the topic is going",
  "  card <question> | <answer>    write a review card",
  "  cards                         the cards on this topic",
  "  recall <words>                what earlier sessions said about it",
  "  quiz, then reveal             a question from the review cards",
  "  bye                           leave (the session ends; its summary shows)",
];

/** The marks the demo can write, by the word the learner types. */
const MARKS = {
  win: { status: "win", said: "a win", note: "got it" },
  stuck: { status: "struggling", said: "a struggle", note: "needs another look" },
  insight: { status: "insight", said: "an insight", note: "a new way to see it" },
};

const QUIZ = {
  question: "What does StudyLoop keep while you study?",
  answer: "Your focus time, parked thoughts, topic marks, review cards and the transcript.",
};

/**
 * The terminal tutor's answer to one typed line: steps run in order. `say` is a line in the tutor's
 * colour ("tutor") or the hint colour ("hint"); `run` is a `studyloop` command's arguments; `exit` ends.
 * @returns {{ say?: string, colour?: "tutor" | "hint", run?: string[], exit?: number }[]}
 */
export function demoReply(line, topic) {
  const text = line.trim();
  const [word = ""] = text.split(/\s+/);
  const arg = text.slice(word.length).trim();
  const tutor = (say) => ({ say, colour: "tutor" });
  const hint = (say) => ({ say, colour: "hint" });
  switch (word.toLowerCase()) {
    case "":
      return [];
    case "help":
    case "?":
      return HELP_LINES.map(hint);
    case "park":
      return arg
        ? [tutor("Parked: it waits in Marks & notes and in your summary."), { run: ["park", arg] }]
        : [hint("Say what to park: park why does this work?")];
    case "win":
    case "stuck":
    case "insight": {
      const mark = MARKS[word.toLowerCase()];
      return [tutor(`Marking ${topic} as ${mark.said}.`), { run: ["topic", topic, "--status", mark.status, "--note", arg || mark.note] }];
    }
    case "card": {
      const [front = "", back = ""] = arg.split("|").map((s) => s.trim());
      if (!front || !back) return [hint("Give a question and its answer: card What is a closure? | A function with the variables it saw")];
      return [tutor("A card for your reviews:"), { run: ["card", front, back, "--topic", topic] }];
    }
    case "cards":
      return [{ run: ["cards", "--topic", topic] }];
    case "recall":
      return arg ? [tutor("What earlier sessions said:"), { run: ["recall", arg] }] : [hint("Say what to look for: recall closures")];
    case "quiz":
      return [tutor(`Question: ${QUIZ.question}`), hint("Think of the answer, then type: reveal")];
    case "reveal":
      return [tutor(`Answer: ${QUIZ.answer}`), hint("Rate cards like this one on the Review page (Again, Hard, Good, Easy).")];
    case "bye":
    case "exit":
    case "quit":
      return [tutor("Goodbye! The session ends now; its summary shows what you did."), { exit: 0 }];
    default:
      if (text.endsWith("?")) {
        return [
          tutor("Good question. I am a script and cannot answer it; a real tutor would."),
          hint(`Park it for later instead: park ${text}`),
        ];
      }
      return [tutor(`You said: ${text}`), hint("I am a script, not an AI: type help to see what I understand.")];
  }
}

/** The learner's message as a heading: one line, at most this many characters. */
const HEADING_CHARS = 60;

/** The chat tutor's Markdown answer to a message: what a real tutor's answer can hold, said as a demo. */
export function chatAnswer(message, topic) {
  const said = message.replace(/\s+/g, " ").trim();
  const heading = said.length > HEADING_CHARS ? `${said.slice(0, HEADING_CHARS - 1)}…` : said || topic;
  return [
    `## ${heading.replace(/[#*_`[\]<>]/g, "")}`,
    "",
    `I am the **demo tutor**: a script, not an AI, so I cannot really answer about *${topic}*. A real tutor`,
    "(kiro-cli, gemini, opencode, or claude and codex through their ACP adapters) answers here, streamed like this:",
    "",
    "| What you see | What the agent sent |",
    "|---|---|",
    "| the checklist above | a `plan` |",
    "| this answer, word by word | `agent_message_chunk`s of Markdown |",
    "| the question below | a tool call, and `session/request_permission` |",
    "",
    "Code comes highlighted:",
    "",
    "```js",
    "const square = (n) => n * n; // a closure would keep n",
    "```",
    "",
    "and math renders too: $e^{i\\pi} + 1 = 0$.",
  ].join("\n");
}
