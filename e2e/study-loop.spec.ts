// The study loop end to end (issue 5): focus plan, server-kept timer, parking from the page and from
// the agent's `studyloop park`, topic marks, the summary, history, search, charts, live updates on a
// second page, break nudges, the parking lot, and refusals that write nothing.
import { test, expect, type APIResponse, type Browser, type Page } from "@playwright/test";
import { spawnSync } from "node:child_process";
import path from "node:path";
import { ROOT, startServer, type StartedServer } from "./support/server";
import { testServer } from "./support/test-server";
import { storedState, withDb } from "./support/db";
import { open, watchProblems } from "./support/page";
import { connect, Viewer } from "./support/socket";
import { expectTerminalToContain, typeInTerminal } from "./support/terminal";

interface Size {
  readonly name: string;
  readonly viewport: { width: number; height: number };
  readonly mobile: boolean;
}

const SIZES: readonly [Size, Size] = [
  { name: "desktop", viewport: { width: 1280, height: 800 }, mobile: false },
  { name: "phone", viewport: { width: 390, height: 844 }, mobile: true },
];

async function newPage(browser: Browser, size: Size): Promise<Page> {
  const context = await browser.newContext({ viewport: size.viewport, isMobile: size.mobile, hasTouch: size.mobile });
  return context.newPage();
}

/**
 * What the learner and the agent have written: every parked item and mark, and each session's
 * counts, timer and summary (not the heartbeat or transcript checkpoints a live session refreshes).
 */
function writtenState(dataDir: string): string {
  return withDb(dataDir, (db) =>
    JSON.stringify([
      db.prepare("SELECT * FROM parked_items ORDER BY id").all(),
      db.prepare("SELECT * FROM topic_marks ORDER BY id").all(),
      db
        .prepare(
          "SELECT id, status, ended_at, end_reason, win_count, struggle_count, paused_at, paused_ms, nudges_shown, summary FROM study_sessions ORDER BY id",
        )
        .all(),
    ]),
  );
}

function shot(page: Page, name: string) {
  return page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true });
}

async function noSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
}

test.describe("the study loop", () => {
  const server = testServer();

  for (const size of SIZES) {
    test(`at ${size.name} size: plan, timer, parking, marks, reload, summary, history and a live second page`, async ({ browser }) => {
      // A long walk through the loop: the tutor runs the real `studyloop` command four times.
      test.setTimeout(180_000);
      const topic = `closures on a ${size.name}`;
      const mine = `why is it called hoisting (${size.name})?`;
      const theirs = `read about tail calls later (${size.name})`;

      // A second page watches the dashboard the whole time.
      const watcher = await newPage(browser, SIZES[0]);
      await open(watcher, server.url);
      await expect(watcher.getByTestId("live-card")).toContainText("No session is running");

      const page = await newPage(browser, size);
      await open(page, `${server.url}/study`);
      await page.getByLabel("Topic").fill(topic);
      await page.getByLabel(/Energy/).fill("3");
      await expect(page.getByTestId("focus-plan")).toHaveText(
        "Low-energy plan: A 5 min break nudge at 15 min of focus and a 10 min one at 30 min, then the same again.",
      );
      await expect(page.getByLabel(/Matched to my energy/)).toBeChecked();
      await noSidewaysScroll(page);
      await shot(page, `start-form-${size.name}`);
      await page.getByRole("button", { name: "Start session" }).click();
      await expect(page.getByTestId("console-status")).toHaveText("live");
      await expect(page.getByTestId("timer")).toContainText("Low-energy plan");
      await expect(page.getByTestId("next-break")).toContainText(/Break in 1[45]:\d\d/);

      // The dashboard changes without a reload.
      await expect(watcher.getByTestId("live-card")).toContainText(topic);
      await expect(watcher.getByTestId("live-counts")).toContainText("0 wins · 0 struggles · 0 parked");

      // Park from the page: the keyboard shortcut on a desktop (even while the terminal has focus),
      // the button on a phone.
      await expectTerminalToContain(page, "tutor>");
      if (size.mobile) {
        await page.getByTestId("park-button").tap();
      } else {
        await page.getByTestId("terminal").click();
        await page.keyboard.press("Alt+P");
      }
      await expect(page.getByRole("dialog", { name: "Park a thought" })).toBeVisible();
      await page.getByLabel("The thought to park").fill(mine);
      await page.keyboard.press("Enter");
      await expect(page.getByTestId("park-done")).toContainText("Parked");
      await expect(page.getByTestId("parked-feed")).toContainText(mine);
      const sessionId = withDb(
        server.dataDir,
        (db) => (db.prepare("SELECT id FROM study_sessions WHERE topic = ?").get(topic) as { id: string }).id,
      );
      expect(
        withDb(server.dataDir, (db) => db.prepare("SELECT text, source, status FROM parked_items WHERE session_id = ?").all(sessionId)),
      ).toEqual([{ text: mine, source: "learner", status: "pending" }]);

      // The agent parks and marks a win with the CLI, as the tutor instructions tell it to.
      // (A phone's narrow terminal wraps long lines: look for short pieces.)
      await typeInTerminal(page, `park ${theirs}\r`);
      await expectTerminalToContain(page, /Parked for after the session[\s\S]*studyloop exit 0/);
      await typeInTerminal(page, "win closures\r");
      await expectTerminalToContain(page, /Marked "closures" as a win\.\s+studyloop exit 0/);
      await expect(page.getByTestId("parked-feed")).toContainText(theirs);
      await expect(page.getByTestId("parked-feed").getByText(/from the tutor/)).toHaveCount(1);
      await expect(page.getByTestId("mark-feed")).toContainText("Win closures");
      await expect(page.getByTestId("mark-feed")).toContainText("from the tutor");
      expect(
        withDb(server.dataDir, (db) => db.prepare("SELECT topic, status, source FROM topic_marks WHERE session_id = ?").all(sessionId)),
      ).toEqual([{ topic: "closures", status: "win", source: "agent" }]);
      await expect(watcher.getByTestId("live-counts")).toContainText("1 win · 0 struggles · 2 parked");

      // A mark from the page (on a phone the marks live in a bottom sheet: open it first).
      const toggle = page.getByTestId("panel-toggle");
      if ((await toggle.getAttribute("aria-expanded")) === "false") await toggle.click();
      await expect(page.getByLabel("Topic", { exact: true })).toHaveValue(topic);
      await page.getByLabel("Topic", { exact: true }).fill("closures");
      await page.getByLabel("Note").fill("the loop variable trap");
      await page.getByRole("group", { name: "How is it going?" }).getByRole("button", { name: "Struggling" }).click();
      await expect(page.getByTestId("mark-feed")).toContainText("Struggling closures · the loop variable trap");
      await expect(watcher.getByTestId("live-counts")).toContainText("1 win · 1 struggle · 2 parked");
      await shot(watcher, `dashboard-live-${size.name}`);

      // Pause: the time stops, on the server. A reload shows the same time, items and marks.
      await page.getByRole("button", { name: "Pause" }).click();
      await expect(page.getByTestId("timer")).toHaveAttribute("data-paused", "true");
      await expect(watcher.getByTestId("live-focus")).toContainText("Paused at");
      const pausedAt = await page.getByTestId("focus-time").textContent();
      expect(pausedAt).toMatch(/^\d+:\d\d$/);
      await noSidewaysScroll(page);
      await shot(page, `study-${size.name}`);
      await page.reload();
      await expect(page.getByTestId("console-status")).toHaveText("live");
      await expect(page.getByTestId("focus-time")).toHaveText(pausedAt!);
      await expect(page.getByTestId("timer")).toHaveAttribute("data-paused", "true");
      await expect(page.getByTestId("parked-feed")).toContainText(mine);
      await expect(page.getByTestId("parked-feed")).toContainText(theirs);
      await expect(page.getByTestId("mark-feed")).toContainText("Win closures");
      await expect(page.getByTestId("mark-feed")).toContainText("Struggling closures");
      await page.getByRole("button", { name: "Resume" }).click();
      await expect(page.getByTestId("timer")).toHaveAttribute("data-paused", "false");
      const row = withDb(server.dataDir, (db) =>
        db.prepare("SELECT paused_at, paused_ms FROM study_sessions WHERE id = ?").get(sessionId),
      ) as { paused_at: unknown; paused_ms: number };
      expect(row.paused_at).toBeNull();
      expect(row.paused_ms).toBeGreaterThan(0);

      // End: the summary names the win, the struggle and both parked thoughts.
      await page.getByRole("button", { name: "End session" }).click();
      await page.getByRole("dialog").getByRole("button", { name: "End session" }).click();
      const summary = page.getByTestId("session-summary");
      await expect(summary.getByTestId("summary-wins")).toHaveText("closures");
      await expect(summary.getByTestId("summary-parked")).toContainText(mine);
      await expect(summary.getByTestId("summary-parked")).toContainText(theirs);
      await expect(summary.getByTestId("summary-next")).toContainText(mine);
      await noSidewaysScroll(page);
      await shot(page, `summary-${size.name}`);

      // The dashboard that watched it all: history, today's square, and search, all without typing a URL.
      await expect(watcher.getByTestId("live-card")).toContainText("No session is running");
      await expect(watcher.getByTestId("history")).toContainText(topic);
      const today = watcher.locator('.heat[data-today="true"]');
      await expect(today).toHaveAttribute("data-level", /[1-4]/);
      await expect(today).toHaveAttribute("title", /today/);
      await expect(watcher.getByTestId("topic-bars")).toContainText("closures");
      await expect(watcher.getByTestId("streak")).toContainText("You studied today.");
      await watcher.getByLabel(/Search transcripts/).fill(theirs);
      await watcher.getByRole("button", { name: "Search" }).click();
      await expect(watcher).toHaveURL(/q=/);
      await expect(watcher.getByTestId("history")).toContainText(topic);
      await expect(watcher.getByTestId("history").locator("li")).toHaveCount(1);
      // The topic filter: only sessions on that topic.
      await watcher.getByLabel(/Search transcripts/).fill("");
      await watcher.getByLabel("Topic", { exact: true }).selectOption(topic);
      await watcher.getByRole("button", { name: "Search" }).click();
      await expect(watcher).toHaveURL(/topic=/);
      await expect(watcher.getByTestId("history").locator("li")).toHaveCount(1);
      await expect(watcher.getByTestId("history")).toContainText(topic);

      // The same through the API: search, and the detail with summary, marks and parked items.
      const found = (await (await page.request.get(`${server.url}/api/sessions?q=${encodeURIComponent(theirs)}`)).json()) as {
        sessions: { id: string }[];
      };
      expect(found.sessions.map((s) => s.id)).toEqual([sessionId]);
      const onTopic = (await (await page.request.get(`${server.url}/api/sessions?topic=${encodeURIComponent(topic)}`)).json()) as {
        sessions: { id: string }[];
      };
      expect(onTopic.sessions.map((s) => s.id)).toEqual([sessionId]);
      const detail = await (await page.request.get(`${server.url}/api/sessions/${sessionId}`)).json();
      expect(detail.session.summary.wins).toEqual(["closures"]);
      expect(detail.marks.map((m: { status: string }) => m.status)).toEqual(["win", "struggling"]);
      expect(detail.parked.map((p: { text: string; source: string }) => [p.text, p.source])).toEqual([
        [mine, "learner"],
        [theirs, "agent"],
      ]);

      // The detail page: summary and timeline.
      const dashboard = await newPage(browser, size);
      await open(dashboard, server.url);
      await noSidewaysScroll(dashboard);
      await shot(dashboard, `dashboard-${size.name}`);
      await open(dashboard, `${server.url}/sessions/${sessionId}`);
      await expect(dashboard.getByTestId("timeline")).toContainText(mine);
      await expect(dashboard.getByTestId("timeline")).toContainText("Win closures");
      await expect(dashboard.getByTestId("timeline").locator("li").first()).toContainText(`Started "${topic}" at energy 3/10.`);
      await noSidewaysScroll(dashboard);
      await shot(dashboard, `detail-${size.name}`);
      await dashboard.context().close();
      await page.context().close();
      await watcher.context().close();
    });
  }

  test("the next session starts with what the last one left, and carried thoughts join it", async ({ page, request }) => {
    // A session with a struggle and two parked thoughts, through the API.
    expect(
      (
        await request.post(`${server.url}/api/session/start`, {
          data: { topic: "recursion", energy: 8, agent: "tutor", focusPlan: "pomodoro" },
        })
      ).status(),
    ).toBe(201);
    await request.post(`${server.url}/api/session/topics`, { data: { topic: "recursion", status: "struggling" } });
    const keep = (await (await request.post(`${server.url}/api/parking`, { data: { text: "what is a trampoline?" } })).json()).item
      .id as string;
    await request.post(`${server.url}/api/parking`, { data: { text: "is Scheme worth learning?" } });
    await request.post(`${server.url}/api/session/end`);

    // The parking lot: carry one into the next session, dismiss nothing yet.
    await open(page, `${server.url}/parking`);
    const item = page.getByTestId("parking-lot").locator("li", { hasText: "what is a trampoline?" });
    await item.getByRole("button", { name: "Carry into next session" }).click();
    await expect(page.locator('[data-group="carried"]')).toContainText("what is a trampoline?");
    await shot(page, "parking-lot");

    // The start form says what is left and remembers Pomodoro from last time (on this device).
    await page.evaluate(() => localStorage.setItem("studyloop.start-choices", JSON.stringify({ focusPlan: "pomodoro", agent: "tutor" })));
    await open(page, `${server.url}/study`);
    const forNext = page.getByTestId("for-next-session");
    await expect(forNext).toContainText("Revisit recursion");
    await expect(forNext).toContainText("is Scheme worth learning?");
    await expect(forNext).toContainText("what is a trampoline?");
    await expect(page.getByLabel("Pomodoro")).toBeChecked();
    await expect(page.getByTestId("focus-plan")).toContainText("Pomodoro: 25 min of focus, then a 5 min break");
    await expect(page.getByTestId("recent-topics")).toContainText("recursion");
    await forNext.getByRole("button", { name: "Revisit recursion" }).click();
    await expect(page.getByLabel("Topic", { exact: true })).toHaveValue("recursion");
    await shot(page, "start-with-suggestions");
    await page.getByRole("button", { name: "Start session" }).click();
    await expect(page.getByTestId("console-status")).toHaveText("live");

    // The carried thought is in this session's parking lot, and last time's notes are at hand.
    await expect(page.getByTestId("parked-feed")).toContainText("what is a trampoline?");
    await expect(page.getByTestId("parked-feed")).toContainText("carried over");
    await expect(page.getByTestId("from-last-time")).toContainText("Revisit recursion");
    await expect(page.getByTestId("timer")).toContainText("Pomodoro");
    const state = await (await request.get(`${server.url}/api/session/state`)).json();
    expect(state.session.focusPlan).toBe("pomodoro");
    const copies = withDb(server.dataDir, (db) =>
      db.prepare("SELECT session_id, status FROM parked_items WHERE carried_from_id = ?").all(keep),
    );
    expect(copies).toEqual([{ session_id: state.session.id, status: "pending" }]);

    // Once carried, the original cannot be moved back (it lives on in the new session).
    const back = await request.patch(`${server.url}/api/parking/${keep}`, { data: { status: "pending" } });
    expect(back.status()).toBe(409);
  });

  for (const size of SIZES) {
    test(`at ${size.name} size: a long parking lot shows the newest 50 of a group, and the rest on request`, async ({
      browser,
      request,
    }) => {
      expect(
        (await request.post(`${server.url}/api/session/start`, { data: { topic: "a long lot", energy: 5, agent: "tutor" } })).status(),
      ).toBe(201);
      for (let i = 1; i <= 55; i++) {
        expect((await request.post(`${server.url}/api/parking`, { data: { text: `long lot thought ${i} (${size.name})` } })).status()).toBe(
          201,
        );
      }
      await request.post(`${server.url}/api/session/end`);
      const page = await newPage(browser, size);
      const errors = watchProblems(page);
      await open(page, `${server.url}/parking`);
      const pending = page.locator('[data-group="pending"]');
      const mine = pending.locator("li", { hasText: new RegExp(`long lot thought \\d+ \\(${size.name}\\)`) });
      // Newest first: the 55th is shown, the first ones are not yet (other tests' thoughts are older).
      await expect(pending.locator("li")).toHaveCount(50);
      await expect(mine.first()).toContainText(`long lot thought 55 (${size.name})`);
      await expect(pending.getByText(`long lot thought 1 (${size.name})`, { exact: true })).toHaveCount(0);
      const more = page.getByTestId("parking-more-pending");
      await expect(more).toContainText("Showing the newest 50 of");
      await expect(pending.locator("h2")).toContainText(/\(\d+\)/);
      await shot(page, `parking-long-${size.name}`);
      await more.scrollIntoViewIfNeeded();
      await page.screenshot({ path: test.info().outputPath(`parking-long-more-${size.name}.png`) });
      await more.getByRole("button", { name: /^Show all \d+$/ }).click();
      await expect(more).toHaveCount(0);
      await expect(pending.getByText(`long lot thought 1 (${size.name})`, { exact: true })).toBeVisible();
      await expect(mine).toHaveCount(55);
      // Each thought's buttons still work after the fold: resolve the oldest.
      await pending
        .locator("li", { hasText: `long lot thought 1 (${size.name})` })
        .getByRole("button", { name: "Resolve" })
        .click();
      await expect(page.locator('[data-group="done"]')).toContainText(`long lot thought 1 (${size.name})`);
      await noSidewaysScroll(page);
      await shot(page, `parking-long-all-${size.name}`);
      expect(errors).toEqual([]);
      await page.context().close();
    });
  }

  test("park and topic refusals are clear 4xx and write nothing", async ({ request }) => {
    const before = storedState(server.dataDir);
    const refused: Array<[string, () => Promise<APIResponse>, number, RegExp]> = [
      [
        "park with no live session",
        () => request.post(`${server.url}/api/parking`, { data: { text: "x" } }),
        409,
        /No study session is live/,
      ],
      [
        "a topic mark with no live session",
        () => request.post(`${server.url}/api/session/topics`, { data: { topic: "x", status: "win" } }),
        409,
        /No study session is live/,
      ],
      [
        "park with an unknown token",
        () => request.post(`${server.url}/api/parking`, { data: { text: "x" }, headers: { authorization: "Bearer not-a-token" } }),
        401,
        /token is not valid/,
      ],
      [
        "park with a malformed Authorization",
        () => request.post(`${server.url}/api/parking`, { data: { text: "x" }, headers: { authorization: "Basic abc" } }),
        401,
        /Bearer/,
      ],
      [
        "pause with no live session",
        () => request.post(`${server.url}/api/session/timer`, { data: { action: "pause" } }),
        409,
        /No study session is live/,
      ],
      [
        "a timer action that does not exist",
        () => request.post(`${server.url}/api/session/timer`, { data: { action: "stop" } }),
        400,
        /Action must be "pause", "resume"/,
      ],
    ];
    for (const [name, call, status, message] of refused) {
      const res = await call();
      expect(res.status(), name).toBe(status);
      expect((await res.json()).error, name).toMatch(message);
    }
    expect(
      (await request.patch(`${server.url}/api/parking/00000000-0000-0000-0000-000000000000`, { data: { status: "resolved" } })).status(),
    ).toBe(404);
    expect((await request.get(`${server.url}/api/sessions?q=${"x".repeat(201)}`)).status()).toBe(400);
    expect((await request.get(`${server.url}/api/sessions/not-an-id`)).status()).toBe(404);
    expect(storedState(server.dataDir)).toBe(before);

    // Inside a live session, with the agent's own token (read from its environment).
    const started = await request.post(`${server.url}/api/session/start`, { data: { topic: "refusals", energy: 5, agent: "tutor" } });
    const sessionId = (await started.json()).session.id as string;
    const socket = await connect(server.url);
    const viewer = new Viewer(socket, sessionId);
    expect((await viewer.attach()).ok).toBe(true);
    await viewer.waitFor("tutor> ");
    viewer.input("env STUDYLOOP_SESSION_TOKEN\r");
    const printed = /\n([A-Za-z0-9_-]{43})\r?\n/;
    await viewer.waitFor(printed);
    const token = printed.exec(viewer.text)![1]!;
    const asAgent = { authorization: `Bearer ${token}` };

    const live = writtenState(server.dataDir);
    const bad: Array<[string, unknown, number, RegExp]> = [
      ["empty text", { text: "" }, 400, /Text is required/],
      ["blank text", { text: "   " }, 400, /Text is required/],
      ["oversized text", { text: "x".repeat(2001) }, 400, /at most 2000 characters/],
      ["a 100 KB body", { text: "x".repeat(100 * 1024) }, 413, /too large/],
      ["no text", {}, 400, /Text is required/],
      ["an unknown field", { text: "x", session: sessionId }, 400, /Unknown field "session"/],
    ];
    for (const [name, body, status, message] of bad) {
      const res = await request.post(`${server.url}/api/parking`, { data: body, headers: asAgent });
      expect(res.status(), name).toBe(status);
      expect((await res.json()).error, name).toMatch(message);
    }
    const badMarks: Array<[string, unknown, RegExp]> = [
      ["an unknown status", { topic: "x", status: "great" }, /Status must be "win", "struggling", "learning" or "insight"/],
      ["an empty topic", { topic: " ", status: "win" }, /Topic is required/],
      ["an oversized note", { topic: "x", status: "win", note: "n".repeat(2001) }, /Note must be at most 2000 characters/],
    ];
    for (const [name, body, message] of badMarks) {
      const res = await request.post(`${server.url}/api/session/topics`, { data: body, headers: asAgent });
      expect(res.status(), name).toBe(400);
      expect((await res.json()).error, name).toMatch(message);
    }
    expect(writtenState(server.dataDir)).toBe(live);

    // After the end, the same token writes nothing, through the API and through the CLI.
    await request.post(`${server.url}/api/session/end`);
    socket.disconnect();
    const ended = storedState(server.dataDir);
    const late = await request.post(`${server.url}/api/parking`, { data: { text: "too late" }, headers: asAgent });
    expect(late.status()).toBe(409);
    expect((await late.json()).error).toBe("The session this token belongs to has ended: nothing was written.");
    const lateMark = await request.post(`${server.url}/api/session/topics`, { data: { topic: "x", status: "win" }, headers: asAgent });
    expect(lateMark.status()).toBe(409);
    const cli = spawnSync(process.execPath, [path.join(ROOT, "bin", "studyloop.js"), "park", "too late"], {
      encoding: "utf8",
      env: { ...process.env, STUDYLOOP_URL: server.url, STUDYLOOP_SESSION_TOKEN: token },
    });
    expect(cli.status).toBe(1);
    expect(cli.stderr).toBe("studyloop: The session this token belongs to has ended: nothing was written.\n");
    const outside = spawnSync(process.execPath, [path.join(ROOT, "bin", "studyloop.js"), "topic", "closures", "--status", "win"], {
      encoding: "utf8",
      env: { ...process.env, STUDYLOOP_URL: "", STUDYLOOP_SESSION_TOKEN: "" },
    });
    expect(outside.status).toBe(2);
    expect(outside.stderr).toMatch(/works inside a StudyLoop study session/);
    expect(storedState(server.dataDir)).toBe(ended);
  });
});

test.describe("break nudges", () => {
  let server: StartedServer;
  test.beforeAll(async () => {
    // A plan minute lasts half a second here: the low-energy nudges come at 7.5 s and 15 s of focus.
    server = await startServer({ env: { STUDYLOOP_TIMER_MINUTE_SECONDS: "0.5" } });
  });
  test.afterAll(async () => {
    await server.stop();
  });

  test("each nudge appears once on every page, gently, is answered anywhere, and is recorded", async ({ browser }) => {
    const laptop = await newPage(browser, SIZES[0]);
    const phone = await newPage(browser, { name: "phone", viewport: { width: 375, height: 667 }, mobile: true });
    await open(laptop, `${server.url}/study`);
    await laptop.getByLabel("Topic").fill("nudges");
    await laptop.getByLabel(/Energy/).fill("2");
    await laptop.getByRole("button", { name: "Start session" }).click();
    await expect(laptop.getByTestId("console-status")).toHaveText("live");
    await open(phone, `${server.url}/study`);
    await expect(phone.getByTestId("console-status")).toHaveText("live");

    const first = "You have focused for 15 minutes. Time for a short break: 5 minutes away from the screen, then come back fresh.";
    await expect(laptop.getByTestId("break-nudge")).toHaveText(new RegExp(first.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")), {
      timeout: 15_000,
    });
    await expect(phone.getByTestId("break-nudge")).toContainText(first);
    await expect(laptop.getByTestId("break-nudge")).toHaveAttribute("role", "status");
    await noSidewaysScroll(phone);
    await shot(phone, "nudge-phone");
    await shot(laptop, "nudge-desktop");
    await phone.getByRole("button", { name: "Keep going" }).tap();
    // The second nudge is due 7.5 s after the first: on a slow machine it may already be showing, so
    // what must be gone is the first one.
    const firstNudge = (page: Page) => page.getByTestId("break-nudge").filter({ hasText: "Time for a short break" });
    await expect(firstNudge(laptop)).toHaveCount(0);
    await expect(firstNudge(phone)).toHaveCount(0);
    // Answered: a reload does not bring it back.
    await laptop.reload();
    await expect(laptop.getByTestId("console-status")).toHaveText("live");
    await expect(firstNudge(laptop)).toHaveCount(0);

    await expect(laptop.getByTestId("break-nudge")).toContainText("Time for a longer break: 10 minutes", { timeout: 15_000 });
    await laptop.getByRole("button", { name: "Take the break" }).click();
    await expect(laptop.getByTestId("timer")).toHaveAttribute("data-paused", "true");
    await expect(phone.getByTestId("timer")).toHaveAttribute("data-paused", "true");
    await expect(phone.getByTestId("break-nudge")).toHaveCount(0);

    const sessionId = withDb(
      server.dataDir,
      (db) => (db.prepare("SELECT id FROM study_sessions WHERE topic = 'nudges'").get() as { id: string }).id,
    );
    const nudges = JSON.parse(
      withDb(
        server.dataDir,
        (db) =>
          (db.prepare("SELECT nudges_shown FROM study_sessions WHERE id = ?").get(sessionId) as { nudges_shown: string }).nudges_shown,
      ),
    );
    expect(nudges.map((n: { n: number; focusMinute: number; answer: string }) => [n.n, n.focusMinute, n.answer])).toEqual([
      [1, 15, "continue"],
      [2, 30, "break"],
    ]);

    await laptop.request.post(`${server.url}/api/session/end`);
    await open(laptop, `${server.url}/sessions/${sessionId}`);
    await expect(laptop.getByTestId("timeline")).toContainText("Break nudge after 15 min of focus (a short 5 min break): kept going.");
    await expect(laptop.getByTestId("timeline")).toContainText(
      "Break nudge after 30 min of focus (a longer 10 min break): took the break.",
    );
    await laptop.context().close();
    await phone.context().close();
  });
});
