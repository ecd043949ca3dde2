// Live study sessions in the browser terminal, with the deterministic test tutor as the agent.
import { test, expect } from "@playwright/test";
import { testServer } from "./support/test-server";
import { expectTerminalToContain, startSessionFromPage, terminalText, typeInTerminal } from "./support/terminal";

const server = testServer();

test("start, type, see the echo, reload and see the same screen", async ({ page }) => {
  await page.goto(`${server.url}/study`);
  await expect(page.getByLabel("Tutor agent")).toHaveValue("tutor");
  await startSessionFromPage(page, "closures");
  await expectTerminalToContain(page, "StudyLoop test tutor");
  await typeInTerminal(page, "hello tutor\r");
  await expectTerminalToContain(page, "you said: hello tutor");
  await typeInTerminal(page, "lines 300\r");
  await expectTerminalToContain(page, "line 300");

  // The page comes with the screen as it is, before any script runs; the terminal then takes over.
  const html = await (await page.request.get(`${server.url}/study`)).text();
  const preview = html.slice(html.indexOf('data-testid="screen-preview"'));
  expect(preview).toContain("line 300");
  expect(preview).not.toContain("you said: hello tutor"); // scrolled off the visible screen

  await page.reload();
  await expect(page.getByTestId("console-status")).toHaveText("live");
  await expect(page.getByTestId("screen-preview")).toHaveCount(0);
  await expectTerminalToContain(page, "you said: hello tutor");
  const text = await terminalText(page);
  expect(text).toContain("line 1\n");
  expect(text).toContain("line 300");
  await typeInTerminal(page, "after reload\r");
  await expectTerminalToContain(page, "you said: after reload");
  await page.screenshot({ path: test.info().outputPath("live-console.png") });
});

test("a second browser sees the same session and its typing reaches the agent", async ({ page, browser }) => {
  await page.goto(`${server.url}/study`);
  await startSessionFromPage(page, "recursion");
  await typeInTerminal(page, "from laptop\r");
  await expectTerminalToContain(page, "you said: from laptop");

  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  const second = await phone.newPage();
  await second.goto(`${server.url}/study`);
  await expect(second.getByTestId("console-status")).toHaveText("live");
  await expectTerminalToContain(second, "you said: from laptop");
  await typeInTerminal(second, "from phone\r");
  await expectTerminalToContain(second, "you said: from phone");
  await expectTerminalToContain(page, "you said: from phone");
  await second.screenshot({ path: test.info().outputPath("phone-console.png") });
  await phone.close();
});

test("ending asks first, then shows the summary", async ({ page }) => {
  await page.goto(`${server.url}/study`);
  await startSessionFromPage(page, "generators");
  await expectTerminalToContain(page, "tutor>");
  await page.getByRole("button", { name: "End session" }).click();
  await expect(page.getByRole("heading", { name: "End this session?" })).toBeVisible();
  await page.getByRole("dialog").getByRole("button", { name: "End session" }).click();
  const ended = page.getByTestId("ended-explanation");
  await expect(ended).toContainText("You ended this session at");
  await expect(ended.getByTestId("session-summary")).toContainText("Duration");
  const state = await (await page.request.get(`${server.url}/api/session/state`)).json();
  expect(state.state).toBe("ended");
  expect(state.lastEnded.endReason).toBe("ended-by-learner");
});

test("an agent that exits by itself shows its exit code", async ({ page }) => {
  await page.goto(`${server.url}/study`);
  await startSessionFromPage(page, "exit codes");
  await expectTerminalToContain(page, "tutor>");
  await typeInTerminal(page, "exit 3\r");
  await expect(page.getByTestId("ended-explanation")).toContainText("exited with code 3");
  const state = await (await page.request.get(`${server.url}/api/session/state`)).json();
  expect(state.lastEnded.endReason).toBe("agent-exited");
  expect(state.lastEnded.exitCode).toBe(3);
});

test("a full-screen program is restored exactly after a reload", async ({ page }) => {
  await page.goto(`${server.url}/study`);
  await startSessionFromPage(page, "vim");
  await typeInTerminal(page, "fullscreen\r");
  await expectTerminalToContain(page, "FULLSCREEN BOX: press q to leave");
  const before = await terminalText(page);
  await page.reload();
  await expect(page.getByTestId("console-status")).toHaveText("live");
  await expectTerminalToContain(page, "FULLSCREEN BOX: press q to leave");
  const isAlt = await page.evaluate(
    () => (window as unknown as { __studyloopTerm: { buffer: { active: { type: string } } } }).__studyloopTerm.buffer.active.type,
  );
  expect(isAlt).toBe("alternate");
  expect(await terminalText(page)).toBe(before);
  await typeInTerminal(page, "q");
  await expectTerminalToContain(page, "tutor>");
});
