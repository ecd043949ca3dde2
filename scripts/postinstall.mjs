#!/usr/bin/env node
// StudyLoop's part of `npm install` (package.json's postinstall), in numbered steps that each say what
// they do and how long they took: npm's own download before it prints nothing, so these lines are the
// install's progress. No estimate of how long a step will take: a busy machine made every one a lie
// (issue 40). When every step succeeded it writes node_modules/.studyloop/install.json (the Node it was
// made for), which `studyloop` checks before it starts (bin/install-check.js). Plain Node.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { buildNative, ROOT, took } from "./build-native.mjs";
import { installNotes } from "./install-notes.mjs";
import { checkInstall, INSTALL_RECORD } from "../bin/install-check.js";

/** Runs the project's prisma CLI with these arguments, its output shown; resolves to true on success. */
function prisma(args) {
  return new Promise((resolve) => {
    const child = spawn(path.join(ROOT, "node_modules", ".bin", "prisma"), args, { cwd: ROOT, stdio: "inherit" });
    child.on("error", (error) => {
      console.error(`  Could not run prisma: ${error.message}`);
      resolve(false);
    });
    child.on("close", (code) => resolve(code === 0));
  });
}

const STEPS = [
  { title: "the native modules (node-pty, better-sqlite3, StudyLoop's memory addon)", run: () => buildNative() },
  {
    title: "the database clients (prisma generate, for SQLite and for PostgreSQL)",
    run: async () => (await prisma(["generate"])) && (await prisma(["generate", "--schema", "prisma/postgresql/schema.prisma"])),
  },
  {
    title: "checking that everything is in place",
    run: async () => {
      const unfinished = checkInstall(ROOT);
      if (unfinished) console.error(`  ${unfinished}`);
      return unfinished === null;
    },
  },
];

const started = Date.now();
console.log(`\nStudyLoop: npm has fetched the packages; ${STEPS.length} steps of StudyLoop's own follow.`);
for (const [i, step] of STEPS.entries()) {
  const began = Date.now();
  console.log(`\nStep ${i + 1} of ${STEPS.length}: ${step.title}`);
  if (!(await step.run())) {
    console.error(
      `\nStep ${i + 1} of ${STEPS.length} failed after ${took(Date.now() - began)}: see above, fix it, then run npm install again.`,
    );
    process.exit(1);
  }
  console.log(`Step ${i + 1} of ${STEPS.length} done in ${took(Date.now() - began)}.`);
}
const record = { node: process.version, abi: process.versions.modules, finishedAt: new Date().toISOString() };
fs.mkdirSync(path.dirname(path.join(ROOT, INSTALL_RECORD)), { recursive: true });
fs.writeFileSync(path.join(ROOT, INSTALL_RECORD), `${JSON.stringify(record)}\n`);
console.log(`\n${installNotes(Number(process.versions.node.split(".")[0]), took(Date.now() - started))}`);
