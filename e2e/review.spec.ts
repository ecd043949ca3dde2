// The review loop end to end (issue 18): a struggle marked in a session becomes a card, the tutor
// adds one with `studyloop card`, both are reviewed on a phone with different answers and their due
// dates follow FSRS (ts-fsrs run directly on the stored history); the next session on the topic opens
// with the due cards in a warm-up and in TUTOR.md; the export reads back as Anki's text format; the
// summary offers a card per struggle without one; bad input gets a sentence and stores nothing.
import { test, expect, type Browser, type ConsoleMessage, type Page } from "@playwright/test";
import fs from "node:fs";
import path from "node:path";
import { parse } from "csv-parse/sync";
import { createEmptyCard, fsrs, generatorParameters, type Grade } from "ts-fsrs";
import { startServer, type StartedServer } from "./support/server";
import { withDb } from "./support/db";
import { open, watchProblems } from "./support/page";
import { expectTerminalToContain, typeInTerminal } from "./support/terminal";

interface Size {
  readonly name: string;
  readonly viewport: { width: number; height: number };
  readonly mobile: boolean;
}
const DESKTOP: Size = { name: "desktop", viewport: { width: 1280, height: 800 }, mobile: false };
const PHONE: Size = { name: "phone", viewport: { width: 390, height: 844 }, mobile: true };

/** Every page error and console error of the pages a test opens: the test fails on any. */
const problems: string[] = [];
/** Paths a test is refused on purpose (the browser logs each refused request as a console error). */
const refusedOnPurpose = new Set<string>();
/** The app has no favicon (yet): Chromium's own request for one is not a page's fault. */
const NOT_THE_PAGES = ["/favicon.ico"];

async function newPage(browser: Browser, size: Size): Promise<Page> {
  const context = await browser.newContext({ viewport: size.viewport, isMobile: size.mobile, hasTouch: size.mobile });
  const page = await context.newPage();
  const onPurpose = (message: ConsoleMessage) =>
    /^Failed to load resource/.test(message.text()) &&
    [...refusedOnPurpose, ...NOT_THE_PAGES].includes(new URL(message.location().url, "http://x").pathname);
  watchProblems(page, { label: size.name, expected: onPurpose }, problems);
  return page;
}

function shot(page: Page, name: string) {
  return page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true });
}

async function noSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
}

/** The cards and reviews tables, to prove a refusal wrote nothing. */
function cardState(dataDir: string): string {
  return withDb(dataDir, (db) =>
    JSON.stringify([db.prepare("SELECT * FROM cards ORDER BY id").all(), db.prepare("SELECT * FROM card_reviews ORDER BY id").all()]),
  );
}

interface StoredCard {
  id: string;
  front: string;
  created_at: number | string;
  due: number | string;
  stability: number;
  state: number;
}

const asDate = (v: number | string) => new Date(typeof v === "number" ? v : /^\d+$/.test(v) ? Number(v) : v);

function storedCards(dataDir: string): StoredCard[] {
  return withDb(
    dataDir,
    (db) => db.prepare("SELECT id, front, created_at, due, stability, state FROM cards ORDER BY created_at").all() as StoredCard[],
  );
}

function storedReviews(dataDir: string, cardId: string): { rating: number; reviewed_at: number | string }[] {
  return withDb(
    dataDir,
    (db) => db.prepare("SELECT rating, reviewed_at FROM card_reviews WHERE card_id = ? ORDER BY reviewed_at, id").all(cardId) as never,
  );
}

const TOPIC = "closures";
/** Each `studyloop` run starts Node and tsx: seconds on a loaded machine, so its output may take a while. */
const CLI_MS = 60_000;
const TUTOR_FRONT = "What does a closure capture?";
const TUTOR_BACK = "The variables of its lexical scope, by reference";

test.describe("the review loop", () => {
  // One server for both tests; the second reads the topics the first one marked.
  test.describe.configure({ mode: "serial" });
  let server: StartedServer;
  test.beforeAll(async () => {
    server = await startServer();
  });
  test.afterAll(async () => {
    await server.stop();
  });
  test.beforeEach(() => {
    problems.length = 0;
    refusedOnPurpose.clear();
  });
  test.afterEach(async ({ request }) => {
    await request.post(`${server.url}/api/session/end`);
    expect(problems).toEqual([]);
  });

  test("struggle to card, tutor's card, phone review by FSRS, warm-up and TUTOR.md next time, export, refusals", async ({
    browser,
    request,
  }) => {
    test.setTimeout(240_000);
    const desk = await newPage(browser, DESKTOP);

    // A session on the topic: the learner marks two struggles; the tutor writes a card.
    await open(desk, `${server.url}/study`);
    await desk.getByLabel("Topic", { exact: true }).fill(TOPIC);
    await desk.getByRole("button", { name: "Start session" }).click();
    await expect(desk.getByTestId("console-status")).toHaveText("live");
    await expectTerminalToContain(desk, "tutor>");
    await expect(desk.getByTestId("warm-up")).toHaveCount(0); // nothing is due yet
    await desk.locator("#mark-topic").fill("closures in loops");
    await desk.locator("#mark-note").fill("every callback saw the last i");
    await desk.getByRole("button", { name: "Struggling" }).click();
    await expect(desk.getByTestId("mark-feed")).toContainText("closures in loops");
    await desk.locator("#mark-topic").fill("this binding");
    await desk.locator("#mark-note").fill("");
    await desk.getByRole("button", { name: "Struggling" }).click();
    await expect(desk.getByTestId("mark-feed")).toContainText("this binding");

    // A card from the first struggle: prefilled from the mark, edited, saved.
    await desk.getByTestId("mark-feed").locator("li", { hasText: "closures in loops" }).getByTestId("make-card").click();
    const dialog = desk.getByRole("dialog", { name: "New review card" });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel("Front: the question")).toHaveValue("Explain: closures in loops");
    await expect(dialog.getByLabel("Back: the answer")).toHaveValue("every callback saw the last i");
    await dialog.getByLabel("Front: the question").fill("Why did every callback in the loop see the last i?");
    await dialog.getByLabel("Back: the answer").fill("var has one binding for the whole loop; let makes one per iteration");
    await dialog.getByLabel("Topic").fill(TOPIC);
    await shot(desk, "make-card-desktop");
    await dialog.getByRole("button", { name: "Save card" }).click();
    await expect(dialog).toBeHidden();
    await expect(desk.getByTestId("mark-feed").getByText("Card made ✓ · another")).toHaveCount(1);

    await typeInTerminal(desk, `card ${TUTOR_FRONT}|${TUTOR_BACK}|${TOPIC}\r`);
    await expectTerminalToContain(desk, /Card added to "closures"[\s\S]*studyloop exit 0/, CLI_MS);
    // The tutor's bad card is refused with a sentence (exit 2) and stores nothing.
    const beforeBadCli = cardState(server.dataDir);
    await typeInTerminal(desk, `card ${TUTOR_FRONT}||${TOPIC}\r`);
    await expectTerminalToContain(desk, /The card has no back[\s\S]*studyloop exit 2/, CLI_MS);
    expect(cardState(server.dataDir)).toBe(beforeBadCli);
    // `studyloop cards --due` lists both, with the token, as the tutor would run it.
    await typeInTerminal(desk, `studyloop cards --due --topic ${TOPIC}\r`);
    await expectTerminalToContain(desk, /2 due cards on "closures"[\s\S]*studyloop exit 0/, CLI_MS);

    const cards = storedCards(server.dataDir);
    expect(cards.map((c) => c.front)).toEqual(["Why did every callback in the loop see the last i?", TUTOR_FRONT]);
    expect(
      withDb(server.dataDir, (db) =>
        db.prepare("SELECT origin, author, origin_id IS NOT NULL AS linked FROM cards ORDER BY created_at").all(),
      ),
    ).toEqual([
      { origin: "mark", author: "learner", linked: 1 },
      { origin: "agent", author: "agent", linked: 0 },
    ]);

    // The nav counts them; the end of the session offers a card for the struggle that has none.
    await desk.reload();
    await expect(desk.getByTestId("nav-review")).toContainText("2");
    await request.post(`${server.url}/api/session/end`);
    await open(desk, `${server.url}/study`);
    await expect(desk.getByTestId("struggle-cards")).toContainText("this binding");
    await expect(desk.getByTestId("struggle-cards")).not.toContainText("closures in loops");

    // Review both on a phone: reveal, then different answers.
    const phone = await newPage(browser, PHONE);
    await open(phone, `${server.url}/review?topic=${TOPIC}`);
    await expect(phone.getByTestId("card-front")).toBeVisible();
    await noSidewaysScroll(phone);
    await shot(phone, "review-front-phone");
    const answers: Record<string, "good" | "again"> = {};
    for (const [i, answer] of (["good", "again"] as const).entries()) {
      await expect(phone.locator(".review-progress")).toContainText(`Card ${i + 1} of 2`);
      const front = (await phone.getByTestId("card-front").textContent())!;
      await phone.getByTestId("reveal").tap();
      await expect(phone.getByTestId("card-back")).toBeVisible();
      if (answer === "good") await shot(phone, "review-answer-phone");
      await phone.locator(`button[data-rating="${answer}"]`).tap();
      answers[front] = answer;
    }
    await expect(phone.getByTestId("review-done")).toContainText("Done: 2 cards reviewed");
    await noSidewaysScroll(phone);
    await shot(phone, "review-done-phone");

    // The due dates follow FSRS: ts-fsrs itself, on the same stored history, gives the same.
    const scheduler = fsrs(generatorParameters({ enable_fuzz: false }));
    for (const card of storedCards(server.dataDir)) {
      const history = storedReviews(server.dataDir, card.id);
      expect(history.map((h) => h.rating)).toEqual([answers[card.front] === "good" ? 3 : 1]);
      let expected = createEmptyCard(asDate(card.created_at));
      for (const h of history) expected = scheduler.next(expected, asDate(h.reviewed_at), h.rating as Grade).card;
      expect(asDate(card.due).toISOString()).toBe(expected.due.toISOString());
      expect(card.stability).toBeCloseTo(expected.stability, 10);
      expect(card.state).toBe(expected.state);
    }

    // A refused review (a second device answering the same showing, a bad rating) stores nothing.
    const beforeBad = cardState(server.dataDir);
    const [first] = storedCards(server.dataDir);
    const twice = await request.post(`${server.url}/api/cards/${first!.id}/reviews`, { data: { rating: "easy", reps: 0 } });
    expect(twice.status()).toBe(409);
    expect((await twice.json()).error).toMatch(/just reviewed/);
    const badRating = await request.post(`${server.url}/api/cards/${first!.id}/reviews`, { data: { rating: "perfect", reps: 1 } });
    expect(badRating.status()).toBe(400);
    expect((await badRating.json()).error).toBe('Rating must be "again", "hard", "good" or "easy".');
    const emptyFront = await request.post(`${server.url}/api/cards`, { data: { front: "  ", back: "b", topic: TOPIC } });
    expect(emptyFront.status()).toBe(400);
    expect((await emptyFront.json()).error).toBe("Front is empty: write the question.");
    const badCsv = await request.post(`${server.url}/api/cards/import`, {
      data: { csv: "front,back\nok,fine\nonly one column\n", topic: TOPIC },
    });
    expect(badCsv.status()).toBe(400);
    expect((await badCsv.json()).error).toMatch(/^Card 2 .* has 1 column.* Nothing was imported\.$/);
    expect((await request.post(`${server.url}/api/cards`, { data: { front: "f", back: "b", topic: TOPIC, extra: 1 } })).status()).toBe(400);
    expect((await request.get(`${server.url}/api/cards?due=maybe`)).status()).toBe(400);
    expect(cardState(server.dataDir)).toBe(beforeBad);

    // The export is Anki's text format; a CSV reader parses it back to the same cards.
    const exported = await request.get(`${server.url}/api/cards/export?topic=${TOPIC}`);
    expect(exported.headers()["content-disposition"]).toContain('filename="studyloop-closures.txt"');
    const text = await exported.text();
    expect(text.startsWith("#separator:tab\n#html:true\n")).toBe(true);
    const rows: string[][] = parse(text, { delimiter: "\t", comment: "#", comment_no_infix: true, skip_empty_lines: true });
    expect(rows.map((r) => r[1]).sort()).toEqual(["Why did every callback in the loop see the last i?", TUTOR_FRONT].sort());
    expect(rows.every((r) => r[3] === "StudyLoop::closures" && r[4] === "studyloop closures")).toBe(true);

    // The "again" card comes back within its one-minute learning step; the next session on the topic
    // then opens with it in a warm-up, and TUTOR.md lists it for the tutor.
    await expect
      .poll(
        async () => ((await (await request.get(`${server.url}/api/cards?due=1&topic=${TOPIC}`)).json()) as { dueCount: number }).dueCount,
        { timeout: 120_000, intervals: [2_000] },
      )
      .toBe(1);
    await open(desk, `${server.url}/study`);
    await desk.getByLabel("Topic", { exact: true }).fill(TOPIC);
    await expect(desk.getByTestId("due-before-start")).toContainText("Review 1 due card before you start");
    await desk.getByRole("button", { name: "Start session" }).click();
    await expect(desk.getByTestId("console-status")).toHaveText("live");
    const againFront = Object.entries(answers).find(([, a]) => a === "again")![0];
    await expect(desk.getByTestId("warm-up")).toContainText("Warm-up: 1 of 1 due card on closures");
    await expect(desk.getByTestId("warm-up").getByTestId("card-front")).toHaveText(againFront);
    await shot(desk, "warm-up-desktop");
    const sessionId = withDb(
      server.dataDir,
      (db) => (db.prepare("SELECT id FROM study_sessions WHERE ended_at IS NULL").get() as { id: string }).id,
    );
    const tutorMd = fs.readFileSync(path.join(server.dataDir, "sessions", sessionId, "TUTOR.md"), "utf8");
    expect(tutorMd).toContain("1 card on **closures** due for review");
    expect(tutorMd).toContain(`Q: ${againFront}`);
    expect(tutorMd).toContain("this binding");
    expect(tutorMd).toContain("closures in loops: every callback saw the last i");
    expect(tutorMd).toContain("studyloop card");
  });

  test("the review page by keyboard on a desktop, the topic page and the dashboard at both sizes", async ({ browser, request }) => {
    test.setTimeout(180_000);
    const topic = "keyboard review";
    for (const [front, back] of [
      ["What key reveals the answer?", "Space"],
      ["Which keys answer?", "1 to 4"],
    ]) {
      expect((await request.post(`${server.url}/api/cards`, { data: { front, back, topic } })).status()).toBe(201);
    }
    const desk = await newPage(browser, DESKTOP);
    await open(desk, `${server.url}/review?topic=${encodeURIComponent(topic)}&then=study`);
    await expect(desk.getByTestId("card-front")).toHaveText("What key reveals the answer?");
    await shot(desk, "review-front-desktop");
    await desk.keyboard.press("Space");
    await expect(desk.getByTestId("card-back")).toHaveText("Space");
    await shot(desk, "review-answer-desktop");
    await desk.keyboard.press("4");
    await expect(desk.getByTestId("card-front")).toHaveText("Which keys answer?");
    await desk.keyboard.press("3"); // not revealed yet: no answer is taken
    await expect(desk.getByTestId("card-back")).toHaveCount(0);
    await desk.keyboard.press("Space");
    await desk.keyboard.press("2");
    await expect(desk.getByTestId("review-done")).toContainText("Done: 2 cards reviewed");
    await expect(desk.getByRole("link", { name: "Continue to the start form" })).toHaveAttribute("href", "/study");
    const ratings = withDb(server.dataDir, (db) =>
      db
        .prepare("SELECT c.front, r.rating FROM card_reviews r JOIN cards c ON c.id = r.card_id WHERE c.topic = ? ORDER BY r.id")
        .all(topic),
    );
    expect(ratings).toEqual([
      { front: "What key reveals the answer?", rating: 4 },
      { front: "Which keys answer?", rating: 2 },
    ]);

    // The topic page: its cards and model; the dashboard links each topic of the chart to it.
    for (const size of [DESKTOP, PHONE]) {
      const page = await newPage(browser, size);
      await open(page, `${server.url}/topics/${encodeURIComponent(topic)}`);
      await expect(page.getByTestId("topic-cards")).toHaveText("2");
      await expect(page.getByTestId("topic-card-list")).toContainText("Which keys answer?");
      await expect(page.getByTestId("topic-weeks")).toContainText("2");
      await noSidewaysScroll(page);
      await shot(page, `topic-${size.name}`);
    }

    // A card written by hand on the topic page, and a CSV import there.
    const page = await newPage(browser, DESKTOP);
    await open(page, `${server.url}/topics/${encodeURIComponent(topic)}`);
    await page.getByRole("button", { name: "Write a card" }).click();
    const dialog = page.getByRole("dialog", { name: "New review card" });
    await expect(dialog.getByLabel("Topic")).toHaveValue(topic);
    await dialog.getByLabel("Front: the question").fill("Hand-written?");
    await dialog.getByLabel("Back: the answer").fill("Yes");
    await dialog.getByRole("button", { name: "Save card" }).click();
    await expect(dialog).toBeHidden();
    await page
      .getByLabel("CSV file")
      .setInputFiles({ name: "cards.csv", mimeType: "text/csv", buffer: Buffer.from('front,back\n"Comma, inside?",yes\nPlain,answer\n') });
    await expect(page.getByTestId("import-done")).toHaveText("Imported 2 cards from cards.csv.");
    await expect(page.getByTestId("topic-cards")).toHaveText("5");
    const before = cardState(server.dataDir);
    refusedOnPurpose.add("/api/cards/import");
    await page
      .getByLabel("CSV file")
      .setInputFiles({ name: "bad.csv", mimeType: "text/csv", buffer: Buffer.from("front,back\nno back here\n") });
    await expect(page.locator("p.error[role=alert]")).toContainText("Nothing was imported.");
    expect(cardState(server.dataDir)).toBe(before);

    // The dashboard: the due cards per topic, and the chart's topics lead to their pages.
    for (const size of [DESKTOP, PHONE]) {
      const dash = await newPage(browser, size);
      await open(dash, server.url);
      await expect(dash.getByTestId("due-cards")).toContainText(/\d+ cards due for review/);
      await expect(dash.getByTestId("due-cards").getByRole("link", { name: topic })).toHaveAttribute(
        "href",
        `/topics/${encodeURIComponent(topic)}`,
      );
      await expect(dash.getByTestId("nav-review")).toContainText(/\d/);
      await noSidewaysScroll(dash);
      await shot(dash, `dashboard-${size.name}`);
      if (size === DESKTOP) {
        await dash.getByTestId("topic-bars").getByRole("link", { name: "this binding" }).click();
        await expect(dash).toHaveURL(/\/topics\/this%20binding$/);
        await expect(dash.getByRole("heading", { level: 1 })).toHaveText("this binding");
        await expect(dash.getByTestId("topic-model")).toBeVisible();
      }
    }
  });
});
