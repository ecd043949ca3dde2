// Reads what the page's xterm shows, the way a learner sees it.
import { expect, type Page } from "@playwright/test";
import type { IBufferCell } from "@xterm/headless";
import { hydrated } from "./page";

/** The active buffer of the study page's terminal, line by line (scrollback included). */
export async function terminalText(page: Page): Promise<string> {
  return page.evaluate(() => {
    const term = (
      window as unknown as {
        __studyloopTerm?: {
          buffer: { active: { length: number; getLine(i: number): { translateToString(trim: boolean): string } | undefined } };
        };
      }
    ).__studyloopTerm;
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

/** A terminal's visible cells, cursor, size and modes, through the API @xterm/xterm and @xterm/headless share. */
export interface ScreenCells {
  cols: number;
  rows: number;
  buffer: string;
  cursor: [number, number];
  modes: Record<string, unknown>;
  /** Per row: each cell as chars|width|colour modes and values|attribute flags. */
  lines: string[];
}

/**
 * Reads a terminal's screen cell by cell. Self-contained (no closures), so the same function runs in
 * the page on its xterm and in the test process on a headless one.
 */
export function readScreenCells(term: unknown): ScreenCells | null {
  // Types only (erased), so the function stays self-contained in the page.
  type Line = { getCell(x: number): IBufferCell | undefined };
  type Buffer = { type: string; baseY: number; cursorX: number; cursorY: number; getLine(y: number): Line | undefined };
  const t = term as { cols: number; rows: number; modes: Record<string, unknown>; buffer: { active: Buffer } } | undefined;
  if (!t) return null;
  const buffer = t.buffer.active;
  const lines: string[] = [];
  for (let y = 0; y < t.rows; y++) {
    const line = buffer.getLine(buffer.baseY + y);
    const cells: string[] = [];
    for (let x = 0; x < t.cols; x++) {
      const c = line?.getCell(x);
      if (!c) {
        cells.push("-");
        continue;
      }
      const flags = [
        c.isBold(),
        c.isDim(),
        c.isItalic(),
        c.isUnderline(),
        c.isBlink(),
        c.isInverse(),
        c.isInvisible(),
        c.isStrikethrough(),
        c.isOverline(),
      ]
        .map((f) => (f ? 1 : 0))
        .join("");
      // A palette colour below 16 as 38;5;N or 3N: drawn the same, and a snapshot may write one as the
      // other (server/transports/pty/terminal-state.ts, lowPaletteAs16).
      const mode = (m: number, v: number) => (m === 0x2000000 && v < 16 ? 0x1000000 : m);
      cells.push(
        `${c.getChars() || " "}|${c.getWidth()}|${mode(c.getFgColorMode(), c.getFgColor())}:${c.getFgColor()}|${mode(c.getBgColorMode(), c.getBgColor())}:${c.getBgColor()}|${flags}`,
      );
    }
    lines.push(cells.join(" "));
  }
  return { cols: t.cols, rows: t.rows, buffer: buffer.type, cursor: [buffer.cursorX, buffer.cursorY], modes: { ...t.modes }, lines };
}

/** The study page's terminal, read cell by cell (readScreenCells). */
export async function pageCells(page: Page): Promise<ScreenCells | null> {
  return page.evaluate(`(${readScreenCells.toString()})(window.__studyloopTerm)`) as Promise<ScreenCells | null>;
}
