// An agent that takes a while to draw its first screen (offline, codex ~17 s, opencode up to a minute):
// the live terminal says so under it until something appears, then the hint goes.
import { test, expect } from "@playwright/test";
import { makeDataDir } from "./support/server";
import { testServer } from "./support/test-server";
import { open, watchProblems } from "./support/page";
import { expectTerminalToContain } from "./support/terminal";

const server = testServer({
  dataDir: makeDataDir({ slow: { label: "Slow tutor", command: "/bin/sh", args: ["-c", "sleep 9; echo 'slow tutor ready'; sleep 600"] } }),
});

test("a blank terminal says the agent has not drawn yet, until it does", async ({ page, request }) => {
  const problems = watchProblems(page);
  const res = await request.post(`${server.url}/api/session/start`, { data: { topic: "slow start", energy: 5, agent: "slow" } });
  expect(res.status(), await res.text()).toBe(201);
  await open(page, `${server.url}/study`);
  const hint = page.getByTestId("starting-hint");
  await expect(hint).toContainText("slow has not drawn anything yet", { timeout: 8_000 });
  await expectTerminalToContain(page, "slow tutor ready", 20_000);
  await expect(hint).toHaveCount(0);
  await page.reload();
  await expectTerminalToContain(page, "slow tutor ready");
  await page.waitForTimeout(1_500);
  await expect(hint).toHaveCount(0);
  expect(problems).toEqual([]);
});
