#!/usr/bin/env node
// Compiles the native modules in the open, during `npm install` (package.json's postinstall).
// npm 11 hides a dependency's build output and runs the project's own install scripts only after every
// dependency is built, so npm's own build of node-pty and better-sqlite3 was minutes of silence with
// nothing said first. package.json's allowScripts therefore leaves those two builds to this script,
// which runs each package's own install scripts and says what it builds while it builds. It also builds
// the project's own addon in native/ the same way.
// A module that already loads (an earlier install, or an npm that ignores allowScripts and built it
// itself) is not built again. Plain Node: it may only use what Node ships.
import { spawn, spawnSync } from "node:child_process";
import { createWriteStream, existsSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/** npm packages are in node_modules/<name>; ours name their folder (`dir`). */
const MODULES = [
  { name: "node-pty", what: "runs the tutor in a terminal", probe: 'require("node-pty")' },
  { name: "better-sqlite3", what: "the database", probe: 'new (require("better-sqlite3"))(":memory:").close()' },
  // Ours, a few lines of C (server/diagnostics/memory-trim.ts).
  { name: "malloc-trim", dir: "native/malloc-trim", what: "gives the server's free memory back", probe: 'require("./native/malloc-trim")' },
];
const folder = (m) => path.resolve(m.dir ?? path.join("node_modules", m.name));
const HEARTBEAT_MS = 30_000;

const loads = (probe) => spawnSync(process.execPath, ["-e", probe], { stdio: "ignore" }).status === 0;
const took = (ms) => {
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
};

/** Runs one lifecycle script of the package in `dir`, its output to `log`; resolves to the exit code. */
function runScript(dir, event, log) {
  return new Promise((resolve) => {
    // The project downloads nothing but npm packages: prebuild-install (better-sqlite3) is told to build from source.
    const env = { ...process.env, npm_config_build_from_source: "true" };
    // The npm that runs this install (npm_execpath), so the package's scripts see the same npm and node-gyp.
    const npm = process.env.npm_execpath;
    const [command, args] = npm ? [process.execPath, [npm, "run-script", event]] : ["npm", ["run-script", event]];
    const child = spawn(command, args, { cwd: dir, env, stdio: ["ignore", "pipe", "pipe"] });
    child.stdout.pipe(log, { end: false });
    child.stderr.pipe(log, { end: false });
    child.on("error", (error) => {
      log.write(`${error.message}\n`);
      resolve(1);
    });
    child.on("close", (code) => resolve(code ?? 1));
  });
}

async function build(m) {
  const { name, what } = m;
  const dir = folder(m);
  const scripts = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")).scripts ?? {};
  const logPath = path.join(tmpdir(), `studyloop-build-${name}.log`);
  const log = createWriteStream(logPath);
  const started = Date.now();
  let code = 0;
  for (const event of ["preinstall", "install", "postinstall"]) {
    if (code === 0 && scripts[event]) code = await runScript(dir, event, log);
  }
  await new Promise((resolve) => log.end(resolve));
  if (code === 0) {
    console.log(`  ${name} (${what}): compiled in ${took(Date.now() - started)}.`);
    return true;
  }
  const tail = readFileSync(logPath, "utf8").trimEnd().split("\n").slice(-25).join("\n");
  console.error(`\n${tail}\n\n  ${name} (${what}) did not compile (the whole log: ${logPath}).`);
  return false;
}

const pending = MODULES.filter((m) => existsSync(folder(m)) && !loads(m.probe));
if (pending.length === 0) process.exit(0);

console.log(
  [
    "",
    `StudyLoop: compiling ${pending.map((m) => m.name).join(" and ")} from source with your C/C++ toolchain.`,
    "This takes 1 to 3 minutes on a laptop (longer on a busy machine); a line below says when each is done.",
  ].join("\n"),
);
const started = Date.now();
const building = new Set(pending.map((m) => m.name));
const heartbeat = setInterval(
  () => console.log(`  still compiling ${[...building].join(" and ")} (${took(Date.now() - started)} so far)`),
  HEARTBEAT_MS,
);
const results = await Promise.all(pending.map((m) => build(m).finally(() => building.delete(m.name))));
clearInterval(heartbeat);
if (results.includes(false)) {
  console.error(
    "\nMost often a missing python3, make or g++ is the cause (Debian/Ubuntu: apt-get install -y python3 make g++):\n" +
      "see the README's Prerequisites, then run npm install again.",
  );
  process.exit(1);
}
