// A worker thread's script: its TypeScript entry bundled (esbuild) into one plain CommonJS script,
// evaluated by `new Worker(source, { eval: true })`. Worker threads do not inherit the tsx loader
// the sources run under, and registering it in every worker costs ~30 MB; a bundled script costs
// little. The compiled server (dist/server, scripts/server-bundle.mjs) has each one prebuilt beside
// its code; run from the sources, esbuild builds it on first use (~100 ms).
import fs from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const sources = new Map<string, string>();

/**
 * The script for the worker whose entry is `entry` (a .ts file's URL), prebuilt as `prebuilt` (a .cjs
 * file's URL beside the compiled server) when that exists. Cached per process.
 */
export function workerSource(entry: URL, prebuilt: URL): string {
  const key = entry.href;
  const known = sources.get(key);
  if (known !== undefined) return known;
  const built = fileURLToPath(prebuilt);
  let source: string;
  if (fs.existsSync(built)) source = fs.readFileSync(built, "utf8");
  else {
    const { buildSync } = createRequire(import.meta.url)("esbuild") as typeof import("esbuild");
    source = buildSync({
      entryPoints: [fileURLToPath(entry)],
      bundle: true,
      platform: "node",
      format: "cjs",
      target: "node20",
      write: false,
      logLevel: "silent",
    }).outputFiles[0]!.text;
  }
  sources.set(key, source);
  return source;
}
