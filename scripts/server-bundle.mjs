// The server compiled to plain JavaScript (dist/server): what `studyloop` runs in production, so no
// TypeScript compiler is loaded at run time (tsx cost ~30 MB and ~0.5 s of every start). esbuild bundles
// server/cli/main.ts with node_modules left external; code the first lines of a command do not need
// (Next.js, socket.io, the sessions) sits in chunks loaded on first use, so `studyloop park` stays light.
// Plain Node, no TypeScript: bin/studyloop.js calls it before anything is compiled.
//
// `npm run build` runs it (`node scripts/server-bundle.mjs`); bin/studyloop.js calls ensureServerBundle(),
// which rebuilds when the bundle is missing or any file it was built from changed since. Several
// processes may do that at once (tests start many servers): every file is written under a temporary
// name and renamed into place, chunks are named by their content, and old chunks are kept, so a
// server already running never loses a chunk it has yet to load.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const OUT_DIR = path.join(ROOT, "dist", "server");
/** The bundle's entry; its module graph starts at server/cli/main.ts. */
export const ENTRY = path.join(OUT_DIR, "main.js");
/** What the build was made from and when: { builtAt, inputs: [paths relative to ROOT] }. */
export const META = path.join(OUT_DIR, "build-meta.json");
/** Changing how the bundle is built rebuilds it too. */
const THIS_FILE = path.relative(ROOT, fileURLToPath(import.meta.url));

/**
 * "missing", "stale" or "fresh": fresh when the entry and the record exist and no input was modified
 * after the build started (a deleted input is a change too). Pure over `stat` (mtimeMs or undefined).
 */
export function bundleVerdict(meta, entryExists, mtimeOf) {
  if (!meta || !entryExists || !Array.isArray(meta.inputs) || typeof meta.builtAt !== "number") return "missing";
  for (const input of meta.inputs) {
    const mtime = mtimeOf(input);
    if (mtime === undefined || mtime > meta.builtAt) return "stale";
  }
  return "fresh";
}

function readMeta() {
  try {
    return JSON.parse(fs.readFileSync(META, "utf8"));
  } catch {
    return undefined;
  }
}

function mtimeOf(rel) {
  try {
    return fs.statSync(path.join(ROOT, rel)).mtimeMs;
  } catch {
    return undefined;
  }
}

export function currentVerdict() {
  return bundleVerdict(readMeta(), fs.existsSync(ENTRY), mtimeOf);
}

/** Writes a file whole or not at all, as seen by a process reading it at the same moment. */
function writeAtomically(file, contents) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  fs.writeFileSync(temp, contents);
  fs.renameSync(temp, file);
}

/** Builds dist/server and returns the entry's path. `clean` empties the folder first (npm run build). */
export async function buildServerBundle({ clean = false } = {}) {
  const { build } = await import("esbuild");
  const builtAt = Date.now();
  if (clean) fs.rmSync(OUT_DIR, { recursive: true, force: true });
  const common = {
    bundle: true,
    platform: "node",
    target: "node20",
    write: false,
    metafile: true,
    logLevel: "warning",
    absWorkingDir: ROOT,
  };
  const [server, worker] = await Promise.all([
    build({
      ...common,
      entryPoints: { main: "server/cli/main.ts" },
      outdir: OUT_DIR,
      format: "esm",
      // Late imports (`await import(...)`) stay late: each becomes a chunk loaded when first reached.
      splitting: true,
      chunkNames: "chunk-[hash]",
      // node_modules are loaded by Node as they are (native modules, Next.js, Prisma's runtime).
      packages: "external",
      sourcemap: "linked",
    }),
    // The terminal mirror's worker thread (server/transports/pty/mirror-thread.ts): one plain script
    // with @xterm/headless inside, as mirror-thread would otherwise build it at run time.
    build({
      ...common,
      entryPoints: ["server/transports/pty/mirror-worker.ts"],
      outfile: path.join(OUT_DIR, "mirror-worker.cjs"),
      format: "cjs",
    }),
  ]);
  // Entries last: a reader never finds an entry whose chunks are not written yet.
  const files = [...server.outputFiles, ...worker.outputFiles].sort((a, b) => Number(a.path === ENTRY) - Number(b.path === ENTRY));
  for (const file of files) writeAtomically(file.path, file.contents);
  const inputs = [...Object.keys(server.metafile.inputs), ...Object.keys(worker.metafile.inputs), THIS_FILE].filter(
    (input) => !input.includes("node_modules/"),
  );
  writeAtomically(META, JSON.stringify({ builtAt, inputs: [...new Set(inputs)].sort() }, null, 1));
  return ENTRY;
}

/** The entry to import: built first when missing or older than its sources. */
export async function ensureServerBundle() {
  if (currentVerdict() !== "fresh") await buildServerBundle();
  return ENTRY;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = Date.now();
  await buildServerBundle({ clean: true });
  console.log(`Server compiled to ${path.relative(ROOT, OUT_DIR)}/ in ${Date.now() - started} ms.`);
}
