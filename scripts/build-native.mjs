#!/usr/bin/env node
// The native modules of `npm install` (step 1 of scripts/postinstall.mjs): node-pty, better-sqlite3
// and our own addon in native/, each made ready in the open, saying which way and how far along.
// npm 11 hides a dependency's build output and runs the project's own install scripts only after every
// dependency is built, so package.json's allowScripts leaves those two builds to this script, which
// runs each package's own install scripts with their output in a log of this install's own
// (node_modules/.studyloop/build-logs/<module>.log) and, when one fails, says why from its log
// (native-build-diagnosis.mjs) and what to do about it. Plain Node: it may only use what Node ships.
//
// Prebuilt binaries. The only prebuilt a module can have here without a download is one already made
// on this machine. better-sqlite3's prebuild-install downloads its binary from GitHub, and an install
// of StudyLoop downloads nothing but npm packages (offline machines reach only the npm registry and
// their distribution's packages), so it is told to build from source (npm_config_build_from_source).
// node-pty's prebuilds ship inside its npm package (macOS and Windows; none for Linux) and are used
// when they fit. What saves the build is reuse: a module that already loads is kept (a second
// `npm install`), and every binary built here is kept in a cache outside node_modules, by module,
// version, Node ABI, platform and C library (STUDYLOOP_NATIVE_CACHE, default ~/.cache/studyloop/
// native-builds; CI may keep that folder between runs), so a fresh node_modules on the same machine
// and Node takes it back instead of compiling. Every binary is loaded once before it is trusted; one
// that does not load is built again. Each line says which happened: kept, reused or built.
import { spawn, spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { diagnoseBuildLog, wayOut } from "./native-build-diagnosis.mjs";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
/** This install's own place for its build logs: inside the project, gone with node_modules. */
export const LOG_DIR = path.join(ROOT, "node_modules", ".studyloop", "build-logs");
/** A line at least this often while something builds, with the time so far. */
const HEARTBEAT_MS = 30_000;

/**
 * npm packages are in node_modules/<name>; ours name their folder (`dir`) and their version is a hash of
 * their sources. `binaries`: the files in build/Release the module loads (what the cache keeps).
 */
export const MODULES = [
  {
    name: "node-pty",
    what: "runs the tutor in a terminal",
    probe: 'require("node-pty")',
    binaries: ["pty.node", "spawn-helper"],
  },
  {
    name: "better-sqlite3",
    what: "the database",
    probe: 'new (require("better-sqlite3"))(":memory:").close()',
    binaries: ["better_sqlite3.node"],
    // prebuild-install would download from GitHub: build from source instead (see the header).
    env: { npm_config_build_from_source: "true" },
  },
  // Ours, a few lines of C (server/diagnostics/memory-trim.ts).
  {
    name: "malloc-trim",
    dir: "native/malloc-trim",
    what: "gives the server's free memory back",
    probe: 'require("./native/malloc-trim")',
    binaries: ["malloc_trim.node"],
    sources: ["malloc_trim.c", "binding.gyp", "package.json"],
  },
];

const folder = (m) => path.join(ROOT, m.dir ?? path.join("node_modules", m.name));

/** "1 min 5 s", "12 s". Pure. */
export function took(ms) {
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}

/**
 * The cache's name for a module's binaries: a binary loads only into the Node ABI, platform,
 * architecture and C library it was built for, from the module's version (or, ours, its sources). Pure.
 */
export function cacheKey(name, version, runtime) {
  const libc = runtime.glibc ? `glibc${runtime.glibc}` : runtime.platform === "linux" ? "musl" : "native";
  return `${name}-${version}-node-abi${runtime.abi}-${runtime.platform}-${runtime.arch}-${libc}`.replace(/[^\w.+-]/g, "_");
}

/** This Node: what decides whether a binary built elsewhere loads here. */
export function thisRuntime() {
  const header = process.report?.getReport?.().header ?? {};
  return { abi: process.versions.modules, platform: process.platform, arch: process.arch, glibc: header.glibcVersionRuntime };
}

/** Where built binaries are kept between installs; null when STUDYLOOP_NATIVE_CACHE is "off". */
export function cacheRoot(env = process.env) {
  const chosen = env.STUDYLOOP_NATIVE_CACHE?.trim();
  if (chosen === "off") return null;
  if (chosen) return path.resolve(chosen);
  return path.join(env.XDG_CACHE_HOME?.trim() || path.join(os.homedir(), ".cache"), "studyloop", "native-builds");
}

function versionOf(m) {
  if (m.sources) {
    const hash = crypto.createHash("sha256");
    for (const file of m.sources) hash.update(fs.readFileSync(path.join(folder(m), file)));
    return `src${hash.digest("hex").slice(0, 12)}`;
  }
  return JSON.parse(fs.readFileSync(path.join(folder(m), "package.json"), "utf8")).version;
}

/** The probe's error, or null when the module loads in a fresh Node (run in the project, as the server is). */
function loadError(m) {
  const result = spawnSync(process.execPath, ["-e", m.probe], { cwd: ROOT, encoding: "utf8" });
  if (result.status === 0) return null;
  return (result.stderr || `exit ${result.status}`).split("\n").find((l) => /Error|error/.test(l)) ?? result.stderr.trim();
}

const release = (m) => path.join(folder(m), "build", "Release");

/** Takes the cached binaries back, if there are any for this module and Node, and keeps them if they load. */
function reuse(m, cacheDir) {
  const from = path.join(cacheDir, cacheKey(m.name, versionOf(m), thisRuntime()));
  const files = m.binaries.filter((f) => fs.existsSync(path.join(from, f)));
  if (!files.includes(m.binaries[0])) return null;
  fs.mkdirSync(release(m), { recursive: true });
  for (const f of files) fs.copyFileSync(path.join(from, f), path.join(release(m), f));
  if (loadError(m) === null) return from;
  for (const f of files) fs.rmSync(path.join(release(m), f), { force: true });
  return null;
}

/** Keeps a module's fresh binaries for the next install; a cache that cannot be written costs only a line. */
function keep(m, cacheDir) {
  try {
    const to = path.join(cacheDir, cacheKey(m.name, versionOf(m), thisRuntime()));
    const temp = `${to}.${process.pid}.tmp`;
    fs.mkdirSync(temp, { recursive: true });
    for (const f of m.binaries) if (fs.existsSync(path.join(release(m), f))) fs.copyFileSync(path.join(release(m), f), path.join(temp, f));
    fs.rmSync(to, { recursive: true, force: true });
    fs.renameSync(temp, to);
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** Runs one lifecycle script of the package in `dir`, its output to `log`; resolves to the exit code. */
function runScript(m, event, log) {
  return new Promise((resolve) => {
    const env = { ...process.env, ...m.env };
    // The npm that runs this install (npm_execpath), so the package's scripts see the same npm and node-gyp.
    const npm = process.env.npm_execpath;
    const [command, args] = npm ? [process.execPath, [npm, "run-script", event]] : ["npm", ["run-script", event]];
    const child = spawn(command, args, { cwd: folder(m), env, stdio: ["ignore", "pipe", "pipe"] });
    child.stdout.pipe(log, { end: false });
    child.stderr.pipe(log, { end: false });
    child.on("error", (error) => {
      log.write(`${error.message}\n`);
      resolve(1);
    });
    child.on("close", (code) => resolve(code ?? 1));
  });
}

/**
 * Builds one module from source; resolves to null, or why it failed: a sentence with the log's own
 * lines that show it, and the way out (the same for every module that failed the same way).
 */
async function build(m, logPath) {
  const scripts = JSON.parse(fs.readFileSync(path.join(folder(m), "package.json"), "utf8")).scripts ?? {};
  const log = fs.createWriteStream(logPath);
  log.write(`# ${m.name}, built from source by StudyLoop's install on ${new Date().toISOString()} with Node ${process.version}\n`);
  let code = 0;
  for (const event of ["preinstall", "install", "postinstall"]) {
    if (code === 0 && scripts[event]) code = await runScript(m, event, log);
  }
  await new Promise((resolve) => log.end(resolve));
  const failedToLoad = code === 0 ? loadError(m) : null;
  if (code === 0 && failedToLoad === null) return null;
  if (failedToLoad !== null) {
    return {
      why: [`  It built, but does not load: ${failedToLoad}`],
      wayOut: ["Run npm install again; if it fails the same way, see docs/troubleshooting.md."],
    };
  }
  const diagnosis = diagnoseBuildLog(fs.readFileSync(logPath, "utf8"));
  return {
    why: [`  Why: ${diagnosis.what}`, ...diagnosis.lines.map((l) => `    | ${l}`)],
    wayOut: wayOut(diagnosis, { nodeVersion: process.versions.node, headers: headersOnThisMachine() }),
  };
}

/**
 * Folders holding Node's headers on this machine (include/node/node_version.h), with their version:
 * where this Node lives, the usual system places, and node-gyp's own download folder.
 */
export function headersOnThisMachine(env = process.env) {
  const candidates = [
    env.npm_config_nodedir,
    path.resolve(process.execPath, "..", ".."),
    "/usr",
    "/usr/local",
    path.join(env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache"), "node-gyp", process.versions.node),
  ].filter(Boolean);
  const found = [];
  for (const nodedir of new Set(candidates)) {
    try {
      const header = fs.readFileSync(path.join(nodedir, "include", "node", "node_version.h"), "utf8");
      const part = (name) => new RegExp(`#define ${name} (\\d+)`).exec(header)?.[1];
      found.push({ nodedir, version: `${part("NODE_MAJOR_VERSION")}.${part("NODE_MINOR_VERSION")}.${part("NODE_PATCH_VERSION")}` });
    } catch {
      // No headers there.
    }
  }
  return found;
}

/**
 * Makes every native module load: kept when it already does, reused from the cache, or built. Says
 * each outcome as it happens; resolves to true when every module loads.
 */
export async function buildNative({ say = console.log, warn = console.error, env = process.env } = {}) {
  const present = MODULES.filter((m) => fs.existsSync(folder(m)));
  const cacheDir = cacheRoot(env);
  const toBuild = [];
  for (const m of present) {
    if (loadError(m) === null) {
      say(`  ${m.name} (${m.what}): already loads in this Node (${process.version}), kept.`);
      continue;
    }
    const from = cacheDir ? reuse(m, cacheDir) : null;
    if (from) say(`  ${m.name} (${m.what}): reused the binary built earlier on this machine for this Node (${from}).`);
    else toBuild.push(m);
  }
  if (toBuild.length === 0) return true;

  fs.mkdirSync(LOG_DIR, { recursive: true });
  const names = toBuild.map((m) => m.name);
  say(
    `  Building ${names.join(", ")} from source with your C/C++ toolchain (python3, make, g++), ${toBuild.length > 1 ? "side by side" : "now"}; ` +
      `their output goes to ${path.relative(ROOT, LOG_DIR)}/.`,
  );
  const started = Date.now();
  const building = new Set(names);
  let done = 0;
  const heartbeat = setInterval(
    () => say(`  still building ${[...building].join(" and ")}: ${done} of ${toBuild.length} done, ${took(Date.now() - started)} so far`),
    HEARTBEAT_MS,
  );
  const failures = await Promise.all(
    toBuild.map(async (m) => {
      const logPath = path.join(LOG_DIR, `${m.name}.log`);
      const began = Date.now();
      const failed = await build(m, logPath);
      building.delete(m.name);
      done++;
      if (failed) {
        warn(`\n  ${m.name} (${m.what}) did not build (${done} of ${toBuild.length} finished).`);
        warn([...failed.why, `  The whole log: ${logPath}`].join("\n"));
        return { name: m.name, wayOut: failed.wayOut };
      }
      const kept = cacheDir ? keep(m, cacheDir) : null;
      say(`  ${m.name} (${m.what}): built from source in ${took(Date.now() - began)} (${done} of ${toBuild.length} done).`);
      if (kept) say(`    (not kept for the next install: ${kept})`);
      return null;
    }),
  );
  clearInterval(heartbeat);
  // The way out once per cause, after every module has said why it failed.
  const ways = new Map();
  for (const f of failures) if (f) ways.set(f.wayOut.join("\n"), [...(ways.get(f.wayOut.join("\n")) ?? []), f.name]);
  for (const [way, names] of ways) warn(`\nWhat to do (${names.join(", ")}):\n${way.replace(/^/gm, "  ")}`);
  return failures.every((f) => f === null);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = (await buildNative()) ? 0 : 1;
}
