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
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { compilerBytes, prismaWasmFromFile, WASM_DIR } from "./prisma-wasm.mjs";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const OUT_DIR = path.join(ROOT, "dist", "server");
/** The bundle's entry; its module graph starts at server/cli/main.ts. */
export const ENTRY = path.join(OUT_DIR, "main.js");
/** What the build was made from and when: { builtAt, inputs: [paths relative to ROOT] }. */
export const META = path.join(OUT_DIR, "build-meta.json");
/** Changing how the bundle is built rebuilds it too. */
const THIS_FILE = path.relative(ROOT, fileURLToPath(import.meta.url));
const WASM_PLUGIN_FILE = path.join(path.dirname(THIS_FILE), "prisma-wasm.mjs");

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

/**
 * Whether Node's `require` loads this package (CommonJS): its entry for `require` is a .cjs, a .node, or
 * a .js in a package that is not `"type": "module"`. Those are loaded with `require` from the bundle
 * (below): importing a CommonJS package from ES modules makes Node scan its source for the names it
 * exports (cjs-module-lexer) and translate it, ~0.1 s of every start for Prisma's 200 KB runtime alone.
 */
export function loadsWithRequire(specifier, resolve) {
  let file;
  try {
    file = resolve(specifier);
  } catch {
    return false; // ESM-only (no `require` entry) or not installed: left to `import`.
  }
  if (file.endsWith(".cjs") || file.endsWith(".node")) return true;
  if (!file.endsWith(".js")) return false;
  for (let dir = path.dirname(file); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const manifest = path.join(dir, "package.json");
    if (!fs.existsSync(manifest)) continue;
    // As Node decides: the nearest package.json's "type".
    return JSON.parse(fs.readFileSync(manifest, "utf8")).type !== "module";
  }
  return true;
}

/** The module-scope `require` every output file gets (banner), for the packages loaded with it. */
const REQUIRE_NAME = "__studyloopRequire";

/** External CommonJS packages become `module.exports = require("pkg")` wrappers esbuild links to. */
function requireCommonJsPackages() {
  const resolve = createRequire(path.join(ROOT, "package.json")).resolve;
  const verdicts = new Map();
  return {
    name: "require-commonjs-packages",
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, (args) => {
        if (args.namespace === "commonjs-package" || args.path.startsWith("node:")) return { path: args.path, external: true };
        if (!verdicts.has(args.path)) verdicts.set(args.path, loadsWithRequire(args.path, resolve));
        return verdicts.get(args.path) ? { path: args.path, namespace: "commonjs-package" } : { path: args.path, external: true };
      });
      build.onLoad({ filter: /.*/, namespace: "commonjs-package" }, (args) => ({
        contents: `module.exports = ${REQUIRE_NAME}(${JSON.stringify(args.path)});`,
        loader: "js",
      }));
    },
  };
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
  const wasmNeeded = new Set();
  const [server, worker, leaseWorker] = await Promise.all([
    build({
      ...common,
      entryPoints: { main: "server/cli/main.ts" },
      outdir: OUT_DIR,
      format: "esm",
      // Late imports (`await import(...)`) stay late: each becomes a chunk loaded when first reached.
      splitting: true,
      chunkNames: "chunk-[hash]",
      // node_modules are loaded by Node as they are (native modules, Next.js, Prisma's runtime), the
      // CommonJS ones with `require`.
      packages: "external",
      plugins: [prismaWasmFromFile(wasmNeeded), requireCommonJsPackages()],
      banner: {
        js: `import { createRequire as __studyloopCreateRequire } from "node:module";\nconst ${REQUIRE_NAME} = __studyloopCreateRequire(import.meta.url);`,
      },
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
    // The lease thread (server/sessions/lease/lease-thread.ts): its drivers are loaded by path at run time.
    build({
      ...common,
      entryPoints: ["server/sessions/lease/lease-worker.ts"],
      outfile: path.join(OUT_DIR, "lease-worker.cjs"),
      format: "cjs",
      packages: "external",
    }),
  ]);
  // The query compilers the chunks load (scripts/prisma-wasm.mjs), before any chunk that loads them.
  for (const name of wasmNeeded) writeAtomically(path.join(OUT_DIR, WASM_DIR, `${name}.wasm`), await compilerBytes(name, ROOT));
  // Entries last: a reader never finds an entry whose chunks are not written yet.
  const files = [...server.outputFiles, ...worker.outputFiles, ...leaseWorker.outputFiles].sort(
    (a, b) => Number(a.path === ENTRY) - Number(b.path === ENTRY),
  );
  for (const file of files) writeAtomically(file.path, file.contents);
  const workers = [worker, leaseWorker].flatMap((w) => Object.keys(w.metafile.inputs));
  const inputs = [...Object.keys(server.metafile.inputs), ...workers, THIS_FILE, WASM_PLUGIN_FILE].filter(
    // Files only: not node_modules, not the wrappers of the packages loaded with `require`.
    (input) => !input.includes("node_modules/") && !input.startsWith("commonjs-package:"),
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
