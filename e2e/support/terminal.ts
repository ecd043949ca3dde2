// Reads what the page's xterm shows, the way a learner sees it.
import { expect, type Page } from "@playwright/test";
import { hydrated } from "./page";

/** The active buffer of the study page's terminal, line by line (scrollback included). */
export async function terminalText(page: Page): Promise<string> {
  return page.evaluate(() => {
    const term = (window as unknown as { __studyloopTerm?: { buffer: { active: { length: number; getLine(i: number): { translateToString(trim: boolean): string } | undefined } } } }).__studyloopTerm;
    if (!term) return "";
    const buffer = term.buffer.active;
    const lines: string[] = [];
    for (let i = 0; i < buffer.length; i++) lines.push(buffer.getLine(i)?.translateToString(true) ?? "");
    return lines.join("\n");
  });
}

export async function expectTerminalToContain(page: Page, text: string | RegExp, timeout = 15_000): Promise<void> {
  await expect
    .poll(() => terminalText(page), { timeout, message: `terminal should show ${String(text)}` })
    .toMatch(typeof text === "string" ? new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")) : text);
}

/** Types into the terminal as a learner would: focus it, then key presses. */
export async function typeInTerminal(page: Page, text: string): Promise<void> {
  await page.getByTestId("terminal").click();
  await page.keyboard.type(text);
}

export async function startSessionFromPage(page: Page, topic: string, energy = 5): Promise<void> {
  await hydrated(page);
  await page.getByLabel("Topic").fill(topic);
  await page.getByLabel(/Energy/).fill(String(energy));
  await page.getByRole("button", { name: "Start session" }).click();
  await expect(page.getByTestId("console-status")).toHaveText("live");
}
