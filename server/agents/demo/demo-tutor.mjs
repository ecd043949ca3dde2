#!/usr/bin/env node
// The demo tutor: StudyLoop tried without any AI (README, "Try it without an AI"). A scripted terminal
// agent, run by the server's own node in the session's folder like any agent, that shows what a tutor
// does around the learner: it greets, draws a small screen in colour, then parks a thought, marks the
// topic and writes a review card with the real `studyloop` commands on its PATH (the launcher the
// session puts first, server/agents/studyloop-command.ts), so the study page's feed shows each as it
// happens. Then it answers what the learner types, in a small loop of commands (demo-replies.mjs).
// Plain Node, no dependencies: it must start anywhere StudyLoop does.
import { spawn } from "node:child_process";
import fs from "node:fs";
import { demoReply, HELP_LINES, topicOf } from "./demo-replies.mjs";

const ESC = "\x1b[";
const RESET = `${ESC}0m`;
const BOLD = `${ESC}1m`;
const DIM = `${ESC}2m`;
const CYAN = `${ESC}36m`;
const YELLOW = `${ESC}33m`;
const GREEN = `${ESC}32m`;
const MAGENTA = `${ESC}35m`;
const PROMPT = `${BOLD}${GREEN}you>${RESET} `;
/** A pause between the demo's first steps, so a learner can follow them (not a wait for anything). */
const STEP_PAUSE_MS = 700;

const out = process.stdout;
const topic = topicOf(readTutorFile());

function readTutorFile() {
  try {
    return fs.readFileSync("TUTOR.md", "utf8");
  } catch {
    return "";
  }
}

function write(text) {
  return new Promise((resolve) => out.write(text, () => resolve()));
}

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** A box of these lines, as wide as the widest (and the terminal allows), in colour. */
function box(lines, colour) {
  const width = Math.min(Math.max(...lines.map((l) => visible(l).length)) + 2, Math.max(20, (out.columns || 80) - 2));
  const top = `${colour}╭${"─".repeat(width)}╮${RESET}`;
  const bottom = `${colour}╰${"─".repeat(width)}╯${RESET}`;
  const body = lines.map((l) => `${colour}│${RESET} ${l}${" ".repeat(Math.max(0, width - 1 - visible(l).length))}${colour}│${RESET}`);
  return [top, ...body, bottom].join("\n");
}

/** The text without its colour codes: what the terminal shows. */
const visible = (text) => text.replace(/\x1b\[[0-9;]*m/g, "");

/** Runs the `studyloop` found on PATH, as a real agent's shell would; shows the command and its answer. */
function studyloop(args) {
  return new Promise((resolve) => {
    void write(`${DIM}$ studyloop ${args.map(shown).join(" ")}${RESET}\n`).then(() => {
      const child = spawn("studyloop", args, { stdio: ["ignore", "pipe", "pipe"] });
      let output = "";
      child.stdout.on("data", (d) => (output += d));
      child.stderr.on("data", (d) => (output += d));
      child.once("error", (error) => {
        void write(`${YELLOW}studyloop could not run (${error.code ?? error.message}): is this a StudyLoop session?${RESET}\n`).then(
          resolve,
        );
      });
      child.once("close", () => void write(`${output.trimEnd()}\n`).then(resolve));
    });
  });
}

const shown = (arg) => (/^[\w./:-]+$/.test(arg) ? arg : `"${arg.replaceAll('"', '\\"')}"`);

async function greet() {
  await write(`${ESC}2J${ESC}H`);
  await write(
    `${box(
      [
        `${BOLD}${CYAN}StudyLoop demo tutor${RESET}  ${DIM}(no AI: a script)${RESET}`,
        `Topic: ${BOLD}${YELLOW}${topic}${RESET}`,
        `${GREEN}■■■■■■■■${RESET}${DIM}□□□□□□□□${RESET}  focus block 1`,
      ],
      CYAN,
    )}\n\n`,
  );
  await write(
    `Hello! A real tutor (claude, codex, gemini…) would teach you ${BOLD}${topic}${RESET} here.\n` +
      `I show what StudyLoop keeps around one. Watch ${BOLD}Marks & notes${RESET} beside me (on a phone: the button above).\n\n`,
  );
  await pause(STEP_PAUSE_MS);
  await write(`${MAGENTA}1.${RESET} A stray thought is parked for later, not chased now:\n`);
  await studyloop(["park", `After the session: where does ${topic} show up in real projects?`]);
  await pause(STEP_PAUSE_MS);
  await write(`\n${MAGENTA}2.${RESET} How the topic is going is marked (wins and struggles end up in your summary):\n`);
  await studyloop(["topic", topic, "--status", "learning", "--note", "started with the demo tutor"]);
  await pause(STEP_PAUSE_MS);
  await write(`\n${MAGENTA}3.${RESET} A review card for later (the Review page; the next session's warm-up):\n`);
  await studyloop([
    "card",
    "What does StudyLoop keep while you study?",
    "Your focus time, parked thoughts, topic marks, review cards and the transcript",
    "--topic",
    topic,
  ]);
  await write(`\n${HELP_LINES.join("\n")}\n\n`);
}

async function answer(line) {
  const reply = demoReply(line, topic);
  for (const step of reply) {
    if (step.say) await write(`${step.colour === "tutor" ? CYAN : YELLOW}${step.say}${RESET}\n`);
    if (step.run) await studyloop(step.run);
    if (step.exit !== undefined) process.exit(step.exit);
  }
}

let queue = Promise.resolve();
let pending = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  pending += chunk;
  let end;
  while ((end = pending.search(/\r\n|\r|\n/)) !== -1) {
    const line = pending.slice(0, end);
    pending = pending.slice(end + (pending.startsWith("\r\n", end) ? 2 : 1));
    queue = queue.then(() => answer(line)).then(() => write(PROMPT));
  }
});
process.stdin.on("end", () => void queue.then(() => process.exit(0)));
process.on("SIGINT", () => void write(`\n${DIM}(Ctrl-C: type bye to leave)${RESET}\n${PROMPT}`));

queue = greet().then(() => write(PROMPT));
