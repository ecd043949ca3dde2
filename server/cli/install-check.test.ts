// A start after an unfinished install (issue 40): one sentence, a non-zero exit, and nothing from
// esbuild or Next. The decision table-tested (bin/install-check.js); then real `studyloop web` and
// `npm run web` in copies of the project that lack parts of the install.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { INSTALL_PRODUCTS, checkInstall, unfinishedInstall } from "../../bin/install-check.js";
import { PROJECT_ROOT } from "../config/paths.ts";

const EVERYTHING = INSTALL_PRODUCTS.map((p) => p.paths[0]!);
const record = { node: "v20.20.2", abi: "115" };

describe("unfinishedInstall", () => {
  it.each([
    ["a finished install", EVERYTHING, record, null],
    ["a finished install made before the record existed", EVERYTHING, null, null],
    [
      "no node_modules",
      EVERYTHING.filter((p) => !p.startsWith("node_modules")),
      null,
      "The install did not finish (node_modules is missing or incomplete): run npm install.",
    ],
    [
      "node-pty not built",
      EVERYTHING.filter((p) => !p.includes("pty.node")),
      record,
      "The install did not finish (node-pty is not built): run npm install.",
    ],
    [
      "node-pty's own prebuilt for this platform",
      [
        ...EVERYTHING.filter((p) => !p.includes("pty.node")),
        `node_modules/node-pty/prebuilds/${process.platform}-${process.arch}/pty.node`,
      ],
      record,
      null,
    ],
    [
      "better-sqlite3 and the addon not built",
      EVERYTHING.filter((p) => !p.endsWith("better_sqlite3.node") && !p.includes("malloc_trim")),
      record,
      "The install did not finish (better-sqlite3 is not built; StudyLoop's memory addon (native/malloc-trim) is not built): run npm install.",
    ],
    [
      "the Prisma client not generated",
      EVERYTHING.filter((p) => !p.startsWith("server/db/generated/")),
      null,
      "The install did not finish (the Prisma client is not generated): run npm install.",
    ],
    [
      "made for another Node",
      EVERYTHING,
      { node: "v22.12.0", abi: "127" },
      "The install was made for Node v22.12.0 and this is Node v20.20.2, whose native modules differ: run npm install again.",
    ],
  ])("%s", (_name, present, installed, sentence) => {
    expect(unfinishedInstall((p) => present.includes(p), installed, "115", "v20.20.2")).toBe(sentence);
  });

  it("made for another Node, but rebuilt since (npm rebuild): the modules load, nothing to say", () => {
    let asked = 0;
    const loads = () => (asked++, true);
    expect(unfinishedInstall(() => true, { node: "v22.12.0", abi: "127" }, "115", "v20.20.2", loads)).toBeNull();
    expect(unfinishedInstall(() => true, record, "115", "v20.20.2", loads)).toBeNull();
    expect(asked).toBe(1); // asked only when the record names another Node
  });

  it("this project is installed", () => {
    expect(checkInstall(PROJECT_ROOT)).toBeNull();
  });
});

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

/** A copy of the project's command and package.json, with these of the install's files (empty files). */
function projectWith(files: readonly string[]): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "studyloop-unfinished-"));
  dirs.push(root);
  fs.cpSync(path.join(PROJECT_ROOT, "bin"), path.join(root, "bin"), { recursive: true });
  fs.copyFileSync(path.join(PROJECT_ROOT, "package.json"), path.join(root, "package.json"));
  for (const f of files) {
    fs.mkdirSync(path.dirname(path.join(root, f)), { recursive: true });
    fs.writeFileSync(path.join(root, f), "");
  }
  return root;
}

describe("starting after an unfinished install (real processes)", () => {
  it.each([
    ["a clone without npm install", [], "node_modules is missing or incomplete"],
    [
      "native modules that did not build",
      EVERYTHING.filter((p) => !p.endsWith(".node")),
      "node-pty is not built; better-sqlite3 is not built",
    ],
    ["a Prisma client not generated", EVERYTHING.filter((p) => !p.includes("generated")), "the Prisma client is not generated"],
  ])("%s: studyloop web and npm run web say so in one sentence and exit 1", (_name, files, why) => {
    const root = projectWith(files);
    const direct = spawnSync(process.execPath, [path.join(root, "bin", "studyloop.js"), "web", "--port", "0"], {
      encoding: "utf8",
      timeout: 60_000,
    });
    expect([direct.status, direct.stdout]).toEqual([1, ""]);
    expect(direct.stderr).toMatch(
      new RegExp(`^studyloop: The install did not finish \\(${why.replace(/[()]/g, "\\$&")}.*\\): run npm install\\.\\n$`),
    );

    const npm = spawnSync("npm", ["run", "web"], {
      cwd: root,
      encoding: "utf8",
      timeout: 60_000,
      env: { ...process.env, npm_config_update_notifier: "false" },
    });
    expect(npm.status).not.toBe(0);
    expect(npm.stderr).toContain("studyloop: The install did not finish");
    // npm's own lines, then ours: nothing of esbuild's or Next's.
    expect(`${npm.stdout}${npm.stderr}`).not.toMatch(/esbuild|ERROR:|next build|at .*\(.*:\d+:\d+\)/);
  });
});
