// Trying StudyLoop without an AI (issue 40): on a machine whose data directory names no agent, the
// start form offers "Demo tutor (no AI)"; started from the form as a terminal at laptop and phone
// size it draws its screen, and its parked thought, topic mark and card reach the feed and the
// Review page through the real `studyloop` commands. As a chat it streams an answer with a plan and
// a permission question, and allowed, writes its card. Screenshots are kept; page errors fail.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { test, expect, type Page } from "@playwright/test";
import { testServer } from "./support/test-server";
import { LAPTOP_AND_PHONE as SIZES, open, watchedPage } from "./support/page";
import { expectTerminalToContain, typeInTerminal } from "./support/terminal";

// No studyloop.config.json: only what StudyLoop itself offers.
const server = testServer({ dataDir: fs.mkdtempSync(path.join(os.tmpdir(), "studyloop-e2e-demo-")) });

async function startFromForm(page: Page, topic: string, view: "terminal" | "chat"): Promise<void> {
  await open(page, `${server.url}/study`);
  await page.getByLabel("Tutor agent").selectOption({ label: "Demo tutor (no AI)" });
  await expect(page.getByTestId("agent-blurb")).toContainText("A script, not an AI");
  await page.getByLabel("Topic").fill(topic);
  await page.getByLabel(view === "chat" ? /a chat/ : /a terminal/).check();
  await page.getByRole("button", { name: "Start session" }).click();
}

/** The feed of marks and parked thoughts: beside the tutor on a laptop, a sheet on a phone. */
async function openPanel(page: Page): Promise<void> {
  const toggle = page.getByTestId("panel-toggle");
  if ((await toggle.getAttribute("aria-expanded")) !== "true") await toggle.click();
}

for (const size of SIZES) {
  test(`the demo tutor in a terminal (${size.name}): its screen, then its thought, mark and card in the feed`, async ({ browser }) => {
    test.setTimeout(120_000);
    const { page, check } = await watchedPage(browser, size.options);
    await startFromForm(page, "SQL joins", "terminal");
    await expect(page.getByTestId("console-status")).toHaveText("live");
    await expectTerminalToContain(page, "StudyLoop demo tutor");
    await expectTerminalToContain(page, "Topic: SQL joins");
    await openPanel(page);
    await expect(page.getByTestId("parked-feed")).toContainText("where does SQL joins show up in real projects?", { timeout: 30_000 });
    await expect(page.getByTestId("mark-feed")).toContainText("SQL joins", { timeout: 30_000 });
    await expect(page.getByTestId("mark-feed")).toContainText("started with the demo tutor");
    await expectTerminalToContain(page, 'Card added to "SQL joins"', 30_000);
    await expectTerminalToContain(page, "you>");
    await page.screenshot({ path: test.info().outputPath(`demo-terminal-${size.name}.png`) });

    // It answers what the learner types, with the real commands.
    if (size.options.isMobile) await page.getByTestId("panel-toggle").click();
    await typeInTerminal(page, "park why is LEFT JOIN lossy?\r");
    await openPanel(page);
    await expect(page.getByTestId("parked-feed")).toContainText("why is LEFT JOIN lossy?");
    if (size.options.isMobile) await page.getByTestId("panel-toggle").click();
    await typeInTerminal(page, "win\r");
    await openPanel(page);
    await expect(page.getByTestId("mark-feed")).toContainText("got it");
    await page.screenshot({ path: test.info().outputPath(`demo-terminal-answers-${size.name}.png`) });

    const cards = await page.request.get(`${server.url}/api/cards?topic=${encodeURIComponent("SQL joins")}`);
    expect(((await cards.json()) as { cards: { front: string; author: string }[] }).cards).toEqual(
      expect.arrayContaining([expect.objectContaining({ front: "What does StudyLoop keep while you study?", author: "agent" })]),
    );
    check();
  });
}

test("the demo tutor as a chat: a plan, a streamed Markdown answer, and a card written once allowed", async ({ browser }) => {
  test.setTimeout(120_000);
  for (const size of SIZES) {
    const { page, check } = await watchedPage(browser, size.options);
    await startFromForm(page, `closures ${size.name}`, "chat");
    await expect(page.getByTestId("chat-status")).toHaveText("live", { timeout: 30_000 });
    const box = page.getByLabel("Message to the tutor");
    await box.fill("what is a closure?");
    await box.press("Enter");
    await expect(page.getByRole("heading", { name: "what is a closure?" })).toBeVisible({ timeout: 30_000 });
    await expect(page.getByRole("table")).toContainText("agent_message_chunk");
    await expect(page.getByText("Answer with an example")).toBeVisible();
    await page.getByRole("button", { name: "Write the card" }).click();
    await expect(page.getByText(/Card written: What did I ask the demo tutor about closures/)).toBeVisible({ timeout: 30_000 });
    await expect(page.getByText("The card is on the Review page now.")).toBeVisible();
    await page.screenshot({ path: test.info().outputPath(`demo-chat-${size.name}.png`), fullPage: true });
    check();
    await page.request.post(`${server.url}/api/session/end`);
    await page.context().close();
  }
});
