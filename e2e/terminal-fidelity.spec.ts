// The same screen on every device: a desktop (1280x800) and a phone (390x844) open together on one
// session, reloaded, attached late, typing in turn. Each page's terminal, read cell by cell, must equal
// a terminal that saw the whole stream (a socket viewer in the test process, into a headless xterm);
// a terminal query gets exactly one answer with 0, 1 or 2 pages open; a reload never resizes the pty.
import { test, expect, type Browser, type Page } from "@playwright/test";
import headless from "@xterm/headless";
import { watchProblems } from "./support/page";
import { startServer, type StartedServer } from "./support/server";
import { connect, type TestSocket } from "./support/socket";
import {
  expectTerminalToContain,
  pageCells,
  readScreenCells,
  startSessionFromPage,
  terminalText,
  typeInTerminal,
} from "./support/terminal";
import type { TerminalFrameView } from "../server/realtime/events";

const { Terminal } = headless;

let server: StartedServer;
test.beforeAll(async () => {
  server = await startServer();
});
test.afterAll(async () => {
  await server.stop();
});

/** A viewer that saw the whole stream: every frame into a headless terminal, acknowledged once parsed. */
class ReferenceViewer {
  readonly term = new Terminal({ cols: 80, rows: 24, scrollback: 10_000, allowProposedApi: true });
  readonly resizes: { cols: number; rows: number }[] = [];
  private pending: Promise<void> = Promise.resolve();
  constructor(
    readonly socket: TestSocket,
    readonly sessionId: string,
  ) {
    socket.on("terminal:frame", (id, frame: TerminalFrameView) => {
      if (id !== sessionId) return;
      this.pending = this.pending.then(() => this.apply(frame));
    });
  }
  private apply(frame: TerminalFrameView): Promise<void> {
    if (frame.type === "resize") {
      this.resizes.push({ cols: frame.cols, rows: frame.rows });
      this.term.resize(frame.cols, frame.rows);
      return Promise.resolve();
    }
    if (frame.type === "packed-replay") throw new Error("This viewer did not ask for packed replays.");
    if (frame.type === "output-bytes") throw new Error("This viewer did not ask for output as bytes.");
    if (frame.type === "detached") throw new Error("The server detached this viewer: its replay could not be made.");
    if (frame.type === "replay") {
      this.term.reset();
      this.term.resize(frame.cols, frame.rows);
    }
    return new Promise((resolve) =>
      this.term.write(frame.data, () => {
        this.socket.emit("terminal:ack", { sessionId: this.sessionId, chars: frame.data.length });
        resolve();
      }),
    );
  }
  async cells() {
    await this.pending;
    return readScreenCells(this.term);
  }
}

const watchErrors = (page: Page, errors: string[]): void => void watchProblems(page, {}, errors);

async function openPhone(browser: Browser, errors: string[]): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  const phone = await context.newPage();
  watchErrors(phone, errors);
  await phone.goto(`${server.url}/study`);
  await expect(phone.getByTestId("console-status")).toHaveText("live");
  return phone;
}

/** Waits until the page's terminal equals the reference cell for cell (both settle after output). */
async function expectSameScreen(page: Page, reference: ReferenceViewer, label: string): Promise<void> {
  await expect
    .poll(async () => JSON.stringify(await pageCells(page)) === JSON.stringify(await reference.cells()), {
      timeout: 15_000,
      message: label,
    })
    .toBe(true);
}

const answersIn = (text: string) => (text.match(/\^\[\[\?1;2c/g) ?? []).length;

test("desktop and phone show the same cells as the live terminal through reloads, late attach and typing in turn", async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const errors: string[] = [];
  watchErrors(page, errors);
  await page.goto(`${server.url}/study`);
  await startSessionFromPage(page, "fidelity");
  await expectTerminalToContain(page, "tutor>");
  const state = await (await page.request.get(`${server.url}/api/session/state`)).json();
  const sessionId: string = state.session.id;

  const socket = await connect(server.url);
  const reference = new ReferenceViewer(socket, sessionId);
  expect((await socket.emitWithAck("terminal:attach", { sessionId })).ok).toBe(true);

  // One page open: one answer to each query.
  await typeInTerminal(page, "query\r");
  await expectTerminalToContain(page, /answers: .*\^\[\]11;rgb/);
  expect(answersIn(await terminalText(page))).toBe(1);
  await typeInTerminal(page, "lines 40\r");
  await expectTerminalToContain(page, "line 40");
  await expectSameScreen(page, reference, "desktop after typing");
  // A flood of mixed ANSI reaches the page as bytes (output-wire.ts), the reference as strings.
  await typeInTerminal(page, "flood 300\r");
  await expectTerminalToContain(page, "flood done: 300 lines");
  await expectSameScreen(page, reference, "desktop after a flood");
  const desktopSize = reference.resizes.at(-1);

  // The phone attaches late: the same cells, the size unchanged, and a cue that it is sized for the laptop.
  const phone = await openPhone(browser, errors);
  await expectSameScreen(phone, reference, "phone attached late");
  await expect(phone.getByTestId("terminal-cue")).toContainText("Sized for your laptop");
  await phone.screenshot({ path: test.info().outputPath("phone-sized-for-laptop.png") });
  expect(reference.resizes.at(-1)).toEqual(desktopSize);

  // Two pages open: still one answer.
  await typeInTerminal(page, "query\r");
  await expect.poll(async () => answersIn(await terminalText(page)), { timeout: 15_000 }).toBe(2);

  // The phone types: it takes the size; the desktop shows the cue and the same cells.
  await typeInTerminal(phone, "from phone\r");
  await expectTerminalToContain(phone, "you said: from phone");
  await expect(page.getByTestId("terminal-cue")).toContainText("Sized for your phone");
  await expectSameScreen(page, reference, "desktop after the phone typed");
  await expectSameScreen(phone, reference, "phone after it typed");
  await page.screenshot({ path: test.info().outputPath("desktop-sized-for-phone.png") });

  // A full-screen program, then reloads of each: the same cells, and no resize from the reloads.
  await typeInTerminal(phone, "fullscreen\r");
  await expectTerminalToContain(phone, "FULLSCREEN BOX");
  const resizesBefore = reference.resizes.length;
  await phone.reload();
  await expect(phone.getByTestId("console-status")).toHaveText("live");
  await expectSameScreen(phone, reference, "phone reloaded");
  await page.reload();
  await expect(page.getByTestId("console-status")).toHaveText("live");
  await expectSameScreen(page, reference, "desktop reloaded");
  expect(reference.resizes.length).toBe(resizesBefore);

  // "Fit to this screen" on the desktop takes the size back without typing.
  await page.getByRole("button", { name: "Fit to this screen" }).click();
  await expect(page.getByTestId("terminal-cue")).toHaveCount(0);
  await expect(phone.getByTestId("terminal-cue")).toContainText("Sized for your laptop");
  await expectSameScreen(page, reference, "desktop after Fit to this screen");
  await expectSameScreen(phone, reference, "phone after the desktop took the size");
  await typeInTerminal(page, "q");
  await expectTerminalToContain(page, /tutor> $/m);

  // A reload while output flows: its replay, then what came after it, and the same cells.
  await typeInTerminal(page, "flood 2000\r");
  await phone.reload();
  await expect(phone.getByTestId("console-status")).toHaveText("live");
  await expectTerminalToContain(phone, "flood done: 2000 lines");
  await expectSameScreen(phone, reference, "phone reloaded during a flood");

  // No page open: the mirror still answers, once.
  await phone.context().close();
  await page.goto(`${server.url}/`);
  socket.emit("terminal:input", { sessionId, data: "query\r" });
  await expect
    .poll(
      async () => {
        await reference.cells();
        return answersIn(bufferText(reference.term));
      },
      { timeout: 15_000 },
    )
    .toBe(3);

  socket.disconnect();
  await page.request.post(`${server.url}/api/session/end`);
  expect(errors).toEqual([]);
});

test("a laptop showing a terminal sized for the phone types after a click anywhere on its frame", async ({ page, browser }) => {
  const errors: string[] = [];
  watchErrors(page, errors);
  await page.goto(`${server.url}/study`);
  await startSessionFromPage(page, "sized elsewhere");
  await expectTerminalToContain(page, "tutor>");
  const phone = await openPhone(browser, errors);
  await typeInTerminal(phone, "from phone\r");
  await expectTerminalToContain(phone, "you said: from phone");
  await expect(page.getByTestId("terminal-cue")).toContainText("Sized for your phone");
  // The phone's 48 columns fill the left of the laptop's frame: its middle and right are empty.
  const frame = (await page.getByTestId("terminal").boundingBox())!;
  await page.mouse.click(frame.x + frame.width * 0.9, frame.y + frame.height * 0.5);
  await page.keyboard.type("from laptop\r");
  await expectTerminalToContain(page, "you said: from laptop");
  await expect(page.getByTestId("terminal-cue")).toHaveCount(0);
  await phone.context().close();
  await page.request.post(`${server.url}/api/session/end`);
  expect(errors).toEqual([]);
});

function bufferText(term: InstanceType<typeof Terminal>): string {
  const buffer = term.buffer.active;
  const lines: string[] = [];
  for (let i = 0; i < buffer.length; i++) lines.push(buffer.getLine(i)?.translateToString(true) ?? "");
  return lines.join("\n");
}
