// ACP sessions: a chat with the ACP test agent (written with the SDK's agent side), in Chromium.
import { test, expect, type Page } from "@playwright/test";
import { ACP_TEST_AGENT, makeDataDir, startServer } from "./support/server";
import { testServer } from "./support/test-server";
import { sessionRow, withDb } from "./support/db";
import { connect } from "./support/socket";
import { open } from "./support/page";

const acpStart = { topic: "closures", energy: 6, agent: "tutor", transport: "acp" };

async function startChat(page: Page, url: string, topic = "closures") {
  await open(page, `${url}/study`);
  await page.getByLabel("Topic").fill(topic);
  await page.getByLabel(/a chat/).check();
  await page.getByRole("button", { name: "Start session" }).click();
  await expect(page.getByTestId("chat-status")).toHaveText("live");
}

async function ask(page: Page, text: string) {
  await page.getByLabel("Message to the tutor").fill(text);
  await page.getByRole("button", { name: "Send" }).click();
}

test.describe("chat sessions", () => {
  const server = testServer({ dataDir: makeDataDir(), env: { STUDYLOOP_ACP_HANDSHAKE_SECONDS: "3" } });

  test("a prompt streams an answer with a plan, a folded thought and a tool call", async ({ page }) => {
    await startChat(page, server.url);
    await ask(page, "explain closures");
    await expect(page.getByTestId("learner-message")).toHaveText("explain closures");
    const answer = page.getByTestId("agent-message").last();
    await expect(answer).toHaveText("Closures capture the variables of their enclosing scope.");
    await expect(answer.locator("strong")).toHaveText("Closures");
    await expect(page.getByTestId("tool-call")).toHaveAttribute("data-status", "completed");
    await expect(page.getByTestId("plan").getByRole("checkbox", { name: "Give an example" })).toBeChecked();
    await expect(page.getByText("Thinking")).toBeVisible();
    await expect(page.getByText("The learner wants closures explained.")).toBeHidden();
    await page.screenshot({ path: test.info().outputPath("chat-desktop.png"), fullPage: true });
  });

  test("a permission question is answered with a button", async ({ page }) => {
    await startChat(page, server.url);
    await ask(page, "permission to run the example");
    const question = page.getByTestId("permission");
    await expect(question).toContainText("Run the example");
    await question.getByRole("button", { name: "Allow" }).click();
    await expect(page.getByTestId("agent-message").last()).toHaveText("Permission granted: the example ran.");
    await expect(question).toContainText("Answered: Allow");
  });

  test("reload mid-answer shows the whole conversation, the rest still arriving, and a phone sees the same", async ({ page, browser }) => {
    await startChat(page, server.url);
    await ask(page, "slow answer please");
    await expect(page.getByTestId("agent-message").last()).toContainText("chunk3 ");
    await page.reload();
    await expect(page.getByTestId("chat-status")).toHaveText("live");
    await expect(page.getByTestId("learner-message")).toHaveText("slow answer please");
    const answer = page.getByTestId("agent-message").last();
    await expect(answer).toContainText("chunk30", { timeout: 15_000 });
    const text = (await answer.textContent()) ?? "";
    // Nothing twice, nothing missing: chunk1 … chunk30 exactly once each, in order.
    expect(text.trim()).toBe(Array.from({ length: 30 }, (_, i) => `chunk${i + 1}`).join(" "));

    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const second = await phone.newPage();
    await second.goto(`${server.url}/study`);
    await expect(second.getByTestId("agent-message").last()).toHaveText(text);
    await second.screenshot({ path: test.info().outputPath("chat-phone.png"), fullPage: true });
    await phone.close();
  });

  test("Stop cancels the turn and a stale permission answer is refused", async ({ page, request }) => {
    await startChat(page, server.url);
    await ask(page, "permission please");
    await expect(page.getByTestId("permission")).toBeVisible();
    await page.getByRole("button", { name: "Stop" }).click();
    await expect(page.getByTestId("turn-stopped")).toContainText("Stopped by you.");
    await expect(page.getByTestId("permission")).toContainText("Answered: cancelled");

    const state = await (await request.get(`${server.url}/api/session/state`)).json();
    const id = state.session.id as string;
    const requestId = withDb(
      server.dataDir,
      (db) =>
        JSON.parse(
          (db.prepare("SELECT payload FROM acp_events WHERE session_id = ? AND kind = 'permission_request'").get(id) as { payload: string })
            .payload,
        ).requestId,
    );
    const socket = await connect(server.url);
    expect((await socket.emitWithAck("acp:attach", { sessionId: id })).ok).toBe(true);
    const stale = await socket.emitWithAck("acp:permission", { sessionId: id, requestId, optionId: "allow" });
    expect(stale).toMatchObject({ ok: false, status: 409 });
    socket.close();
  });

  test("an agent that dies mid-turn ends the session as agent-exited and keeps the conversation", async ({ page, request }) => {
    await startChat(page, server.url, "crash test");
    await ask(page, "crash now");
    await expect(page.getByTestId("ended-explanation")).toContainText("exited with code 3");
    const state = await (await request.get(`${server.url}/api/session/state`)).json();
    expect(state.lastEnded.endReason).toBe("agent-exited");
    await page.goto(`${server.url}/sessions/${state.lastEnded.id}`);
    await expect(page.getByTestId("acp-transcript")).toContainText("crash now");
    await expect(page.getByTestId("acp-transcript")).toContainText("Starting to answer");
  });
});

test.describe("agents that break the protocol", () => {
  for (const [name, args, message] of [
    ["never answers initialize", ["--no-init"], /did not answer the protocol handshake within 2 s/],
    ["prints a banner on stdout", ["--garbage"], /not the Agent Client Protocol on its output/],
    ["answers with broken JSON", ["--malformed"], /not the Agent Client Protocol on its output/],
  ] as const) {
    test(`an agent that ${name} fails the start clearly and frees the slot`, async ({ request }) => {
      const dataDir = makeDataDir({
        broken: { command: process.execPath, args: [], acp: { command: process.execPath, args: [ACP_TEST_AGENT, ...args] } },
      });
      const server = await startServer({ dataDir, env: { STUDYLOOP_ACP_HANDSHAKE_SECONDS: "2" } });
      try {
        const res = await request.post(`${server.url}/api/session/start`, { data: { ...acpStart, agent: "broken" } });
        expect(res.status()).toBe(502);
        expect((await res.json()).error).toMatch(message);
        const state = await (await request.get(`${server.url}/api/session/state`)).json();
        expect(state.state).toBe("ended");
        expect(state.lastEnded.endReason).toBe("startup-failed");
        expect(sessionRow(dataDir, state.lastEnded.id).live_slot).toBeNull();
        expect((await request.post(`${server.url}/api/session/start`, { data: acpStart })).status()).toBe(201);
        await request.post(`${server.url}/api/session/end`);
      } finally {
        await server.stop();
      }
    });
  }
});

test("kill -9 of the server: another server explains the end and the conversation stays readable", async ({ page }) => {
  const dataDir = makeDataDir();
  const a = await startServer({ dataDir });
  await startChat(page, a.url, "before the crash");
  await ask(page, "explain closures");
  await expect(page.getByTestId("agent-message").last()).toHaveText("Closures capture the variables of their enclosing scope.");
  await a.kill9();
  const b = await startServer({ dataDir });
  try {
    await page.goto(`${b.url}/study`);
    await expect(page.getByTestId("ended-explanation")).toContainText("The StudyLoop server that ran this session stopped at");
    await expect(page.getByTestId("messages")).toHaveCount(0);
    const id = withDb(dataDir, (db) => (db.prepare("SELECT id FROM study_sessions").get() as { id: string }).id);
    await page.goto(`${b.url}/sessions/${id}`);
    await expect(page.getByTestId("acp-transcript")).toContainText("explain closures");
    await expect(page.getByTestId("acp-transcript")).toContainText("Closures capture the variables of their enclosing scope.");
  } finally {
    await b.stop();
  }
});
