// PtyProcess against real programs: batching, pause with input still flowing, exit, kill, spawn errors.
import crypto from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { PtyBatching, PtyProcess, PtySpawnError, type PtyExit } from "./pty-process.ts";
import { delay, PROMPT, tutorOptions, until } from "./test-support.ts";

const processes: PtyProcess[] = [];

afterEach(() => {
  for (const p of processes.splice(0)) {
    p.kill("SIGKILL");
    p.dispose();
  }
});

function spawnTutor(): { pty: PtyProcess; chunks: string[]; text: () => string; exit: Promise<PtyExit> } {
  const pty = PtyProcess.spawn(tutorOptions());
  processes.push(pty);
  const chunks: string[] = [];
  pty.onData((data) => chunks.push(data));
  const exit = new Promise<PtyExit>((resolve) => pty.onExit(resolve));
  return { pty, chunks, text: () => chunks.join(""), exit };
}

describe("PtyProcess", () => {
  it("coalesces output into chunks no larger than the batch limit", async () => {
    const { pty, chunks, text } = spawnTutor();
    await until(() => text().includes(PROMPT));
    const before = chunks.length;
    pty.write("lines 20000\r"); // ~230 K chars written by the program in 16 K pieces
    await until(() => text().includes(`line 20000\r\n${PROMPT}`));
    const batches = chunks.slice(before);
    expect(Math.max(...batches.map((c) => c.length))).toBeLessThanOrEqual(PtyBatching.MAX_CHARS);
    // Far fewer chunks than the ~60 reads of 4 K the kernel hands over.
    expect(batches.length).toBeLessThan(40);
  });

  it("writes input while output is paused, and stops emitting until resumed", async () => {
    const { pty, text, exit } = spawnTutor();
    await until(() => text().includes(PROMPT));
    pty.pause();
    expect(pty.paused).toBe(true);
    const seen = text().length;
    pty.write("lines 3\r");
    await delay(300);
    expect(text().length).toBe(seen);
    pty.resume();
    await until(() => text().includes("line 3\r\n"));
    pty.pause();
    pty.write("exit 4\r"); // reaches the program although nobody reads its output
    expect(await exit).toEqual({ exitCode: 4 });
    expect(pty.exited).toBe(true);
    pty.write("ignored after exit");
    pty.resize(100, 30);
  });

  it("delivers input larger than the kernel's buffer whole and in order, to a program that reads late", async () => {
    // A paste the kernel cannot take at once waits in node-pty's queue for the program, which starts
    // reading only after 300 ms; what is typed behind it comes after it.
    const pty = PtyProcess.spawn({
      command: "/bin/sh",
      args: ["-c", "stty -echo; sleep 0.3; sha256sum"],
      cwd: "/",
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
      cols: 80,
      rows: 24,
    });
    processes.push(pty);
    let out = "";
    pty.onData((data) => (out += data));
    const exit = new Promise<PtyExit>((resolve) => pty.onExit(resolve));
    await delay(100); // stty has turned echo off
    const lines = Array.from({ length: 3000 }, (_, i) => `${String(i).padStart(6, "0")} ${"abcdefghij".repeat(6)}\n`);
    const paste = lines.join("");
    // In pieces, as strings and as bytes in turn.
    for (let i = 0; i * 7_000 < paste.length; i++) {
      const piece = paste.slice(i * 7_000, (i + 1) * 7_000);
      pty.write(i % 2 ? piece : Buffer.from(piece));
    }
    pty.write("last\n\x04");
    expect(await exit).toEqual({ exitCode: 0 });
    const expected = crypto.createHash("sha256").update(`${paste}last\n`).digest("hex");
    expect(out).toContain(expected);
  });

  it("tells a listener added after the exit, once", async () => {
    const { pty, exit } = spawnTutor();
    pty.write("exit 9\r");
    await exit;
    const heard: PtyExit[] = [];
    pty.onExit((e) => heard.push(e));
    const silenced = pty.onExit((e) => heard.push(e));
    silenced.dispose();
    await delay(10);
    expect(heard).toEqual([{ exitCode: 9 }]);
  });

  it("kills with a signal and reports it", async () => {
    const { pty, text, exit } = spawnTutor();
    await until(() => text().includes(PROMPT));
    pty.kill("SIGTERM");
    expect(await exit).toMatchObject({ signal: 15 });
    pty.kill(); // after the exit: never signals a group id that may have been reused
  });

  it("rejects an unknown signal name instead of swallowing it", async () => {
    const { pty, text } = spawnTutor();
    await until(() => text().includes(PROMPT));
    expect(() => pty.kill("SIGNOPE")).toThrow();
  });

  it("names the problem when the program cannot be started", () => {
    const base = tutorOptions();
    expect(() => PtyProcess.spawn({ ...base, command: "" })).toThrow(/no command was given/);
    expect(() => PtyProcess.spawn({ ...base, command: "./not-here" })).toThrow(PtySpawnError);
    expect(() => PtyProcess.spawn({ ...base, command: "not-on-path", env: { PATH: "/nonexistent" } })).toThrow(
      /no executable named not-on-path was found on PATH/,
    );
    expect(() => PtyProcess.spawn({ ...base, cwd: "/etc/passwd" })).toThrow(/is not a folder/);
    try {
      PtyProcess.spawn({ ...base, command: "/nonexistent/agent" });
    } catch (error) {
      expect(error).toBeInstanceOf(PtySpawnError);
      expect((error as PtySpawnError).command).toBe("/nonexistent/agent");
    }
  });

  it("finds a bare command on the PATH of the environment it is given", async () => {
    const pty = PtyProcess.spawn({ ...tutorOptions(), command: "sh", args: ["-c", "echo from-sh"] });
    processes.push(pty);
    let text = "";
    pty.onData((data) => (text += data));
    const exit = new Promise<PtyExit>((resolve) => pty.onExit(resolve));
    expect(await exit).toMatchObject({ exitCode: 0 });
    expect(text).toContain("from-sh");
  });
});
