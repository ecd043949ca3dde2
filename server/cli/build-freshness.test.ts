import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { buildVerdict, newestInput } from "./build-freshness.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** A project folder with files at given modified times (seconds since the epoch). */
function project(files: Record<string, number>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "studyloop-build-"));
  dirs.push(root);
  for (const [rel, seconds] of Object.entries(files)) {
    const file = path.join(root, rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, rel);
    fs.utimesSync(file, seconds, seconds);
  }
  return root;
}

describe("buildVerdict", () => {
  it.each([
    ["no build yet", { "app/page.tsx": 100 }, "missing"],
    ["built after every source", { "app/page.tsx": 100, "server/x.ts": 150, ".next/BUILD_ID": 200 }, "fresh"],
    ["a page changed since", { "app/page.tsx": 300, ".next/BUILD_ID": 200 }, "stale"],
    ["a server module changed since", { "server/study/timer.ts": 300, ".next/BUILD_ID": 200 }, "stale"],
    ["a browser-safe common/ module changed since", { "common/timer.ts": 300, ".next/BUILD_ID": 200 }, "stale"],
    ["the lockfile changed since (npm install)", { "package-lock.json": 300, ".next/BUILD_ID": 200 }, "stale"],
    ["a public icon changed since", { "public/icon-192.png": 300, ".next/BUILD_ID": 200 }, "stale"],
    ["only a test changed", { "app/x.test.ts": 300, "app/page.tsx": 100, ".next/BUILD_ID": 200 }, "fresh"],
    ["only the CLI changed (run from source)", { "server/cli/web.ts": 300, ".next/BUILD_ID": 200 }, "fresh"],
    ["only docs changed", { "docs/a.md": 300, "README.md": 300, ".next/BUILD_ID": 200 }, "fresh"],
  ])("%s: %s", (_name, files, verdict) => {
    expect(buildVerdict(project(files))).toBe(verdict);
  });

  it("finds the newest input in nested folders", () => {
    expect(newestInput(project({ "app/a/b/c.tsx": 50, "app/d.tsx": 40, "e2e/x.spec.ts": 90 }))).toBe(50_000);
  });
});
