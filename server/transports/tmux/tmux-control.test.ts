// The tmux adapter's pure helpers (table tests), and pipe-pane and the pane's size against a real,
// private tmux server.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { panePiped, paneSize, parsePaneSize, pipePane, probePaneSize, shellWords } from "./tmux-control.ts";

describe("parsePaneSize", () => {
  it.each([
    ["120x36\n", { cols: 120, rows: 36 }],
    [" 80x24 ", { cols: 80, rows: 24 }],
    ["0x24", null],
    ["80x", null],
    ["80 x 24", null],
    ["12345x24", null],
    ["", null],
  ])("%j -> %j", (text, size) => expect(parsePaneSize(text)).toEqual(size));
});

describe("shellWords", () => {
  it.each([
    [["node", "/a/b.js", "--x", "%3"], "node /a/b.js --x %3"],
    [["a b"], "'a b'"],
    [["it's"], `'it'\\''s'`],
    [[""], "''"],
    [["$HOME", "`id`", "a;b"], "'$HOME' '`id`' 'a;b'"],
  ])("%j -> %s", (words, line) => expect(shellWords(words)).toBe(line));

  it("gives sh back the very words", () => {
    const words = ["x y", "it's", "$HOME", "a\nb", "#1", "\\", "*"];
    const out = spawnSync("sh", ["-c", `printf '%s\\0' ${shellWords(words)}`], { encoding: "utf8" }).stdout;
    expect(out.split("\0").slice(0, -1)).toEqual(words);
  });
});

describe("pipe-pane and the pane's size (real tmux)", () => {
  const socket = `studyloop-test-pipe-${process.pid}`;
  const tmux = (...args: string[]) => spawnSync("tmux", ["-L", socket, ...args], { encoding: "utf8" });
  afterAll(() => void tmux("kill-server"));

  it("pipes what the pane's program writes into the command, even with # and quotes in its words", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "studyloop pipe #1 '"));
    const out = path.join(dir, "out #1.txt");
    expect(tmux("new-session", "-d", "-s", "p", "-x", "90", "-y", "20", "--", "sh").status).toBe(0);
    const pane = tmux("display-message", "-p", "-t", "=p:", "#{pane_id}").stdout.trim();
    expect(pipePane(pane, ["sh", "-c", 'cat > "$0"', out], { socket, stderrFile: path.join(dir, "errors #1.log") })).toBe(true);
    tmux("send-keys", "-t", pane, "echo piped-$((40+2))", "Enter");
    await expect.poll(() => (fs.existsSync(out) ? fs.readFileSync(out, "utf8") : ""), { timeout: 10_000 }).toContain("piped-42");
    expect(panePiped(pane, { socket })).toBe(true);
    expect(paneSize(pane, { socket })).toEqual({ cols: 90, rows: 20 });
    tmux("resize-window", "-t", "=p:", "-x", "101", "-y", "31");
    expect(await probePaneSize(pane, { socket })).toEqual({ cols: 101, rows: 31 });
    tmux("kill-session", "-t", "=p");
    expect(paneSize(pane, { socket })).toBeNull();
    expect(await probePaneSize(pane, { socket })).toBeNull();
    expect(pipePane(pane, ["cat"], { socket })).toBe(false);
    expect(panePiped(pane, { socket })).toBeNull();
  });

  it("notices a reader that went away (at the pane's next output)", async () => {
    expect(tmux("new-session", "-d", "-s", "q", "--", "sh").status).toBe(0);
    expect(pipePane("=q:", ["true"], { socket })).toBe(true);
    tmux("send-keys", "-t", "=q:", "echo nobody reads this", "Enter");
    await expect.poll(() => panePiped("=q:", { socket }), { timeout: 10_000 }).toBe(false);
    tmux("kill-session", "-t", "=q");
  });
});
