// `npm test`: every check in order (format, lint, types, the production build, unit and integration
// tests, browser tests), each one timed, stopping at the first that fails, then one summary: each
// stage's time and counts, and every browser test that failed once and passed on its retry (a
// flake: shown with its first failure, never hidden; fixing it belongs to the next change).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..");
const REPORTS = path.join(ROOT, ".tmp", "test-reports");
const UNIT_REPORT = path.join(REPORTS, "unit.json");
const E2E_REPORT = path.join(REPORTS, "e2e.json");

/** The stages, in order: a name, the command, and how to read its counts from its report. */
const STAGES = [
  { name: "format", command: ["npx", "prettier", "--check", "--log-level", "warn", "."] },
  { name: "lint", command: ["npx", "eslint", "."] },
  { name: "types", command: ["npx", "tsc", "--noEmit", "-p", "."] },
  { name: "build", command: ["npm", "run", "--silent", "build"] },
  {
    name: "unit",
    command: ["npx", "vitest", "run", "--reporter=default", "--reporter=json", `--outputFile.json=${UNIT_REPORT}`],
    counts: () => unitCounts(UNIT_REPORT),
  },
  {
    name: "browser",
    command: ["npx", "playwright", "test"],
    env: { STUDYLOOP_E2E_JSON: E2E_REPORT },
    counts: () => e2eCounts(E2E_REPORT),
  },
];

const only = process.argv.slice(2);
fs.rmSync(REPORTS, { recursive: true, force: true });
fs.mkdirSync(REPORTS, { recursive: true });

const done = [];
let failed = false;
for (const stage of STAGES) {
  if (only.length > 0 && !only.includes(stage.name)) continue;
  console.log(`\n▶ ${stage.name}: ${stage.command.join(" ")}`);
  const started = Date.now();
  const result = spawnSync(stage.command[0], stage.command.slice(1), {
    cwd: ROOT,
    stdio: "inherit",
    env: { ...process.env, ...stage.env },
  });
  const seconds = (Date.now() - started) / 1000;
  const ok = result.status === 0;
  let counts = null;
  try {
    counts = stage.counts?.() ?? null;
  } catch {
    // no report (the stage failed before writing it): its output above says why
  }
  done.push({ name: stage.name, seconds, ok, counts });
  if (!ok) {
    failed = true;
    break;
  }
}

console.log(`\n${summary(done)}`);
process.exit(failed ? 1 : 0);

function unitCounts(file) {
  const report = JSON.parse(fs.readFileSync(file, "utf8"));
  return {
    text: `${report.numPassedTests} passed, ${report.numFailedTests} failed, ${report.numPendingTests + report.numTodoTests} skipped in ${report.numTotalTestSuites} files`,
    flaky: [],
  };
}

function e2eCounts(file) {
  const report = JSON.parse(fs.readFileSync(file, "utf8"));
  const tally = { expected: 0, unexpected: 0, flaky: 0, skipped: 0 };
  const flaky = [];
  const visit = (suite) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        tally[test.status] = (tally[test.status] ?? 0) + 1;
        if (test.status === "flaky") {
          const first = test.results.find((r) => r.status !== "passed");
          const message = (first?.error?.message ?? first?.errors?.[0]?.message ?? "").split("\n").find((l) => l.trim()) ?? "";
          flaky.push(`${spec.file}:${spec.line} ${spec.title}\n      first failure: ${stripColours(message).trim()}`);
        }
      }
    }
    for (const child of suite.suites ?? []) visit(child);
  };
  for (const suite of report.suites ?? []) visit(suite);
  return {
    text: `${tally.expected} passed, ${tally.unexpected} failed, ${tally.flaky} flaky (passed on retry), ${tally.skipped} skipped`,
    flaky,
  };
}

function stripColours(text) {
  return text.replace(/\u001b\[[0-9;]*m/g, "");
}

function summary(stages) {
  const lines = ["Test summary"];
  let total = 0;
  for (const s of stages) {
    total += s.seconds;
    lines.push(
      `  ${s.ok ? "ok  " : "FAIL"} ${s.name.padEnd(8)} ${formatSeconds(s.seconds).padStart(8)}${s.counts ? `  ${s.counts.text}` : ""}`,
    );
  }
  lines.push(`  total         ${formatSeconds(total).padStart(8)}`);
  const flaky = stages.flatMap((s) => s.counts?.flaky ?? []);
  if (flaky.length > 0) {
    lines.push(
      "",
      `Flaky: ${flaky.length} browser test${flaky.length === 1 ? "" : "s"} failed once and passed on retry (a race, in the test or the product: fix it next):`,
    );
    for (const f of flaky) lines.push(`  - ${f}`);
  }
  return lines.join("\n");
}

function formatSeconds(seconds) {
  return seconds >= 60 ? `${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s` : `${seconds.toFixed(1)} s`;
}
