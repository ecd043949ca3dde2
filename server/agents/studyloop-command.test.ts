import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { installCommand, launcherScript, shellQuote, withCommandOnPath } from "./studyloop-command.ts";

const dirs: string[] = [];
afterEach(() => {
  while (dirs.length) fs.rmSync(dirs.pop()!, { recursive: true, force: true });
});

describe("the studyloop launcher for agents", () => {
  it("quotes paths for sh", () => {
    expect(shellQuote("/a b/it's")).toBe(`'/a b/it'\\''s'`);
    expect(launcherScript("/usr/bin/node", "/x/bin/studyloop.js")).toContain(`exec '/usr/bin/node' '/x/bin/studyloop.js' "$@"`);
  });

  it("is written once into the data directory and runs this installation's CLI", () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "studyloop cmd '"));
    dirs.push(dataDir);
    const dir = installCommand(dataDir);
    expect(dir).toBe(path.join(dataDir, "bin"));
    const stat = fs.statSync(path.join(dir, "studyloop"));
    expect(stat.mode & 0o777).toBe(0o700);
    expect(installCommand(dataDir)).toBe(dir);
    const env = withCommandOnPath({ PATH: "/usr/bin:/bin" }, dir);
    const result = spawnSync("studyloop", ["--help"], { env: env as NodeJS.ProcessEnv, encoding: "utf8", timeout: 60_000 });
    expect(result.status).toBe(0);
    expect(result.stdout).toContain("park");
  });

  it("puts the folder first on PATH, once", () => {
    expect(withCommandOnPath({ PATH: "/d:/usr/bin" }, "/d").PATH).toBe("/d:/usr/bin");
    expect(withCommandOnPath({}, "/d").PATH).toBe("/d");
  });
});
