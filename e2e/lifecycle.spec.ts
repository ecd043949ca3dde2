// The socket contract and the session lifecycle, through real sockets against a real server.
import { test, expect } from "@playwright/test";
import { startServer, makeDataDir } from "./support/server";
import { testServer } from "./support/test-server";
import { connect, Viewer } from "./support/socket";
import type { PackedReplayFrame, TerminalFrameView } from "../server/realtime/events";
import { unpackReplay } from "../common/terminal/replay-unpack";
import { sessionRow } from "./support/db";

const start = { topic: "lifecycle", energy: 5, agent: "tutor", transport: "pty" };

test.describe("sockets", () => {
  const server = testServer({ env: { STUDYLOOP_CHECKPOINT_SECONDS: "1" } });

  test("two viewers: both get the output, input from either reaches the agent", async ({ request }) => {
    const id = (await (await request.post(`${server.url}/api/session/start`, { data: start })).json()).session.id as string;
    const a = new Viewer(await connect(server.url), id);
    const b = new Viewer(await connect(server.url), id);
    try {
      expect((await a.attach()).ok).toBe(true);
      expect((await b.attach()).ok).toBe(true);
      // The attach is acknowledged at once; its replay follows.
      await expect.poll(() => a.frames[0]?.type).toBe("replay");
      a.input("from a\r");
      await b.waitFor("you said: from a");
      b.input("from b\r");
      await a.waitFor("you said: from b");
    } finally {
      a.socket.close();
      b.socket.close();
    }
  });

  test("a short drop resumes from the last number seen, without a second replay", async ({ request }) => {
    const id = (await (await request.post(`${server.url}/api/session/start`, { data: start })).json()).session.id as string;
    const first = new Viewer(await connect(server.url), id);
    await first.attach();
    await first.waitFor("tutor>");
    first.input("lines 5\r");
    await first.waitFor("line 5");
    const seen = first.lastSeq();
    first.socket.close();

    const watcher = new Viewer(await connect(server.url), id);
    await watcher.attach();
    watcher.input("lines 3\r");
    await watcher.waitFor(/line 3\r?\n/);

    const back = new Viewer(await connect(server.url), id);
    expect((await back.attach(seen)).ok).toBe(true);
    await back.waitFor("line 3");
    expect(back.frames.some((f) => f.type === "replay")).toBe(false);
    const seqs = back.frames.filter((f) => f.type === "output").map((f) => f.seq);
    expect(seqs[0]).toBe(seen + 1);
    expect(seqs).toEqual(seqs.map((_, i) => seen + 1 + i));
    watcher.socket.close();
    back.socket.close();
  });

  test("typing sent right behind the attach request reaches the agent; a page's replay comes packed, after the ack", async ({
    request,
  }) => {
    const id = (await (await request.post(`${server.url}/api/session/start`, { data: start })).json()).session.id as string;
    const first = new Viewer(await connect(server.url), id);
    const page = await connect(server.url);
    try {
      await first.attach();
      await first.waitFor("tutor>");
      first.input("lines 3000\r");
      await first.waitFor(/line 3000\r?\n/);

      const arrived: string[] = [];
      const frames: TerminalFrameView[] = [];
      const refusals: string[] = [];
      page.on("terminal:frame", (sessionId, frame) => {
        arrived.push(frame.type);
        frames.push(frame);
      });
      page.on("terminal:error", (_id, message) => refusals.push(message));
      // Both in the same tick, as a page typing while it attaches sends them: one read on the server.
      const acked = page.emitWithAck("terminal:attach", { sessionId: id, packed: true }).then((result) => {
        arrived.push("ack");
        return result;
      });
      page.emit("terminal:input", { sessionId: id, data: "right behind\r" });
      expect((await acked).ok).toBe(true);
      await first.waitFor("you said: right behind");
      await expect.poll(() => arrived.includes("packed-replay")).toBe(true);
      expect(arrived.slice(0, 2)).toEqual(["ack", "packed-replay"]);
      expect(refusals).toEqual([]);

      const packed = frames[0] as PackedReplayFrame;
      const text = Buffer.from(unpackReplay(packed.bytes)).toString("utf8");
      expect(text).toContain("line 3000");
      expect(packed.chars).toBe(text.length);
      expect(packed.bytes.byteLength).toBeLessThan(text.length / 3);
    } finally {
      first.socket.close();
      page.close();
    }
  });

  test("input and resize from a socket that never attached are refused", async ({ request }) => {
    const id = (await (await request.post(`${server.url}/api/session/start`, { data: start })).json()).session.id as string;
    const viewer = new Viewer(await connect(server.url), id);
    await viewer.attach();
    await viewer.waitFor("tutor>");
    const stranger = await connect(server.url);
    const refused = new Promise<string>((resolve) => stranger.once("terminal:error", (_id, message) => resolve(message)));
    stranger.emit("terminal:input", { sessionId: id, data: "sneaky\r" });
    expect(await refused).toMatch(/not attached to a live session/);
    await new Promise((r) => setTimeout(r, 500));
    expect(viewer.text).not.toContain("sneaky");
    viewer.socket.close();
    stranger.close();
  });

  test("attaching to an ended session explains why instead of offering a terminal", async ({ request }) => {
    const id = (await (await request.post(`${server.url}/api/session/start`, { data: start })).json()).session.id as string;
    await request.post(`${server.url}/api/session/end`);
    const socket = await connect(server.url);
    const result = await socket.emitWithAck("terminal:attach", { sessionId: id });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.status).toBe(410);
      expect(result.error).toMatch(/You ended this session at/);
    }
    socket.close();
  });

  test("the transcript is checkpointed while live and readable after the end", async ({ request, page }) => {
    const id = (await (await request.post(`${server.url}/api/session/start`, { data: start })).json()).session.id as string;
    const viewer = new Viewer(await connect(server.url), id);
    await viewer.attach();
    viewer.input("checkpoint me\r");
    await viewer.waitFor("you said: checkpoint me");
    await expect
      .poll(() => String(sessionRow(server.dataDir, id).transcript ?? ""), { timeout: 10_000 })
      .toContain("you said: checkpoint me");
    viewer.socket.close();
    await request.post(`${server.url}/api/session/end`);
    await page.goto(`${server.url}/sessions/${id}`);
    // The session page shows the text transcript derived from the recording (server/recording).
    await expect(page.getByTestId("ended-explanation")).toContainText("You ended this session");
    await expect(page.getByTestId("text-transcript")).toContainText("you said: checkpoint me");
  });
});

test("nobody attaches: the session ends as never-attached", async ({ request }) => {
  const server = await startServer({ dataDir: makeDataDir(), env: { STUDYLOOP_NEVER_ATTACHED_SECONDS: "2" } });
  try {
    const id = (await (await request.post(`${server.url}/api/session/start`, { data: start })).json()).session.id as string;
    await expect.poll(() => sessionRow(server.dataDir, id).end_reason, { timeout: 15_000 }).toBe("never-attached");
  } finally {
    await server.stop();
  }
});

test("the last viewer leaves: the session waits out the grace window, then ends as grace-expired", async ({ request }) => {
  const server = await startServer({ dataDir: makeDataDir(), env: { STUDYLOOP_GRACE_SECONDS: "3" } });
  try {
    const id = (await (await request.post(`${server.url}/api/session/start`, { data: start })).json()).session.id as string;
    const viewer = new Viewer(await connect(server.url), id);
    await viewer.attach();
    viewer.socket.close();
    await new Promise((r) => setTimeout(r, 1_000));
    expect(sessionRow(server.dataDir, id).ended_at).toBeNull();
    // Coming back within the window keeps it alive.
    const back = new Viewer(await connect(server.url), id);
    expect((await back.attach()).ok).toBe(true);
    back.socket.close();
    await expect.poll(() => sessionRow(server.dataDir, id).end_reason, { timeout: 15_000 }).toBe("grace-expired");
  } finally {
    await server.stop();
  }
});
