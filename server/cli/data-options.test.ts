// --data-dir and --database on every command (the README says every command takes them): each
// command's parsing, table-tested; bad values are one sentence and exit 2; and, with real processes,
// a tmux session's data directory named on the command line by every command a learner types.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../config/paths.ts";
import { parseCommand, UsageError, type CommandSpec } from "./options.ts";
import { dataChoice } from "./database-option.ts";
import { webCommand } from "./web.ts";
import { studyCommand } from "./study.ts";
import { statusCommand } from "./status.ts";
import { parkCommand, parseParkArgs } from "./park.ts";
import { parseTopicArgs, topicCommand } from "./topic.ts";
import { cardCommand, cardsCommand, parseCardArgs, parseCardsArgs } from "./card.ts";
import { parseRecallArgs, recallCommand } from "./recall.ts";
import { studioCommand } from "./studio.ts";

const COMMANDS: readonly CommandSpec[] = [
  webCommand,
  studyCommand,
  statusCommand,
  parkCommand,
  topicCommand,
  cardCommand,
  cardsCommand,
  recallCommand,
  studioCommand,
];

describe("every command takes --data-dir and --database", () => {
  it.each(COMMANDS.map((c) => [c.name, c] as const))("%s", (_name, spec) => {
    const parsed = parseCommand(spec, ["--data-dir", "/d", "--database=/d/other.db"]);
    expect(dataChoice(parsed.options)).toEqual({ dataDir: "/d", database: "/d/other.db" });
    expect(spec.usage).toContain("--data-dir D");
    expect(spec.usage).toContain("--database URL");
  });

  it.each([
    ["park", () => parseParkArgs(["a thought", "--data-dir", "/d"]), { text: "a thought", dataDir: "/d" }],
    [
      "topic",
      () => parseTopicArgs(["closures", "--status", "win", "--database", "postgresql://u@h/db"]),
      { topic: "closures", status: "win", database: "postgresql://u@h/db" },
    ],
    [
      "card",
      () => parseCardArgs(["Q", "A", "--data-dir=/d", "--database", "/d/x.db"]),
      { front: "Q", back: "A", dataDir: "/d", database: "/d/x.db" },
    ],
    ["cards", () => parseCardsArgs(["--due", "--data-dir", "/d"]), { due: true, dataDir: "/d" }],
    ["recall", () => parseRecallArgs(["monads", "--data-dir", "/d"]), { query: "monads", limit: 5, dataDir: "/d" }],
    ["park without them", () => parseParkArgs(["x"]), { text: "x" }],
  ])("%s reads them", (_name, parse, expected) => {
    expect(parse()).toEqual({ help: false, ...expected });
  });

  it.each([
    [["--data-dir", ""], /^--data-dir is empty: give the data directory's path/],
    [["--data-dir=   "], /^--data-dir is empty/],
    [["--data-dir"], /^The option --data-dir needs a value \(D\)\.$/],
    [["--database", ""], /^--database needs a value: a PostgreSQL URL/],
    [["--database", "mysql://h/db"], /^--database mysql:\/\/ is not a database StudyLoop can use/],
    [["--database", "postgresql://"], /^--database is not a PostgreSQL URL StudyLoop can read|names no host/],
    [["--database", "file:"], /^--database file: names no file/],
  ])("refuses %j with one sentence (a usage error: exit 2)", (argv, message) => {
    for (const spec of COMMANDS) {
      const attempt = () => dataChoice(parseCommand(spec, [...(spec.maxPositionals ? ["words"] : []), ...argv]).options);
      expect(attempt).toThrow(UsageError);
      expect(attempt).toThrow(message);
    }
  });
});

// Real processes: a CLI session in a private tmux server, then every command a learner types in a
// plain shell (no session token) with that data directory named on the command line.
const SOCKET = `studyloop-test-data-${process.pid}`;
const env: NodeJS.ProcessEnv = {
  ...process.env,
  STUDYLOOP_TMUX_SOCKET: SOCKET,
  STUDYLOOP_DATA_DIR: "",
  DATABASE_URL: "",
  STUDYLOOP_URL: "",
  STUDYLOOP_SESSION_TOKEN: "",
};
delete env.TMUX;
const dirs: string[] = [];
afterAll(() => {
  spawnSync("tmux", ["-L", SOCKET, "kill-server"]);
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

function studyloop(...args: string[]) {
  const result = spawnSync(process.execPath, [path.join(PROJECT_ROOT, "bin", "studyloop.js"), ...args], {
    encoding: "utf8",
    env,
    timeout: 120_000,
  });
  return { status: result.status, out: result.stdout.trim(), err: result.stderr.trim() };
}

describe("a data directory named on the command line (real processes)", () => {
  it("park, topic, card, cards, recall and status read and write it; a bad value is exit 2", () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "studyloop-data-options-"));
    dirs.push(dataDir);
    fs.writeFileSync(
      path.join(dataDir, "studyloop.config.json"),
      JSON.stringify({ agents: { shell: { label: "Shell", command: "/bin/sh", args: [] } } }),
    );
    // Without a running session a learner's park has nowhere to go: a sentence, exit 1, nothing written.
    expect(studyloop("park", "too early", "--data-dir", dataDir)).toMatchObject({
      status: 1,
      err: "studyloop: No study session is live: start one to park thoughts in it.",
    });
    expect(studyloop("study", "lateral joins", "--agent", "shell", "--detach", "--data-dir", dataDir).status).toBe(0);

    expect(studyloop("park", "why are joins lateral?", "--data-dir", dataDir)).toMatchObject({
      status: 0,
      out: "Parked for after the session: why are joins lateral?",
    });
    expect(studyloop("topic", "lateral joins", "--status", "learning", "--data-dir", dataDir)).toMatchObject({
      status: 0,
      out: 'Marked "lateral joins" as learning.',
    });
    expect(studyloop("card", "What does LATERAL allow?", "Referring to earlier FROM items", "--data-dir", dataDir)).toMatchObject({
      status: 2,
      err: "studyloop: topic is empty: say what the card is about.",
    });
    expect(
      studyloop("card", "What does LATERAL allow?", "Referring to earlier FROM items", "--topic", "lateral joins", "--data-dir", dataDir),
    ).toMatchObject({ status: 0, out: 'Card added to "lateral joins": What does LATERAL allow?' });
    const cards = studyloop("cards", "--due", "--data-dir", dataDir);
    expect(cards.status).toBe(0);
    expect(cards.out).toMatch(/^1 due card:\n\n1\. Q: What does LATERAL allow\?/);
    const recall = studyloop("recall", "lateral", "--data-dir", dataDir);
    expect(recall.status).toBe(0);
    expect(recall.out).toMatch(/^\d+ moments? from past sessions matching "lateral":/);
    expect(recall.out).toContain("joins");
    expect(studyloop("status", "--data-dir", dataDir).out).toMatch(/^"lateral joins" with shell \(tmux\)/);

    for (const command of [["status"], ["cards"], ["park", "x"], ["topic", "x", "--status", "win"], ["card", "q", "a"], ["recall", "x"]]) {
      expect(studyloop(...command, "--data-dir", "")).toMatchObject({
        status: 2,
        err: expect.stringMatching(/^studyloop: --data-dir is empty/),
      });
      expect(studyloop(...command, "--database", "mysql://h/db")).toMatchObject({
        status: 2,
        err: expect.stringMatching(/^studyloop: --database mysql:\/\/ is not a database StudyLoop can use/),
      });
    }
    expect(studyloop("study", "--end", "--data-dir", dataDir).status).toBe(0);
  });
});
