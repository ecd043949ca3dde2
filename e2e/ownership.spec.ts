// A session lives inside the server that started it. Real server processes, killed for real.
import { test, expect } from "@playwright/test";
import { makeDataDir, startServer } from "./support/server";
import { sessionRow, withDb } from "./support/db";
import { expectTerminalToContain } from "./support/terminal";
import { open } from "./support/page";
import { connect, Viewer } from "./support/socket";

const start = { topic: "closures", energy: 5, agent: "tutor", transport: "pty" };

test("after kill -9 of its server, the next server reports the session ended and keeps the notes", async ({ page, request }) => {
  const dataDir = makeDataDir();
  const a = await startServer({ dataDir });
  const started = await request.post(`${a.url}/api/session/start`, { data: start });
  expect(started.status()).toBe(201);
  const id = (await started.json()).session.id as string;

  // The learner watches the session, then parks a thought: it is written at once.
  await page.goto(`${a.url}/study`);
  await expectTerminalToContain(page, "tutor>");
  const parked = await page.evaluate(async () => {
    const res = await fetch("/api/parking", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ text: "why do closures capture variables?" }),
    });
    return res.status;
  });
  expect(parked).toBe(201);
  await expect.poll(() => sessionRow(dataDir, id).heartbeat_at).not.toBeNull();

  await a.kill9();
  const heartbeatAtDeath = sessionRow(dataDir, id).heartbeat_at;
  expect(sessionRow(dataDir, id).ended_at).toBeNull();

  const b = await startServer({ dataDir });
  try {
    const state = await (await request.get(`${b.url}/api/session/state`)).json();
    expect(state.state).toBe("ended");
    expect(state.session).toBeNull();
    expect(state.attach).toBeNull();
    expect(state.lastEnded).toMatchObject({ id, endReason: "server-stopped", status: "ended" });
    expect(state.lastEnded.explanation).toMatch(
      /^The StudyLoop server that ran this session stopped at \d\d:\d\d, so the session ended\. Your notes are kept\.$/,
    );

    const row = sessionRow(dataDir, id);
    expect(row.end_reason).toBe("server-stopped");
    expect(row.status).toBe("ended");
    expect(row.live_slot).toBeNull();
    expect(row.ended_at).toBe(heartbeatAtDeath);
    const notes = withDb(dataDir, (db) => db.prepare("SELECT text, session_id FROM parked_items").all());
    expect(notes).toEqual([{ text: "why do closures capture variables?", session_id: id }]);

    // The page explains, offers a new start, and shows no terminal.
    await page.goto(`${b.url}/study`);
    await expect(page.getByTestId("ended-explanation")).toContainText("The StudyLoop server that ran this session stopped at");
    await expect(page.getByTestId("ended-explanation")).toContainText("Your notes are kept.");
    await expect(page.getByTestId("terminal")).toHaveCount(0);
    await expect(page.getByText(/cannot (show|render)/)).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Start session" })).toBeVisible();
    await page.screenshot({ path: test.info().outputPath("after-server-death.png"), fullPage: true });

    const again = await request.post(`${b.url}/api/session/start`, { data: { ...start, topic: "after the crash" } });
    expect(again.status()).toBe(201);
    await request.post(`${b.url}/api/session/end`);
  } finally {
    await b.stop();
  }
});

test("a page left open when its server dies explains the end once another server reads it", async ({ page, request }) => {
  const dataDir = makeDataDir();
  const a = await startServer({ dataDir });
  await request.post(`${a.url}/api/session/start`, { data: start });
  await page.goto(`${a.url}/`);
  await expect(page.getByTestId("live-card")).toHaveAttribute("data-state", "focus");
  await a.kill9();
  const b = await startServer({ dataDir });
  try {
    await page.goto(`${b.url}/`);
    await expect(page.getByTestId("live-card")).toHaveAttribute("data-state", "ended");
    await expect(page.getByTestId("live-card")).toContainText("stopped at");
  } finally {
    await b.stop();
  }
});

test("while its server lives, another server reports the session live elsewhere and refuses a start", async ({ page, request }) => {
  const dataDir = makeDataDir();
  const a = await startServer({ dataDir });
  const b = await startServer({ dataDir });
  try {
    const started = await request.post(`${a.url}/api/session/start`, { data: start });
    expect(started.status()).toBe(201);
    const id = (await started.json()).session.id as string;

    const state = await (await request.get(`${b.url}/api/session/state`)).json();
    expect(state.state).toBe("focus");
    expect(state.verdict.kind).toBe("live-elsewhere");
    expect(state.attach).toBeNull();
    expect(state.verdict.notice).toContain(a.url);

    const refused = await request.post(`${b.url}/api/session/start`, { data: { ...start, topic: "second" } });
    expect(refused.status()).toBe(409);
    const body = await refused.json();
    expect(body.error).toContain(a.url);
    expect(body.canReattach).toBe(false);
    expect(body.ownerUrl).toBe(a.url);

    // B's page names A and offers End; it never claims the transport cannot be shown.
    await open(page, `${b.url}/study`); // hydrated: the End button below must be React's
    await expect(page.getByTestId("not-attachable")).toContainText(a.url);
    await expect(page.getByText(/cannot (show|render)/)).toHaveCount(0);

    // Neither server ends the other's session by reading it.
    await new Promise((r) => setTimeout(r, 2_500));
    expect(sessionRow(dataDir, id).ended_at).toBeNull();

    // The learner can end it from B; A notices on its next heartbeat and stops the agent.
    await page.getByRole("button", { name: "End this session" }).click();
    await expect.poll(() => sessionRow(dataDir, id).end_reason).toBe("ended-by-learner");
    await expect
      .poll(async () => (await (await request.get(`${a.url}/api/session/state`)).json()).state, { timeout: 10_000 })
      .toBe("ended");
    expect(sessionRow(dataDir, id).end_reason).toBe("ended-by-learner");
  } finally {
    await b.stop();
    await a.stop();
  }
});

test("a clean stop ends live sessions as server-shutdown with their transcript", async ({ request }) => {
  const dataDir = makeDataDir();
  const a = await startServer({ dataDir });
  const id = (await (await request.post(`${a.url}/api/session/start`, { data: start })).json()).session.id as string;
  await expect.poll(() => sessionRow(dataDir, id).status).toBe("live");
  // Wait until the tutor has drawn its banner: on a busy machine "live" can come before its first output.
  const socket = await connect(a.url);
  const viewer = new Viewer(socket, id);
  expect((await viewer.attach()).ok).toBe(true);
  await viewer.waitFor("StudyLoop test tutor");
  socket.disconnect();
  expect(await a.stop()).toBe(0);
  const row = sessionRow(dataDir, id);
  expect(row.end_reason).toBe("server-shutdown");
  expect(String(row.transcript)).toContain("StudyLoop test tutor");
});
