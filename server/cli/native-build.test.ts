// An install that tells the truth (issue 40): a failed native build diagnosed from its log (table
// tests on real node-gyp logs made on this machine: fixtures/node-gyp/), the way out for each cause,
// the cache key of a reusable binary, and, with real node-gyp runs in a copy of the project, a build
// log of the install's own, a toolchain that lacks make named as such, and a binary built once then
// reused from the cache.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { diagnoseBuildLog, wayOut, type BuildDiagnosis } from "../../scripts/native-build-diagnosis.mjs";
import { cacheKey, took } from "../../scripts/build-native.mjs";
import { PROJECT_ROOT } from "../config/paths.ts";

const fixture = (name: string) => fs.readFileSync(path.join(import.meta.dirname, "fixtures", "node-gyp", `${name}.log`), "utf8");

describe("diagnoseBuildLog on real node-gyp logs", () => {
  it.each([
    ["python-missing", { cause: "python-missing", program: "python3" }],
    ["make-missing", { cause: "make-missing", program: "make" }],
    ["gxx-missing", { cause: "compiler-missing", program: "g++" }],
    // The issue's trap the other way round: prebuild-install's failed download is not the cause.
    ["prebuild-offline-then-make-missing", { cause: "make-missing", program: "make" }],
    ["nodedir-without-headers", { cause: "nodedir-without-headers", nodedir: "/nonexistent/node-headers" }],
    ["headers-offline", { cause: "headers-unreachable", url: "https://nodejs.org/download/release/v20.20.2/node-v20.20.2-headers.tar.gz" }],
    ["headers-econnrefused", { cause: "headers-unreachable", what: expect.stringContaining("(connect ECONNREFUSED 127.0.0.1:9)") }],
    [
      "compile-error",
      { cause: "compiler-error", lines: expect.arrayContaining(["../demo.cc:2:67: error: expected ‘;’ before ‘}’ token"]) },
    ],
  ])("%s", (name, expected) => {
    expect(diagnoseBuildLog(fixture(name))).toMatchObject(expected);
  });

  it("the compiler error starts at its first error line, with the function it is in", () => {
    const { lines } = diagnoseBuildLog(fixture("compile-error"));
    expect(lines[0]).toMatch(/In function/);
    expect(lines[1]).toMatch(/error: expected/);
    expect(lines.every((l) => !l.startsWith("make"))).toBe(true);
  });

  it.each([
    [
      "getaddrinfo (old node-gyp)",
      "gyp http GET https://nodejs.org/x-headers.tar.gz\ngyp ERR! stack FetchError: request failed, reason: getaddrinfo ENOTFOUND nodejs.org",
      /ENOTFOUND/,
    ],
    ["an unknown failure", "gyp ERR! configure error\ngyp ERR! stack Error: something new", null],
  ])("%s", (_name, log, reason) => {
    const d = diagnoseBuildLog(log);
    if (reason) expect(d).toMatchObject({ cause: "headers-unreachable", what: expect.stringMatching(reason) });
    else expect(d).toMatchObject({ cause: "unknown", lines: ["gyp ERR! configure error", "gyp ERR! stack Error: something new"] });
  });
});

describe("wayOut", () => {
  const headers: BuildDiagnosis = { cause: "headers-unreachable", what: "", lines: [], url: "https://nodejs.org/x" };
  it.each([
    ["headers of this Node found", headers, [{ nodedir: "/usr", version: "20.20.2" }], /^ {2}npm_config_nodedir=\/usr npm install$/m],
    [
      "none found: the distro's package or the tarball",
      headers,
      [],
      /libnode-dev[\s\S]*node-v20\.20\.2-headers\.tar\.gz[\s\S]*HTTPS_PROXY/,
    ],
    [
      "another Node's headers are named as not this one's",
      headers,
      [{ nodedir: "/usr", version: "18.20.4" }],
      /holds headers for v18\.20\.4, not this Node's v20\.20\.2/,
    ],
    [
      "a nodedir without headers",
      { ...headers, cause: "nodedir-without-headers" },
      [],
      /^(?![\s\S]*HTTPS_PROXY)[\s\S]*npm_config_nodedir=\/path/,
    ],
    ["the toolchain", { ...headers, cause: "make-missing" }, [], /apt-get install -y python3 make g\+\+/],
    ["a compiler error", { ...headers, cause: "compiler-error" }, [], /g\+\+ --version/],
  ] as const)("%s", (_name, diagnosis, found, pattern) => {
    const text = wayOut(diagnosis, { nodeVersion: "20.20.2", headers: [...found] }).join("\n");
    expect(text).toMatch(pattern);
    expect(text).toMatch(/npm install/);
  });
});

describe("the cache key and the time", () => {
  const runtime = { abi: "115", platform: "linux", arch: "x64", glibc: "2.36" };
  it.each([
    [runtime, "better-sqlite3-12.11.1-node-abi115-linux-x64-glibc2.36"],
    [{ ...runtime, abi: "127" }, "better-sqlite3-12.11.1-node-abi127-linux-x64-glibc2.36"],
    [{ ...runtime, glibc: undefined }, "better-sqlite3-12.11.1-node-abi115-linux-x64-musl"],
    [{ ...runtime, platform: "darwin", arch: "arm64", glibc: undefined }, "better-sqlite3-12.11.1-node-abi115-darwin-arm64-native"],
  ])("%j", (r, key) => {
    expect(cacheKey("better-sqlite3", "12.11.1", r)).toBe(key);
  });

  it.each([
    [400, "0 s"],
    [59_400, "59 s"],
    [65_000, "1 min 5 s"],
    [3_725_000, "62 min 5 s"],
  ])("%i ms is %s", (ms, text) => expect(took(ms)).toBe(text));
});

// Real node-gyp in a copy of the project that has only our addon: a build log of its own, make missing
// named, a good build kept in the cache and taken back by the next install.
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

function projectCopy(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "studyloop-install-"));
  dirs.push(root);
  fs.mkdirSync(path.join(root, "scripts"));
  for (const f of ["build-native.mjs", "native-build-diagnosis.mjs"])
    fs.copyFileSync(path.join(PROJECT_ROOT, "scripts", f), path.join(root, "scripts", f));
  fs.mkdirSync(path.join(root, "native", "malloc-trim"), { recursive: true });
  for (const f of ["malloc_trim.c", "binding.gyp", "package.json"]) {
    fs.copyFileSync(path.join(PROJECT_ROOT, "native", "malloc-trim", f), path.join(root, "native", "malloc-trim", f));
  }
  fs.mkdirSync(path.join(root, "node_modules"));
  return root;
}

/** A PATH of only these programs (found on this machine's PATH), for a toolchain that lacks the others. */
function pathOf(programs: string[]): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "studyloop-path-"));
  dirs.push(dir);
  for (const p of programs) {
    const found = (process.env.PATH ?? "")
      .split(path.delimiter)
      .map((d) => path.join(d, p))
      .find((f) => fs.existsSync(f));
    if (found) fs.symlinkSync(fs.realpathSync(found), path.join(dir, p));
  }
  // pyenv's python3 is a shim that needs pyenv: link the interpreter itself.
  const python = spawnSync("python3", ["-c", "import sys; print(sys.executable)"], { encoding: "utf8" }).stdout.trim();
  if (python) fs.symlinkSync(python, path.join(dir, "python3"));
  return dir;
}

const npmCli = () => {
  const npm = (process.env.PATH ?? "")
    .split(path.delimiter)
    .map((d) => path.join(d, "npm"))
    .find((f) => fs.existsSync(f))!;
  return path.join(path.dirname(fs.realpathSync(npm)), "npm-cli.js");
};

function buildIn(root: string, env: Record<string, string>) {
  const result = spawnSync(process.execPath, [path.join(root, "scripts", "build-native.mjs")], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, npm_execpath: npmCli(), npm_config_update_notifier: "false", ...env },
    timeout: 180_000,
  });
  return { status: result.status, out: result.stdout, err: result.stderr };
}

describe("build-native.mjs with real node-gyp", () => {
  const TOOLS = [
    "sh",
    "node",
    "rm",
    "mkdir",
    "cat",
    "sed",
    "uname",
    "dirname",
    "basename",
    "tr",
    "ln",
    "cp",
    "mv",
    "printf",
    "touch",
    "flock",
    "echo",
    "env",
  ];

  it("a toolchain without make: named, with the way out, and the log in the install's own folder", () => {
    const root = projectCopy();
    const result = buildIn(root, { PATH: pathOf([...TOOLS, "cc", "gcc", "g++", "ld", "as"]), STUDYLOOP_NATIVE_CACHE: "off" });
    expect(result.status).toBe(1);
    expect(result.err).toContain("malloc-trim (gives the server's free memory back) did not build (1 of 1 finished).");
    expect(result.err).toContain("Why: node-gyp found no `make` to run the build.");
    expect(result.err).toContain("apt-get install -y python3 make g++");
    const log = path.join(root, "node_modules", ".studyloop", "build-logs", "malloc-trim.log");
    expect(result.err).toContain(`The whole log: ${log}`);
    expect(fs.readFileSync(log, "utf8")).toContain("gyp ERR! stack Error: not found: make");
  });

  it("builds once, keeps the binary, and the next install of the same Node reuses it, saying so", () => {
    const root = projectCopy();
    const cache = path.join(root, "cache");
    const first = buildIn(root, { STUDYLOOP_NATIVE_CACHE: cache });
    expect(first.err).toBe("");
    expect(first.status).toBe(0);
    expect(first.out).toMatch(/malloc-trim \(gives the server's free memory back\): built from source in \d+ s \(1 of 1 done\)\./);
    const kept = fs.readdirSync(cache);
    expect(kept).toEqual([expect.stringMatching(new RegExp(`^malloc-trim-src[0-9a-f]{12}-node-abi${process.versions.modules}-`))]);

    const again = buildIn(root, { STUDYLOOP_NATIVE_CACHE: cache });
    expect(again.out).toContain("malloc-trim (gives the server's free memory back): already loads in this Node");

    fs.rmSync(path.join(root, "native", "malloc-trim", "build"), { recursive: true });
    const fresh = buildIn(root, { STUDYLOOP_NATIVE_CACHE: cache, PATH: pathOf(TOOLS) });
    expect(fresh.status).toBe(0);
    expect(fresh.out).toContain(
      `malloc-trim (gives the server's free memory back): reused the binary built earlier on this machine for this Node (${path.join(cache, kept[0]!)}).`,
    );
  });
});
