// When the server's copy of the terminal (its mirror, a worker thread) keeps failing, a page that loads
// says so instead of looking live, and the session goes on. A real failure: the mirror's heap is held
// to 8 MB (STUDYLOOP_MIRROR_HEAP_MB) and wide, coloured output runs it out of memory, as a much larger
// screen would at the default limit. After two rebuilds from recent output the server stops making it.
import { test, expect } from "@playwright/test";
import { testServer } from "./support/test-server";
import { open, watchProblems } from "./support/page";
import { expectTerminalToContain, typeInTerminal } from "./support/terminal";

const GIVEN_UP = "not made again";

test.describe("a terminal whose server copy fails", () => {
  const server = testServer({ env: { STUDYLOOP_MIRROR_HEAP_MB: "8" } });

  test("a page that loads after it says why it cannot show the terminal, and the session stays live", async ({ page, request }) => {
    const problems = watchProblems(page);
    const res = await request.post(`${server.url}/api/session/start`, { data: { topic: "mirror failure", energy: 5, agent: "tutor" } });
    expect(res.status(), await res.text()).toBe(201);
    await open(page, `${server.url}/study`);
    await expectTerminalToContain(page, "tutor>");

    for (let i = 0; i < 20 && !server.output().includes(GIVEN_UP); i++) {
      await typeInTerminal(page, "flood 4000\n");
      await expect
        .poll(() => server.output().includes(GIVEN_UP), { timeout: 10_000 })
        .toBe(true)
        .catch(() => undefined);
    }
    expect(server.output(), "the server's log").toContain("The terminal's mirror failed");
    expect(server.output(), "the server's log").toContain(GIVEN_UP);

    await page.reload();
    await expect(page.getByText("This page stopped showing the terminal")).toBeVisible({ timeout: 15_000 });
    await expect(page.getByText("Your session is still running: reload the page to try again.")).toBeVisible();
    await expect(page.getByTestId("console-status")).not.toHaveText("live");
    await page.screenshot({ path: test.info().outputPath("detached.png") });

    const state = await request.get(`${server.url}/api/session/state`);
    expect(await state.text()).toContain('"status":"live"');
    expect(problems).toEqual([]);
  });
});
