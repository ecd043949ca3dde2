// The learning record of CLI sessions, end to end with real processes and no web server: `studyloop
// study` runs bash in a private tmux server; the learner uses `clear`, vim, less and long seqs, the
// tutor parks and marks from inside the pane, the window is resized. The recording (tmux pipe-pane
// into `_record-pane`) holds the output, the resize and the markers; search finds a word while the
// session still runs; the transcript keeps what `clear` erased. Then the crash: recorder and
// tmux killed with kill -9 mid-way; the recording holds everything up to the last second, its
// transcript is derived from the file, and `studyloop recall` from a later session finds it.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { makeDataDir } from "../../e2e/support/server.ts";
import { sessionRow, withDb } from "../../e2e/support/db.ts";
import { PROJECT_ROOT, databaseFile } from "../config/paths.ts";
import { openDatabase } from "../db/client.ts";
import { castMarkers, parseCast, type Cast } from "../recording/asciicast.ts";
import { readTranscriptCache } from "../recording/record-files.ts";
import { RecordIndexer } from "../recording/record-indexer.ts";
import { RECORDER_FILE } from "../recording/recorder-lock.ts";
import { SearchIndex } from "../recording/search-index.ts";
import { transcriptText } from "../recording/transcript.ts";

const SOCKET = `studyloop-test-rec-${process.pid}`;
const SHELL = { shell: { label: "Shell", command: "/bin/bash", args: ["--norc", "--noprofile", "-i"] } };
const env: NodeJS.ProcessEnv = { ...process.env, STUDYLOOP_TMUX_SOCKET: SOCKET, STUDYLOOP_HEARTBEAT_SECONDS: "1" };
delete env.TMUX; // a test run from inside tmux must not talk to the learner's own server

function studyloop(...args: string[]) {
  return spawnSync(process.execPath, [path.join(PROJECT_ROOT, "bin", "studyloop.js"), ...args], {
    encoding: "utf8",
    env,
    timeout: 120_000,
  });
}
const tmux = (...args: string[]) => spawnSync("tmux", ["-L", SOCKET, ...args], { encoding: "utf8" });

afterAll(() => void tmux("kill-server"));

async function until<T>(what: string, fn: () => T | undefined | null | false, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = fn();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Starts a CLI session (detached) and answers its row and a way to type into its pane and wait. */
async function study(dataDir: string, topic: string) {
  const started = studyloop("study", topic, "--agent", "shell", "--detach", "--data-dir", dataDir);
  expect(started.status, started.stderr).toBe(0);
  const row = withDb(dataDir, (db) => db.prepare("SELECT * FROM study_sessions WHERE topic = ?").get(topic)) as Record<string, string>;
  const target = `=${row.mux_session}:`;
  const pane = () => tmux("capture-pane", "-p", "-J", "-t", target).stdout;
  const type = async (line: string, shows: string | RegExp, keys: string[] = ["Enter"]) => {
    tmux("send-keys", "-t", target, "-l", line);
    if (keys.length) tmux("send-keys", "-t", target, ...keys);
    await until(`the pane to show ${String(shows)}`, () => (typeof shows === "string" ? pane().includes(shows) : shows.test(pane())));
  };
  await type("PS1='$ '; export PAGER=less; echo ready-$((1+1))", "ready-2");
  return { id: row.id!, dir: path.join(dataDir, "sessions", row.id!), pane, type, target };
}

/** vim has drawn its screen: the file's line, then its empty lines (the typed command shows neither). */
const VIM_SHOWN = /^inside vim: \w+\s*\n~/m;
/** vim has given the screen back: none of its empty lines is left. */
const VIM_GONE = /^(?![\s\S]*(?:^|\n)~[ \t]*(?:\n|$))/;

const readCast = (dir: string): Cast => parseCast(fs.readFileSync(path.join(dir, "session.cast"), "utf8"))!;
const outputOf = (cast: Cast) =>
  cast.events
    .filter((e) => e.code === "o")
    .map((e) => e.data)
    .join("");
const indexed = (dataDir: string, word: string) =>
  withDb(dataDir, (db) =>
    db.prepare("SELECT session_id AS id, at_ms AS atMs FROM search_docs WHERE kind = 'transcript' AND text LIKE ?").all(`%${word}%`),
  ) as {
    id: string;
    atMs: number;
  }[];

describe("CLI sessions in tmux are recorded", () => {
  it("records output, resizes and markers, indexes as it runs, and closes with the end", { timeout: 300_000 }, async () => {
    const dataDir = makeDataDir(SHELL);
    const s = await study(dataDir, "closures in tmux");
    await s.type("echo zebracorn-$((6*7)) before the clear", "zebracorn-42 before the clear");
    await s.type("clear", /^\$ $/m);
    await until("the pane to be cleared", () => !s.pane().includes("zebracorn"));
    // Indexed as the session runs: the word is found before the session ends.
    const hits = await until(
      "the word to be indexed while the session runs",
      () => indexed(dataDir, "zebracorn-42").length > 0 && indexed(dataDir, "zebracorn-42"),
    );
    expect(hits[0]!.id).toBe(s.id);
    expect(sessionRow(dataDir, s.id)).toMatchObject({ status: "live", recording_path: `sessions/${s.id}/session.cast` });

    // Each full-screen program is driven only once it has drawn (so it reads the keys, not the shell),
    // and the next line is typed only once it has given the screen back.
    await s.type("printf 'inside vim: quokka\\n' > notes.txt; vim -u NONE -N notes.txt", VIM_SHOWN);
    await s.type(":q", VIM_GONE);
    await s.type("echo after-vim-$((2+3))", "after-vim-5");
    await s.type("seq 1 60 | sed 's/^/lessline /' > list.txt; less list.txt", "lessline 20");
    await s.type("q", /^(?![\s\S]*lessline 20)/, []);
    await s.type("echo after-less-$((3+3))", "after-less-6");
    await s.type("studyloop park why does tmux keep running?", "Parked for after the session");
    await until("the parked marker", () => castMarkers(readCast(s.dir)).length === 1);
    await s.type('studyloop topic closures --status win --note "explained it back"', 'Marked "closures" as a win');
    await until("the win marker", () => castMarkers(readCast(s.dir)).length === 2);
    tmux("resize-window", "-t", s.target, "-x", "100", "-y", "30");
    await until("the resize in the recording", () => readCast(s.dir).events.some((e) => e.code === "r" && e.data === "100x30"));
    await s.type("seq 1 3000", /\n3000\n/);
    await s.type("exit", "", []);
    tmux("send-keys", "-t", s.target, "Enter");

    await until("the recorder to finish", () => !fs.existsSync(path.join(s.dir, RECORDER_FILE)) && sessionRow(dataDir, s.id).ended_at);
    expect(sessionRow(dataDir, s.id)).toMatchObject({ end_reason: "agent-exited", exit_code: 0 });
    const cast = readCast(s.dir);
    expect(cast.header).toMatchObject({ version: 2, width: 120, height: 36 });
    expect(castMarkers(cast).map((m) => m.label)).toEqual(["parked: why does tmux keep running?", "win: closures", "ended: agent exited"]);
    // Keystrokes are not recorded: only what the pane showed (the shell's echo), resizes and markers.
    expect(
      fs
        .readFileSync(path.join(s.dir, "session.cast"), "utf8")
        .split("\n")
        .slice(1)
        .filter((l) => l && !/^\[[\d.]+,"[orm]",/.test(l)),
    ).toEqual([]);
    expect(outputOf(cast)).toContain("inside vim: quokka");
    // The transcript the recorder finished, complete for the recording's size, keeps what each screen showed.
    const segments = readTranscriptCache(s.dir, fs.statSync(path.join(s.dir, "session.cast")).size);
    expect(segments).not.toBeNull();
    const transcript = transcriptText(segments!);
    for (const seen of ["zebracorn-42 before the clear", "inside vim: quokka", "lessline 1\nlessline 2", "2999\n3000"])
      expect(transcript).toContain(seen);
    expect(transcript.indexOf("zebracorn-42")).toBeLessThan(transcript.indexOf("quokka"));
    expect(indexed(dataDir, "2999").length).toBeGreaterThan(0);

    const recall = studyloop("recall", "zebracorn", "--data-dir", dataDir);
    expect(recall.status, recall.stderr).toBe(0);
    expect(recall.stdout).toContain("closures in tmux");
    expect(recall.stdout).toMatch(new RegExp(`/sessions/${s.id}\\?t=\\d+(\\.\\d{1,3})?`));
  });

  it("after kill -9 mid-way, the recording holds the last second and a later session recalls it", { timeout: 300_000 }, async () => {
    const dataDir = makeDataDir(SHELL);
    const s = await study(dataDir, "recursion in tmux");
    await s.type("echo aardwolf-$((40+2)) before the clear", "aardwolf-42 before the clear");
    // A screen is indexed once something erases it (here `clear`), a line once it scrolls off.
    await s.type("clear", /^\$ $/m);
    await until("the word to be indexed", () => indexed(dataDir, "aardwolf-42").length > 0);
    await s.type("printf 'inside vim: okapi\\n' > notes.txt; vim -u NONE -N notes.txt", VIM_SHOWN);
    await s.type(":q", VIM_GONE);
    await s.type("seq 1 20000", /\n20000\n/);
    await s.type("echo last-words-$((1+1))", "last-words-2");
    // The writer flushes every 250 ms: a second after the last output, a kill loses nothing.
    await new Promise((r) => setTimeout(r, 1_000));
    const recorder = JSON.parse(fs.readFileSync(path.join(s.dir, RECORDER_FILE), "utf8")) as { pid: number };
    const tmuxPid = Number(tmux("display-message", "-p", "#{pid}").stdout.trim());
    process.kill(recorder.pid, "SIGKILL");
    process.kill(tmuxPid, "SIGKILL");

    const cast = readCast(s.dir);
    expect(outputOf(cast)).toContain("last-words-2");
    expect(castMarkers(cast).map((m) => m.label)).toEqual([]); // killed: no end marker, nothing torn
    // The next read ends it (or the wrapper did, hung up by tmux): tmux-gone.
    expect(studyloop("status", "--data-dir", dataDir).status).toBe(0);
    await until("the row to end", () => sessionRow(dataDir, s.id).ended_at);
    expect(sessionRow(dataDir, s.id).end_reason).toBe("tmux-gone");

    // Reading the transcript of the ended session derives it from the file and indexes what the kill cut off.
    const db = openDatabase(databaseFile(dataDir));
    try {
      const segments = await new RecordIndexer(db, dataDir, new SearchIndex(db), () => undefined).transcript(s.id, true);
      const transcript = transcriptText(segments!);
      for (const seen of ["aardwolf-42 before the clear", "inside vim: okapi", "19999\n20000", "last-words-2"])
        expect(transcript).toContain(seen);
    } finally {
      await db.$disconnect();
    }
    expect(indexed(dataDir, "last-words-2").map((h) => h.id)).toContain(s.id);

    // A later session: the tutor recalls the moment from inside its pane.
    const later = await study(dataDir, "more recursion");
    await later.type("studyloop recall aardwolf", /moments? from past sessions matching "aardwolf"/);
    await until("the recalled moment", () =>
      /recursion in tmux[\s\S]*\[aardwolf\]-42 before the clear[\s\S]*\/sessions\/[0-9a-f-]{36}\?t=/.test(later.pane()),
    );
    expect(later.pane()).toContain(`/sessions/${s.id}?t=`);
    await later.type("exit", "", []);
    tmux("send-keys", "-t", later.target, "Enter");
    await until(
      "the later session to end",
      () => sessionRow(dataDir, later.id).ended_at && !fs.existsSync(path.join(later.dir, RECORDER_FILE)),
    );
  });
});
