// The check, end to end with real processes: a StudyLoop server (the production build) runs a
// bash session in a real pty; the learner uses vim, clear, less and a long seq, marks a struggle and
// parks a thought; the server is killed with kill -9. A second server on the same data directory then
// shows that the recording holds everything up to the last second, the text transcript what each
// screen showed, search finds a word printed before `clear` and jumps to a moment that shows it, the
// markers are in the recording, and `studyloop recall` inside a later session finds it.
import fs from "node:fs";
import path from "node:path";
import headless from "@xterm/headless";
import { afterAll, describe, expect, it } from "vitest";
import { connect, Viewer } from "../../e2e/support/socket.ts";
import { makeDataDir, ROOT, startServer, type StartedServer } from "../../e2e/support/server.ts";
import { castMarkers, parseCast, type CastEvent } from "./asciicast.ts";
import type { SearchHit } from "./search-index.ts";

const { Terminal } = headless;
const built = fs.existsSync(path.join(ROOT, ".next", "BUILD_ID"));
const servers: StartedServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.stop().catch(() => undefined);
});

const SHELL = { shell: { label: "Shell", command: "/bin/bash", args: ["--norc", "--noprofile", "-i"] } };

async function api<T>(server: StartedServer, method: string, route: string, body?: unknown): Promise<{ status: number; body: T }> {
  const res = await fetch(`${server.url}${route}`, {
    method,
    headers: body ? { "content-type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: (await res.json().catch(() => ({}))) as T };
}

async function until<T>(what: string, fn: () => Promise<T | undefined | null | false>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn().catch(() => undefined);
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function startShell(server: StartedServer, topic: string): Promise<{ id: string; viewer: Viewer }> {
  const started = await api<{ session: { id: string } }>(server, "POST", "/api/session/start", {
    topic,
    energy: 6,
    agent: "shell",
    transport: "pty",
  });
  expect(started.status).toBe(201);
  const id = started.body.session.id;
  const viewer = new Viewer(await connect(server.url), id);
  await viewer.attach();
  return { id, viewer };
}

/** The screen a player shows at `seconds`: every event up to then, replayed. */
async function screenAt(events: readonly CastEvent[], cols: number, rows: number, seconds: number): Promise<string> {
  const term = new Terminal({ cols, rows, allowProposedApi: true });
  for (const e of events) {
    if (e.time > seconds) break;
    if (e.code === "o") await new Promise<void>((resolve) => term.write(e.data, resolve));
    if (e.code === "r") {
      const [c, r] = e.data.split("x").map(Number);
      term.resize(c!, r!);
    }
  }
  const buffer = term.buffer.active;
  const lines: string[] = [];
  for (let y = 0; y < term.rows; y++) lines.push(buffer.getLine(buffer.viewportY + y)?.translateToString(true) ?? "");
  term.dispose();
  return lines.join("\n");
}

describe.skipIf(!built)("the learning record, across a kill -9", () => {
  it("records, transcribes, indexes and recalls a session that a kill -9 cut short", { timeout: 240_000 }, async () => {
    const dataDir = makeDataDir(SHELL);
    const first = await startServer({ dataDir });
    servers.push(first);
    const { id, viewer } = await startShell(first, "closures in bash");
    const type = async (line: string, expect: string | RegExp) => {
      viewer.input(line);
      await viewer.waitFor(expect, 20_000);
    };
    await type("PS1='$ '; export PAGER=less\r", /\$ $/);
    await type("echo zebracorn-$((6*7)) before the clear\r", "zebracorn-42 before the clear");
    const cleared = viewer.text.length;
    await type("clear\r", /\x1b\[(H\x1b\[)?2J/);
    await viewer.waitFor(/\$ $/);
    expect(viewer.text.length).toBeGreaterThan(cleared);
    await type("printf 'inside vim: quokka\\n' > notes.txt; vim -u NONE -N notes.txt\r", "quokka");
    await type(":q\r", /\$ $/);
    await type("seq 1 60 | sed 's/^/lessline /' > list.txt; less list.txt\r", "lessline 1");
    await type("q", /\$ $/);
    expect((await api(first, "POST", "/api/session/topics", { topic: "recursion", status: "struggling" })).status).toBe(201);
    expect((await api(first, "POST", "/api/parking", { text: "what is a closure, really?" })).status).toBe(201);
    await type("seq 1 20000\r", /\n20000\r\n/);
    await type("echo last-words-$((1+1))\r", "last-words-2");
    // The writer flushes every 250 ms: a second after the last output, the kill loses nothing.
    await new Promise((r) => setTimeout(r, 1_000));
    await first.kill9();

    const castFile = path.join(dataDir, "sessions", id, "session.cast");
    const cast = parseCast(fs.readFileSync(castFile, "utf8"))!;
    expect(cast.header).toMatchObject({ version: 2, width: 80, height: 24 });
    const output = cast.events
      .filter((e) => e.code === "o")
      .map((e) => e.data)
      .join("");
    expect(output).toContain("last-words-2");
    expect(castMarkers(cast).map((m) => m.label)).toEqual(["struggling: recursion", "parked: what is a closure, really?"]);
    // Keystrokes are not recorded: only output, resizes and markers (the shell's echo is output).
    expect(
      fs
        .readFileSync(castFile, "utf8")
        .split("\n")
        .slice(1)
        .filter((l) => l && !/^\[[\d.]+,"[orm]",/.test(l)),
    ).toEqual([]);

    // A second server ends the orphaned session and indexes its recording from the file.
    const second = await startServer({ dataDir });
    servers.push(second);
    const hits = await until("the word from before `clear` to be found", async () => {
      const res = await api<{ hits: SearchHit[] }>(second, "GET", `/api/search?q=${encodeURIComponent("zebracorn-42")}`);
      return res.body.hits?.some((h) => h.kind === "transcript") ? res.body.hits : null;
    });
    const hit = hits.find((h) => h.kind === "transcript")!;
    expect(hit).toMatchObject({ sessionId: id, topic: "closures in bash" });
    expect(hit.href).toMatch(new RegExp(`^/sessions/${id}\\?t=\\d+(\\.\\d{1,3})?$`));
    // The moment it jumps to shows the word on the screen.
    const t = Number(new URL(hit.href, second.url).searchParams.get("t"));
    expect(await screenAt(cast.events, 80, 24, t)).toContain("zebracorn-42 before the clear");

    const res = await fetch(`${second.url}/api/sessions/${id}/transcript`);
    expect(res.status).toBe(200);
    const transcript = await res.text();
    for (const seen of ["zebracorn-42 before the clear", "inside vim: quokka", "lessline 1\nlessline 2", "19999\n20000", "last-words-2"])
      expect(transcript).toContain(seen);
    const numbers = transcript
      .split("\n")
      .filter((l) => /^\d+$/.test(l))
      .map(Number);
    expect(numbers.slice(-20000)).toEqual(Array.from({ length: 20000 }, (_, i) => i + 1));
    expect(transcript.indexOf("zebracorn-42 before the clear")).toBeLessThan(transcript.indexOf("quokka"));
    expect(transcript.indexOf("quokka")).toBeLessThan(transcript.indexOf("lessline 1"));

    // A later session: the tutor recalls the moment from inside it, with its session token.
    const later = await startShell(second, "more closures");
    later.viewer.input("PS1='$ '\r");
    await later.viewer.waitFor(/\$ $/);
    later.viewer.input("studyloop recall zebracorn\r");
    await later.viewer.waitFor(/moments? from past sessions matching "zebracorn":[\s\S]*\/sessions\/[0-9a-f-]{36}\?t=[\d.]+/, 60_000);
    expect(later.viewer.text).toContain("closures in bash");
    expect(later.viewer.text).toContain("[zebracorn]-42 before the clear");
    later.viewer.socket.close();
    viewer.socket.close();
  });
});
