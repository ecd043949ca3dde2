// Whether the production build in .next is older than the sources it was built from: after a
// `git pull` or an edit, `studyloop web` rebuilds instead of serving the old pages. Files' modified
// times decide (git and editors set them when they write); the walk is pure over a small fs port.
import fs from "node:fs";
import path from "node:path";

/** What the build is made of, relative to the project root: folders are walked, files read. */
export const BUILD_INPUTS = [
  "app",
  "common",
  "server",
  "public",
  "next.config.ts",
  "tsconfig.json",
  "package.json",
  "package-lock.json",
] as const;
/** Never part of a page: tests, and the CLI (compiled with the server instead: scripts/server-bundle.mjs). */
const NOT_BUILT = /(\.test\.tsx?$|(^|\/)server\/cli\/)/;

export interface FsPort {
  stat(file: string): { mtimeMs: number; isDirectory(): boolean } | undefined;
  list(dir: string): string[];
}

export const nodeFs: FsPort = {
  stat: (file) => {
    try {
      return fs.statSync(file);
    } catch {
      return undefined;
    }
  },
  list: (dir) => fs.readdirSync(dir),
};

/** The newest modified time among the build's inputs under `root` (0 when there are none). */
export function newestInput(root: string, port: FsPort = nodeFs): number {
  let newest = 0;
  const visit = (rel: string) => {
    if (NOT_BUILT.test(rel)) return;
    const stat = port.stat(path.join(root, rel));
    if (!stat) return;
    if (stat.isDirectory()) {
      for (const name of port.list(path.join(root, rel))) visit(`${rel}/${name}`);
    } else newest = Math.max(newest, stat.mtimeMs);
  };
  for (const input of BUILD_INPUTS) visit(input);
  return newest;
}

export type BuildVerdict = "missing" | "stale" | "fresh";

/** Whether `.next/BUILD_ID` exists and is newer than every input. */
export function buildVerdict(root: string, port: FsPort = nodeFs): BuildVerdict {
  const built = port.stat(path.join(root, ".next", "BUILD_ID"));
  if (!built) return "missing";
  return newestInput(root, port) > built.mtimeMs ? "stale" : "fresh";
}
