import { describe, expect, it } from "vitest";
import { DEFAULT_WAIT_RULE, InputWaitDetector, type WaitRule } from "./input-wait.ts";

const rule: WaitRule = { ...DEFAULT_WAIT_RULE, idleSeconds: 5, longRunSeconds: 60 };
const S = 1000;

/** Feeds [at seconds, text, bells] then checks at `checkAt` seconds. */
function run(steps: [number, string, number?][], checkAt: number, r: WaitRule = rule) {
  const d = new InputWaitDetector(r);
  const fromOutput = steps.map(([at, text, bells]) => d.output(text, bells ?? 0, at * S)).filter(Boolean);
  return { fromOutput, check: d.check(checkAt * S), d };
}

describe("InputWaitDetector", () => {
  const cases: { name: string; steps: [number, string, number?][]; at: number; output?: unknown[]; check: unknown; r?: WaitRule }[] = [
    {
      name: "a question, then a prompt, then silence: waiting",
      steps: [[0, "Which sort is stable?\r\ntutor> "]],
      at: 5,
      check: { kind: "waiting", reason: "question", line: "Which sort is stable?" },
    },
    { name: "not yet silent long enough", steps: [[0, "Which sort is stable?\r\ntutor> "]], at: 4.9, check: null },
    { name: "silence without a question: nothing", steps: [[0, "Here is the answer.\r\ntutor> "]], at: 10, check: null },
    {
      name: "a question but the cursor is mid-output: nothing",
      steps: [[0, "Ready?\r\nprinting the next part of a long"]],
      at: 10,
      check: null,
    },
    {
      name: "a question on the cursor's own line (y/n)",
      steps: [[0, "Overwrite notes.md? (y/n)"]],
      at: 6,
      check: { kind: "waiting", reason: "question", line: "Overwrite notes.md? (y/n)" },
    },
    {
      name: "a bell is waiting at once, and answers for the silence after it",
      steps: [[0, "done\r\n> ", 1]],
      at: 10,
      output: [{ kind: "waiting", reason: "bell", line: "done" }],
      check: null,
    },
    { name: "bells can be switched off", steps: [[0, "x", 1]], at: 10, output: [], check: null, r: { ...rule, bell: false } },
    {
      name: "a long run that stops without a question: finished",
      // Output every 4 s (less than the 5 s silence) for a minute, then a shell prompt.
      steps: [...Array.from({ length: 16 }, (_, i): [number, string] => [i * 4, `step ${i}\r\n`]), [61, "all tests pass\r\n$ "]],
      at: 70,
      check: { kind: "finished" },
    },
    {
      name: "a short run that stops: nothing",
      steps: [
        [0, "a\r\n"],
        [3, "b\r\n"],
      ],
      at: 20,
      check: null,
    },
    {
      name: "a spinner redraws the line: the last drawing counts",
      steps: [[0, "Continue?\r\n\rworking...\r> "]],
      at: 5,
      check: { kind: "waiting", reason: "question", line: "Continue?" },
    },
    {
      name: "a custom prompt pattern",
      steps: [[0, "What next?\r\n[input]: "]],
      at: 5,
      check: null,
      r: { ...rule, prompt: /^>>> $/u },
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const { fromOutput, check } = run(c.steps, c.at, c.r);
      expect(check).toEqual(c.check);
      if (c.output) expect(fromOutput).toEqual(c.output);
    });
  }

  it("judges each silence once, and again after new output", () => {
    const d = new InputWaitDetector(rule);
    d.output("Ready?\r\n> ", 0, 0);
    expect(d.check(5 * S)).toMatchObject({ kind: "waiting" });
    expect(d.check(20 * S)).toBeNull();
    expect(d.dueAt()).toBeNull();
    d.output("\r\nAnd now?\r\n> ", 0, 30 * S);
    expect(d.dueAt()).toBe(35 * S);
    expect(d.check(35 * S)).toMatchObject({ kind: "waiting", line: "And now?" });
  });
});
