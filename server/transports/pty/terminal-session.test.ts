// TerminalSession against real node-pty processes (the test tutor, bash): viewers, replay, resume,
// input, resize policy, exit, kill, spawn errors. No mocks.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { PtySpawnError } from "./pty-process.ts";
import { MirrorThread } from "./mirror-thread.ts";
import { TerminalSession, TerminalSessionLimits } from "./terminal-session.ts";
import { delay, gapsAndDuplicates, PROMPT, TestViewer, tutorOptions, until, type AckMode } from "./test-support.ts";

const sessions: TerminalSession[] = [];
const viewers: TestViewer[] = [];

afterEach(() => {
  for (const viewer of viewers.splice(0)) viewer.dispose();
  for (const session of sessions.splice(0)) session.dispose();
});

/** A bash -c script in a session this file disposes of after each test. */
function startBash(script: string): TerminalSession {
  const session = TerminalSession.start({
    command: "bash",
    args: ["-c", script],
    cwd: "/",
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
    cols: 80,
    rows: 24,
  });
  sessions.push(session);
  return session;
}
function startTutor(extra: Parameters<typeof tutorOptions>[0] = {}): TerminalSession {
  const session = TerminalSession.start(tutorOptions(extra));
  sessions.push(session);
  return session;
}

/** A mirror whose worker parses output (acks it) but dies when asked for the screen. */
function failingMirror(size: { cols: number; rows: number }): MirrorThread {
  return new MirrorThread(size.cols, size.rows, {
    log: () => undefined,
    workerSource: `const { parentPort } = require("node:worker_threads");
      parentPort.on("message", (m) => {
        if (m.type === "write") parentPort.postMessage({ type: "parsed", writes: 1 });
        if (m.type === "snapshot" || m.type === "preview") process.exit(3);
      });`,
  });
}

function viewer(session: TerminalSession, id: string, ackMode: AckMode = "parse"): TestViewer {
  const v = new TestViewer(id, session, ackMode);
  viewers.push(v);
  return v;
}

/** Running means neither gone nor a zombie waiting for its new parent to reap it (Linux /proc). */
function isRunning(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

function exited(session: TerminalSession): Promise<{ exitCode: number; signal?: number }> {
  return new Promise((resolve) => session.onExit(resolve));
}

describe("TerminalSession", () => {
  it("sends the same output to two viewers, and input from either reaches the agent", async () => {
    const session = startTutor({ env: { STUDYLOOP_TEST_VALUE: "forty-two" } });
    const laptop = viewer(session, "laptop");
    const phone = viewer(session, "phone");
    await laptop.attach();
    await phone.attach();
    expect(session.viewerCount).toBe(2);
    await laptop.waitFor(PROMPT);
    await phone.waitFor(PROMPT);

    session.input("phone", "hello from the phone\r");
    await laptop.waitFor("you said: hello from the phone");
    await phone.waitFor("you said: hello from the phone");

    const mark = laptop.position;
    session.input("laptop", "env STUDYLOOP_TEST_VALUE\r");
    await phone.waitFor("forty-two");
    await laptop.waitFor(new RegExp(`forty-two\\r\\n${PROMPT}`), { from: mark });

    // Both saw the same stream after their replay: the same seqs, contiguous.
    const first = (v: TestViewer) => v.replays[0]!.seq + 1;
    expect(gapsAndDuplicates(laptop.outputSeqs, first(laptop))).toEqual([]);
    expect(gapsAndDuplicates(phone.outputSeqs, first(phone))).toEqual([]);
    expect(laptop.outputSeqs.at(-1)).toBe(session.lastSeq);
    expect(phone.outputSeqs.at(-1)).toBe(session.lastSeq);
  });

  it("gives a viewer attaching mid-stream one replay, then contiguous chunks, and the same screen", async () => {
    const session = startTutor();
    const first = viewer(session, "first");
    await first.attach();
    await first.waitFor(PROMPT);
    session.input("first", "lines 60000\r");
    await first.waitFor("line 2000\r\n");

    // Attach several viewers while output is flowing: each gets exactly one replay first.
    const late: TestViewer[] = [];
    let queuedDuringSnapshot = 0;
    for (let i = 0; i < 5; i++) {
      const v = viewer(session, `late-${i}`);
      late.push(v);
      await v.attach();
      expect(v.frames[0]?.type).toBe("replay");
      queuedDuringSnapshot += v.outputSeqs.length; // chunks that arrived while its snapshot was taken
      await delay(20);
    }
    const end = new RegExp(`line 60000\\r\\n${PROMPT}`);
    await first.waitFor(end, { timeoutMs: 20_000 });
    for (const v of late) await v.waitFor(end, { timeoutMs: 20_000 });

    await first.flush();
    const expectedScreen = first.screenLines();
    expect(expectedScreen.at(-24)).toBeDefined();
    for (const v of late) {
      expect(v.replays).toHaveLength(1);
      expect(gapsAndDuplicates(v.outputSeqs, v.replays[0]!.seq + 1)).toEqual([]);
      await v.flush();
      // Replay + chunks rebuilt exactly what a viewer that saw everything has (scrollback included).
      expect(v.screenLines()).toEqual(expectedScreen);
    }
    // The attach handshake was exercised with output arriving during the snapshot at least once.
    expect(queuedDuringSnapshot).toBeGreaterThan(0);
  });

  it("registers a viewer the moment attachNow returns: its input is taken before its replay is sent", async () => {
    const session = startTutor();
    const first = viewer(session, "first");
    await first.attach();
    await first.waitFor(PROMPT);
    session.input("first", "lines 3000\r");
    await first.waitFor(`line 3000\r\n${PROMPT}`);
    session.detach("first");

    const page = viewer(session, "page");
    const { replayed } = session.attachNow(page.id, page.send);
    expect(session.viewerCount).toBe(1);
    expect(page.frames).toEqual([]); // the snapshot is still being taken
    session.input("page", "typed at once\r");
    await replayed;
    expect(page.frames[0]?.type).toBe("replay");
    await page.waitFor("you said: typed at once");
    expect(gapsAndDuplicates(page.outputSeqs, page.replays[0]!.seq + 1)).toEqual([]);
  });

  it("rejects attachNow at once on a closed session, registering nobody", () => {
    const session = startTutor();
    session.dispose();
    expect(() => session.attachNow("late", () => undefined)).toThrow(/Could not attach/);
    expect(session.viewerCount).toBe(0);
  });

  it("resumes from sinceSeq with only the missing chunks, and replays when they are gone", async () => {
    const session = startTutor();
    const laptop = viewer(session, "laptop");
    await laptop.attach();
    await laptop.waitFor(PROMPT);
    session.input("laptop", "lines 5\r");
    await laptop.waitFor(`line 5\r\n${PROMPT}`);
    const seen = laptop.lastSeq!;
    session.detach("laptop");
    expect(session.viewerCount).toBe(0);

    // Output while it is away (a short network drop).
    const watcher = viewer(session, "watcher");
    await watcher.attach();
    session.input("watcher", "lines 40\r");
    await watcher.waitFor(`line 40\r\n${PROMPT}`);

    const back = viewer(session, "laptop");
    await back.attach({ sinceSeq: seen });
    expect(back.replays).toHaveLength(0);
    expect(back.outputSeqs[0]).toBe(seen + 1);
    expect(back.outputSeqs.at(-1)).toBe(session.lastSeq);
    expect(gapsAndDuplicates(back.outputSeqs, seen + 1)).toEqual([]);
    expect(back.text()).toContain("line 40");
    expect(back.text()).not.toContain(`${PROMPT}lines 5\r\n`); // seen before the drop

    // Up to date already: nothing is sent, and it is live.
    const current = viewer(session, "current");
    await current.attach({ sinceSeq: session.lastSeq });
    expect(current.frames).toEqual([]);
    session.input("current", "ping\r");
    await current.waitFor("you said: ping");

    // A seq from the future (another server's numbers) gets a replay, not silence.
    const confused = viewer(session, "confused");
    await confused.attach({ sinceSeq: session.lastSeq + 1_000 });
    expect(confused.frames[0]?.type).toBe("replay");

    // More than the ring holds goes by: the chunks after `seen` are gone, so a replay instead.
    const lines = Math.ceil(TerminalSessionLimits.REPLAY_BUFFER_CHARS / "line 100000\r\n".length) + 20_000;
    session.input("watcher", `lines ${lines}\r`);
    await watcher.waitFor(new RegExp(`line ${lines}\\r\\n${PROMPT}`), { timeoutMs: 20_000 });
    const late = viewer(session, "late");
    await late.attach({ sinceSeq: seen });
    expect(late.frames[0]?.type).toBe("replay");
    expect(late.replays[0]!.seq).toBe(session.lastSeq);
  });

  it("reports the exit code after the last output", async () => {
    const session = startTutor();
    const laptop = viewer(session, "laptop");
    await laptop.attach();
    await laptop.waitFor(PROMPT);
    const exit = exited(session);
    session.input("laptop", "lines 3\rexit 7\r");
    expect(await exit).toMatchObject({ exitCode: 7 });
    expect(laptop.text()).toContain("line 3");
    expect(session.exitStatus?.exitCode).toBe(7);
    // A listener added after the exit still hears it; the screen can still be read.
    expect(await exited(session)).toMatchObject({ exitCode: 7 });
    expect(await session.snapshotTranscript()).toContain("line 3");
    // Input after the exit is ignored rather than thrown.
    session.input("laptop", "too late\r");
  });

  it("reports an exit that happens while output is paused", async () => {
    const session = startTutor();
    const silent = viewer(session, "silent", "never");
    await silent.attach();
    await silent.waitFor(PROMPT);
    // About 130 K chars: past the high watermark (the silent viewer pauses output), then an exit.
    // What the program wrote and we had not read when it exited may be lost (pty-process.ts, pause).
    const exit = exited(session);
    session.input("silent", "lines 11000\rexit 3\r");
    expect(await exit).toMatchObject({ exitCode: 3 });
    expect(await session.snapshotTranscript()).toContain("line 5000\r\n");
  });

  it("sizes the terminal for the active device: the first to report, then whoever typed or asked", async () => {
    const session = startTutor();
    const laptop = viewer(session, "laptop");
    const phone = viewer(session, "phone");
    await laptop.attach();
    await laptop.waitFor(PROMPT);
    session.resize("laptop", { cols: 120, rows: 40, device: "laptop" });
    // The first size reported to a terminal nobody has claimed: the page that started the session.
    expect({ cols: session.cols, rows: session.rows }).toEqual({ cols: 120, rows: 40 });
    await phone.attach();
    session.resize("phone", { cols: 50, rows: 20, device: "phone" });
    // A late attach reports its size and takes nothing.
    expect({ cols: session.cols, rows: session.rows }).toEqual({ cols: 120, rows: 40 });
    // Focus reports are automatic: they claim nothing either.
    session.input("phone", "\x1b[I");
    expect(session.cols).toBe(120);

    let mark = phone.position;
    session.input("phone", "\x15size\r"); // Ctrl-U first: the focus report went into the line
    await phone.waitFor("size 50x20", { from: mark });
    expect(laptop.frames.filter((f) => f.type === "resize").at(-1)).toMatchObject({ cols: 50, rows: 20, sizedFor: "phone" });

    // "Fit to this screen" takes it back without typing.
    session.fit("laptop");
    expect({ cols: session.cols, rows: session.rows }).toEqual({ cols: 120, rows: 40 });
    mark = laptop.position;
    session.input("laptop", "size\r");
    await laptop.waitFor("size 120x40", { from: mark });

    // The active device leaves: the others keep the size they see.
    session.input("phone", "\r");
    session.detach("phone");
    expect({ cols: session.cols, rows: session.rows }).toEqual({ cols: 50, rows: 20 });
    session.fit("laptop");

    // A replay after a resize carries the size it was taken at.
    const late = viewer(session, "late");
    await late.attach();
    expect(late.replays[0]).toMatchObject({ cols: 120, rows: 40 });
  });

  it("shows a late viewer the full-screen program it joins", async () => {
    const session = startTutor();
    const laptop = viewer(session, "laptop");
    await laptop.attach();
    await laptop.waitFor(PROMPT);
    session.input("laptop", "fullscreen\r");
    await laptop.waitFor("FULLSCREEN BOX");

    const phone = viewer(session, "phone");
    await phone.attach();
    await phone.flush();
    expect(phone.terminal!.buffer.active.type).toBe("alternate");
    expect(phone.screenLines().join("\n")).toContain("FULLSCREEN BOX: press q to leave");

    const mark = phone.position;
    session.input("phone", "q");
    await phone.waitFor(PROMPT, { from: mark });
    await phone.flush();
    expect(phone.terminal!.buffer.active.type).toBe("normal");
    // The transcript has no modes in it and no alternate-screen switch left on.
    expect(await session.snapshotTranscript()).not.toContain("\x1b[?1049h");
  });

  it("kills the whole process group", async () => {
    const session = startBash('sleep 300 & echo "child=$!"; wait');
    const watcher = viewer(session, "watcher");
    await watcher.attach();
    await watcher.waitFor(/child=\d+/);
    const child = Number(/child=(\d+)/.exec(watcher.text())![1]);
    const exit = exited(session);
    session.kill();
    await exit;
    const deadline = Date.now() + 5_000;
    while (isRunning(child) && Date.now() < deadline) await delay(20);
    expect(isRunning(child)).toBe(false);
  });

  it("escalates to SIGKILL when the program ignores SIGHUP", async () => {
    const session = startBash("trap '' HUP; echo ready; while :; do sleep 1; done");
    const watcher = viewer(session, "watcher");
    await watcher.attach();
    await watcher.waitFor("ready");
    const exit = exited(session);
    const killedAt = Date.now();
    session.kill();
    expect(await exit).toMatchObject({ signal: 9 });
    expect(Date.now() - killedAt).toBeGreaterThanOrEqual(TerminalSessionLimits.KILL_GRACE_MS - 100);
  }, 20_000);

  it("stops sending to a viewer that falls too far behind, then resyncs it with one replay", async () => {
    const session = startTutor();
    const laptop = viewer(session, "laptop");
    const phone = viewer(session, "phone", "manual");
    await laptop.attach();
    await phone.attach();
    await laptop.waitFor(PROMPT);
    phone.ackPending();

    // ~1.3 M chars: more than the phone may lag (MAX_LAG_CHARS) while the laptop keeps output flowing.
    session.input("laptop", "lines 110000\r");
    await laptop.waitFor(new RegExp(`line 110000\\r\\n${PROMPT}`), { timeoutMs: 20_000 });
    expect(session.bufferStats().stalledViewers).toEqual(["phone"]);
    expect(phone.text()).not.toContain("line 110000");
    const outputsBeforeCatchUp = phone.outputSeqs.length;

    // The phone catches up on what it was sent: it gets one fresh snapshot of the current screen...
    phone.ackPending();
    await phone.waitFor(`line 110000\r\n${PROMPT}`);
    expect(phone.replays).toHaveLength(2);
    expect(phone.replays[1]!.seq).toBe(session.lastSeq);
    expect(phone.outputSeqs.length).toBe(outputsBeforeCatchUp);
    expect(session.bufferStats().stalledViewers).toEqual([]);

    // ...and is live again, contiguous from the snapshot.
    phone.ackPending();
    session.input("phone", "back online\r");
    await phone.waitFor("you said: back online");
    expect(gapsAndDuplicates(phone.outputSeqs.slice(outputsBeforeCatchUp), phone.replays[1]!.seq + 1)).toEqual([]);
  }, 30_000);

  it("tells a viewer whose replay cannot be made and detaches it; output goes on to the others", async () => {
    const session = TerminalSession.start({ ...tutorOptions(), mirror: failingMirror, log: () => undefined });
    sessions.push(session);
    const laptop = viewer(session, "laptop");
    await expect(laptop.attach()).rejects.toThrow(/exited with code 3/);
    expect(laptop.frames.at(-1)).toEqual({ type: "detached", seq: session.lastSeq });
    expect(session.viewerCount).toBe(0);

    // A page back from a short drop needs no replay: it resumes, and the program is not held back.
    const phone = viewer(session, "phone", "manual");
    await phone.attach({ sinceSeq: 0 });
    session.input("phone", "still here\r");
    await phone.waitFor("you said: still here");
    phone.ackPending();

    // Stalled, then caught up: its resync needs a replay, which fails too: told and detached, not left
    // waiting with its output queued.
    session.input("phone", "lines 110000\r");
    await until(() => session.bufferStats().stalledViewers.includes("phone"), 20_000);
    const seq = session.lastSeq;
    session.input("phone", "missed\r"); // output it is not sent while stalled: it will need a replay
    await until(() => session.lastSeq > seq);
    phone.ackPending();
    await until(() => phone.frames.at(-1)?.type === "detached", 10_000);
    expect(session.viewerCount).toBe(0);
    expect(session.bufferStats().viewerUnackedChars).toBe(0);
  }, 30_000);

  it("makes the mirror again from the replay ring when its worker fails: a page attaching again gets the screen", async () => {
    const logged: string[] = [];
    let made = 0;
    const session = TerminalSession.start({
      ...tutorOptions(),
      log: (line) => logged.push(line),
      mirror: (size, log) => (made++ === 0 ? failingMirror(size) : new MirrorThread(size.cols, size.rows, { log })),
    });
    sessions.push(session);
    // Sees all output from the start without a replay (a resume from 0): the screen to compare with.
    const watcher = viewer(session, "watcher");
    await watcher.attach({ sinceSeq: 0 });
    session.input("watcher", "before the failure\r");
    await watcher.waitFor("you said: before the failure");
    await until(() => watcher.text().endsWith(PROMPT));

    const laptop = viewer(session, "laptop");
    await expect(laptop.attach()).rejects.toThrow(/exited with code 3/);
    expect(laptop.frames.at(-1)?.type).toBe("detached");
    expect(made).toBe(2);
    expect(logged.some((line) => line.startsWith("The terminal's mirror failed"))).toBe(true);

    // Attached again (as the page does once): one replay of the rebuilt mirror, the same screen.
    await laptop.attach();
    expect(laptop.replays).toHaveLength(1);
    await Promise.all([laptop.flush(), watcher.flush()]);
    expect(laptop.screenLines()).toEqual(watcher.screenLines());
    session.input("laptop", "after\r");
    await laptop.waitFor("you said: after");
    await watcher.waitFor("you said: after");
  });

  it("a rebuilt mirror does not answer the old output's queries again, and answers new ones", async () => {
    // The program asks for the cursor's position once, then logs every byte it is given and asks
    // again whenever it is given "q".
    const log = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "studyloop-replies-")), "input.log");
    let made = 0;
    const session = TerminalSession.start({
      command: "bash",
      args: [
        "-c",
        `stty raw -echo; printf 'ready\\033[6n'; while IFS= read -r -n1 -d '' c; do printf '%s' "$c" >> ${log}; [ "$c" = q ] && printf '\\033[6n'; done`,
      ],
      cwd: "/",
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
      cols: 80,
      rows: 24,
      log: () => undefined,
      // The first mirror answers nothing and fails when asked for the screen: the query stays unanswered.
      mirror: (size, log) => (made++ === 0 ? failingMirror(size) : new MirrorThread(size.cols, size.rows, { log })),
    });
    sessions.push(session);
    const laptop = viewer(session, "laptop");
    await until(() => session.lastSeq > 0);
    await expect(laptop.attach()).rejects.toThrow(/exited with code 3/);
    await laptop.attach(); // the rebuilt mirror has parsed the old output, query included
    expect(made).toBe(2);
    session.input("laptop", "q");
    await until(() => fs.existsSync(log) && /R/.test(fs.readFileSync(log, "utf8")), 10_000);
    await delay(300); // a late answer to the old query would land here
    const got = fs.readFileSync(log, "utf8");
    expect(got).toMatch(/^q\x1b\[\d+;\d+R$/);
    fs.rmSync(path.dirname(log), { recursive: true, force: true });
  });

  it("keeps a viewer's size and typing order when it re-attaches", async () => {
    const session = startTutor();
    const laptop = viewer(session, "laptop");
    const phone = viewer(session, "phone");
    await laptop.attach();
    await phone.attach();
    session.resize("laptop", { cols: 120, rows: 40 });
    session.resize("phone", { cols: 50, rows: 20 });
    session.input("phone", "\r");
    session.input("laptop", "\r");
    expect(session.cols).toBe(120);
    await laptop.attach({ sinceSeq: laptop.lastSeq });
    session.resize("phone", { cols: 60, rows: 20 }); // the phone re-reports; the laptop is still the last typist
    expect({ cols: session.cols, rows: session.rows }).toEqual({ cols: 120, rows: 40 });
  });

  it("refuses to start a program that cannot be started, with a plain sentence", () => {
    const base = tutorOptions();
    expect(() => TerminalSession.start({ ...base, command: "/nonexistent/agent" })).toThrow(PtySpawnError);
    expect(() => TerminalSession.start({ ...base, command: "no-such-agent-studyloop" })).toThrow(
      /Could not start no-such-agent-studyloop: no executable named no-such-agent-studyloop was found on PATH/,
    );
    expect(() => TerminalSession.start({ ...base, cwd: "/nonexistent/folder" })).toThrow(/does not exist/);
    const notExecutable = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "studyloop-pty-")), "notes.txt");
    fs.writeFileSync(notExecutable, "not a program\n", { mode: 0o644 });
    expect(() => TerminalSession.start({ ...base, command: notExecutable })).toThrow(/not executable/);
    fs.rmSync(path.dirname(notExecutable), { recursive: true, force: true });
  });

  it("refuses to attach after dispose and ignores late calls", async () => {
    const session = startTutor();
    const laptop = viewer(session, "laptop");
    await laptop.attach();
    session.dispose();
    expect(session.viewerCount).toBe(0);
    await expect(laptop.attach()).rejects.toThrow(/Could not attach/);
    session.input("laptop", "x");
    session.ack("laptop", 10);
    session.resize("laptop", { cols: 10, rows: 10 });
  });

  it("answers the program's terminal queries once, with no viewer attached, and from the mirror's screen", async () => {
    const session = startTutor();
    const laptop = viewer(session, "laptop");
    await laptop.attach();
    await laptop.waitFor(PROMPT);
    session.detach("laptop");
    // The test tutor's "query" command sends DA1, CPR and OSC 11 and prints what came back.
    const again = viewer(session, "again");
    session.input("nobody", "query\r");
    await again.attach();
    await again.waitFor(/answers: .*\[\?1;2c.*\[\d+;\d+R.*\]11;rgb:1010\/1212\/1515/);
    expect(again.text().match(/\[\?1;2c/g)).toHaveLength(1);
  });

  it("detaches a viewer whose send throws, and keeps serving the others", async () => {
    const logged: string[] = [];
    const session = TerminalSession.start({ ...tutorOptions(), log: (m) => logged.push(m) });
    sessions.push(session);
    const good = viewer(session, "good");
    await good.attach();
    await session.attach("broken", () => {
      throw new Error("socket gone");
    });
    expect(session.viewerCount).toBe(1);
    expect(logged.join("\n")).toMatch(/Viewer broken could not be sent/);
    await good.waitFor(PROMPT);
  });

  it("onOutput: every listener sees the output and size frames the viewers get, in order; one that throws is logged; dispose stops it", async () => {
    const logged: string[] = [];
    const session = TerminalSession.start({ ...tutorOptions(), log: (m) => logged.push(m) });
    sessions.push(session);
    const seen: { type: string; seq: number }[][] = [[], []];
    const first = session.onOutput((frame) => seen[0]!.push(frame));
    session.onOutput((frame) => seen[1]!.push(frame));
    const failing = session.onOutput(() => {
      throw new Error("listener broke");
    });
    const laptop = viewer(session, "laptop");
    await laptop.attach();
    await laptop.waitFor(PROMPT);
    session.resize("laptop", { cols: 100, rows: 30, device: "laptop" });
    const mark = laptop.position;
    session.input("laptop", "size\r");
    await laptop.waitFor("size 100x30", { from: mark });

    // What the viewer got live (after its replay) is a contiguous tail of what the listeners saw.
    const live = laptop.frames.filter((f) => f.type === "output" || f.type === "resize");
    expect(live.length).toBeGreaterThan(0);
    expect(seen[0]!.slice(-live.length)).toEqual(live);
    expect(seen[1]).toEqual(seen[0]);
    expect(seen[0]!.some((f) => f.type === "resize")).toBe(true);
    const outputSeqs = seen[0]!.filter((f) => f.type === "output").map((f) => f.seq);
    expect(outputSeqs).toEqual(outputSeqs.map((_, i) => outputSeqs[0]! + i));
    expect(logged.some((m) => /A terminal output listener failed: Error: listener broke/.test(m))).toBe(true);

    failing.dispose();
    first.dispose();
    const before = seen[0]!.length;
    const again = laptop.position;
    session.input("laptop", "size\r");
    await laptop.waitFor("size 100x30", { from: again });
    expect(seen[0]!.length).toBe(before);
    expect(seen[1]!.length).toBeGreaterThan(before);
  });
});
