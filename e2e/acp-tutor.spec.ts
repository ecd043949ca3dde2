// The chat with a scripted tutor that answers like a real one (issue 19): Markdown and math rendered
// right under the page's CSP, sign-in failures that name the fix once, a silent turn shown and
// stopped, photos from the phone that reach the agent as content blocks, the secrets policy.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { test, expect, type Browser, type Page } from "@playwright/test";
import { ROOT, TEST_TUTOR, makeDataDir, startServer, type StartedServer } from "./support/server";
import { withDb } from "./support/db";
import { open } from "./support/page";

const TUTOR_AGENT = path.join(ROOT, "e2e", "fixtures", "acp-tutor-agent.mjs");
const tutorAgent = (...args: string[]) => ({ label: "Scripted tutor", command: process.execPath, args: [TEST_TUTOR], acp: { command: process.execPath, args: [TUTOR_AGENT, ...args] } });
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };
// A 2x2 PNG (real bytes; the server checks them).
const PNG = Buffer.from(
  "89504e470d0a1a0a0000000d4948445200000002000000020806000000f478d4fa0000001649444154789c63f8cfc0f09f81e13f03c37f0606000037fe07f9a6e1c1a40000000049454e44ae426082",
  "hex",
);

/** Page errors, console errors and CSP refusals: any of them fails the test. */
function watch(page: Page): string[] {
  const problems: string[] = [];
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  page.on("console", (msg) => {
    if (msg.location().url.endsWith("/favicon.ico")) return; // the app has no icon; Chromium asks anyway
    if (msg.type() === "error" || /Content Security Policy|Refused to/i.test(msg.text())) problems.push(`console ${msg.type()}: ${msg.text()}`);
  });
  return problems;
}

async function startChat(page: Page, url: string, agent: string, topic = "data structures") {
  await open(page, `${url}/study`);
  await page.getByLabel("Topic").fill(topic);
  await page.getByLabel("Tutor agent").selectOption(agent);
  await page.getByLabel(/a chat/).check();
  await page.getByRole("button", { name: "Start session" }).click();
  await expect(page.getByTestId("chat-status")).toHaveText("live");
}

async function ask(page: Page, text: string) {
  await page.getByLabel("Message to the tutor").fill(text);
  await page.getByRole("button", { name: "Send" }).click();
}

async function shot(page: Page, name: string) {
  await page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true });
}

test.describe("a chat with a tutor that answers like a real one", () => {
  let server: StartedServer;
  const log = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "acp-tutor-log-")), "prompts.jsonl");
  test.beforeAll(async () => {
    const dataDir = makeDataDir({
      scripted: { ...tutorAgent(), env: { pass: ["TUTOR_API_KEY"] } },
      plain: tutorAgent("--no-attachments"),
      locked: tutorAgent("--auth-fail"),
      "needs-login": tutorAgent("--prompt-auth-fail"),
      "no-adapter": { command: process.execPath, args: [TEST_TUTOR], acp: { command: "tutor-acp-adapter-not-installed", args: [] }, installHint: "Install the tutor." },
    });
    server = await startServer({ dataDir, env: { ACP_TUTOR_LOG: log, TUTOR_API_KEY: "tk-123", OTHER_API_KEY: "ok-456" } });
  });
  test.afterAll(async () => {
    await server.stop();
  });
  test.afterEach(async ({ request }) => {
    await request.post(`${server.url}/api/session/end`);
  });

  for (const [device, options] of [
    ["laptop", { viewport: { width: 1280, height: 800 } }],
    ["phone", PHONE],
  ] as const) {
    test(`a streamed tutor answer renders as Markdown with math and code (${device})`, async ({ browser }) => {
      const context = await browser.newContext(options);
      const page = await context.newPage();
      const problems = watch(page);
      await startChat(page, server.url, "scripted");
      await ask(page, "markdown please");
      const answer = page.getByTestId("agent-message").last();
      await expect(answer).toContainText("so a dict wins once", { timeout: 60_000 });
      await expect(page.getByTestId("turn-status")).toHaveCount(0);

      await expect(answer.locator("h2")).toHaveText("Big-O of my_list.index vs my_dict[key]");
      // Identifiers and arithmetic stay as written; real emphasis still works.
      const para = answer.locator("p", { hasText: "Rename" });
      await expect(para).toHaveText("Rename tmp to total_sum and keep my_var_name as it is. Arithmetic first: 2*3*4 = 24, and x*y + y*z stays symmetric.");
      await expect(para.locator("em")).toHaveCount(0);
      await expect(answer.locator("blockquote strong")).toHaveText("Rule of thumb:");
      await expect(answer.locator("table th")).toHaveText(["Operation", "list", "dict"]);
      await expect(answer.locator("table tbody tr")).toHaveCount(2);
      await expect(answer.locator("ol > li > ul > li > ul > li")).toHaveText("backed by an array");
      await expect(answer.locator("ol > li > ul > li em")).toHaveText("mutable");
      const code = answer.locator("pre code.language-python");
      await expect(code).toContainText("def find_first(items, target_value):");
      await expect(code.locator(".hljs-keyword").first()).toHaveText("def");
      // Math: inline in the table and the quote, display for the sum; KaTeX's fonts come from us.
      await expect(answer.locator(".katex-display")).toHaveCount(1);
      expect(await answer.locator(".katex").count()).toBeGreaterThanOrEqual(5);
      await expect(answer.locator(".katex-display annotation")).toHaveText("\\frac{1}{n}\\sum_{i=1}^{n} i = \\frac{n+1}{2}");
      await expect(answer.locator(".katex-error")).toHaveCount(0);
      await page.evaluate(() => document.fonts.ready);
      expect(await page.evaluate(() => document.fonts.check("16px KaTeX_Main"))).toBe(true);
      expect(await page.evaluate(() => [...document.fonts].some((f) => f.family.includes("KaTeX") && f.status === "loaded"))).toBe(true);
      // Nothing overflows the page sideways on a phone: wide parts scroll inside the answer.
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await answer.scrollIntoViewIfNeeded();
      await shot(page, `answer-${device}`);
      expect(problems).toEqual([]);
      await context.close();
    });
  }

  test("a permission question, then the answer with inline code", async ({ page }) => {
    const problems = watch(page);
    await startChat(page, server.url, "scripted");
    await ask(page, "permission to run it");
    const question = page.getByTestId("permission");
    await expect(question).toContainText("Run find_first on the example");
    await question.getByRole("button", { name: "Allow" }).click();
    await expect(page.getByTestId("agent-message").last()).toHaveText("It returned 2: the value sits at index 2.");
    await expect(page.getByTestId("agent-message").last().locator("code")).toHaveText("2");
    expect(problems).toEqual([]);
  });

  test("a silent turn shows its time and a notice; Stop ends it even when the agent ignores Stop; the record says so", async ({ page }) => {
    const problems = watch(page);
    await startChat(page, server.url, "scripted");
    await ask(page, "deaf question");
    await expect(page.getByTestId("agent-message").last()).toHaveText("Let me think about that…");
    await expect(page.getByTestId("turn-elapsed")).toContainText(/Answering for \d+ s/);
    const silent = page.getByTestId("turn-silent");
    await expect(silent).toContainText(/No answer for \d+ s/, { timeout: 30_000 });
    await shot(page, "silent-turn");
    await silent.getByRole("button", { name: "Stop" }).click();
    const stopped = page.getByTestId("turn-stopped");
    await expect(stopped).toContainText("Stopped by you.");
    await expect(stopped).toContainText("did not confirm the stop");
    await expect(page.getByTestId("agent-message").last()).toHaveAttribute("data-stopped", "true");
    await expect(page.getByTestId("turn-status")).toHaveCount(0);

    const state = await (await page.request.get(`${server.url}/api/session/state`)).json();
    const end = withDb(server.dataDir, (db) => db.prepare("SELECT payload FROM acp_events WHERE session_id = ? AND kind = 'turn_end'").get(state.session.id) as { payload: string });
    expect(JSON.parse(end.payload)).toEqual({ stopReason: "cancelled", stoppedBy: "learner", agentIgnoredStop: true });

    // The chat goes on after a stuck turn.
    await ask(page, "permission again");
    await expect(page.getByTestId("permission").last()).toBeVisible();
    await page.getByTestId("permission").last().getByRole("button", { name: "Reject" }).click();
    await expect(page.getByTestId("agent-message").last()).toHaveText("I did not run it.");
    await page.reload();
    await expect(page.getByTestId("turn-stopped")).toContainText("Stopped by you.");
    expect(problems).toEqual([]);
  });

  test("Retry stops a silent turn and asks again", async ({ page }) => {
    await startChat(page, server.url, "scripted");
    await ask(page, "silent question");
    const silent = page.getByTestId("turn-silent");
    await expect(silent).toBeVisible({ timeout: 30_000 });
    await silent.getByRole("button", { name: "Retry" }).click();
    await expect(page.getByTestId("turn-stopped")).toHaveCount(1);
    await expect(page.getByTestId("learner-message")).toHaveText(["silent question", "silent question"]);
    await expect(page.getByTestId("agent-message")).toHaveCount(2);
    await page.getByRole("button", { name: "Stop" }).click();
    await expect(page.getByTestId("turn-stopped")).toHaveCount(2);
  });

  test("a photo from the phone's camera is shown in the chat and reaches the agent as an image block", async ({ browser }) => {
    const context = await browser.newContext(PHONE);
    const page = await context.newPage();
    const problems = watch(page);
    await startChat(page, server.url, "scripted", "photo homework");
    await expect(page.getByRole("button", { name: "Attach a photo" })).toBeVisible();
    await expect(page.getByTestId("attach-photo")).toHaveAttribute("capture", "environment");
    await page.getByTestId("attach-photo").setInputFiles({ name: "IMG_0042.PNG", mimeType: "image/png", buffer: PNG });
    await expect(page.getByTestId("pending-attachments").locator("li")).toHaveAttribute("data-state", "stored");
    // A file that only claims to be a photo is refused by its bytes, and does not block the message.
    await page.getByTestId("attach-photo").setInputFiles({ name: "virus.png", mimeType: "image/png", buffer: Buffer.from("MZ\u0090\u0000\u0003\u0000\u0000\u0000") });
    await expect(page.getByTestId("pending-attachments").locator("li[data-state=refused]")).toContainText("Only photos");
    await ask(page, "what is in this image?");
    const sent = page.getByTestId("learner-message").last().getByTestId("sent-photo");
    await expect(sent).toBeVisible();
    expect(await sent.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(2);
    await expect(page.getByTestId("agent-message").last()).toHaveText(`I received an image (image/png, ${PNG.length} bytes).`);
    const blocks = fs.readFileSync(log, "utf8").trim().split("\n").map((l) => JSON.parse(l) as Array<Record<string, unknown>>).at(-1)!;
    expect(blocks[0]).toEqual({ type: "text", text: "what is in this image?" });
    expect(blocks[1]).toMatchObject({ type: "image", mimeType: "image/png", data: PNG.toString("base64") });
    expect(String(blocks[1]!.uri)).toMatch(/\/attachments\/1-img-0042\.png$/);
    await shot(page, "photo-phone");
    expect(problems).toEqual([]);
    await context.close();
  });

  test("uploads are size-limited, type-checked, and only for the running chat", async ({ page, request }) => {
    await startChat(page, server.url, "scripted");
    const { session } = await (await request.get(`${server.url}/api/session/state`)).json();
    const url = `${server.url}/api/sessions/${session.id}/attachments?name=big.png`;
    const big = await request.post(url, { data: Buffer.concat([PNG, Buffer.alloc(10 * 1024 * 1024)]), headers: { "content-type": "application/octet-stream" } });
    expect(big.status()).toBe(413);
    const exe = await request.post(url, { data: Buffer.from([0x4d, 0x5a, 0x90, 0x00, 0xff]), headers: { "content-type": "image/png" } });
    expect(exe.status()).toBe(415);
    expect((await exe.json()).error).toMatch(/Only photos/);
    const ok = await request.post(url, { data: PNG, headers: { "content-type": "application/octet-stream" } });
    expect(ok.status()).toBe(201);
    const served = await request.get(`${server.url}${(await ok.json()).url}`);
    expect(served.headers()["content-type"]).toBe("image/png");
    expect(served.headers()["x-content-type-options"]).toBe("nosniff");
    expect(Buffer.from(await served.body()).equals(PNG)).toBe(true);
    expect((await request.get(`${server.url}/api/sessions/${session.id}/attachments/..%2F..%2Fstudyloop.config.json`)).status()).toBe(404);
    await request.post(`${server.url}/api/session/end`);
    expect((await request.post(url, { data: PNG, headers: { "content-type": "application/octet-stream" } })).status()).toBe(409);
  });

  test("an agent that accepts no images offers no attach buttons and refuses an upload", async ({ page, request }) => {
    await startChat(page, server.url, "plain");
    await expect(page.getByRole("button", { name: "Attach a photo" })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Attach a file" })).toHaveCount(0);
    const { session } = await (await request.get(`${server.url}/api/session/state`)).json();
    const res = await request.post(`${server.url}/api/sessions/${session.id}/attachments?name=a.png`, { data: PNG, headers: { "content-type": "application/octet-stream" } });
    expect(res.status()).toBe(415);
    expect((await res.json()).error).toMatch(/does not accept images/);
  });

  test("a start refused for want of sign-in shows the agent's words, details and sign-in methods once", async ({ page }) => {
    const problems = watch(page);
    await open(page, `${server.url}/study`);
    await page.getByLabel("Topic").fill("locked out");
    await page.getByLabel("Tutor agent").selectOption("locked");
    await page.getByLabel(/a chat/).check();
    await page.getByRole("button", { name: "Start session" }).click();
    const refusal = page.getByTestId("start-refusal");
    await expect(refusal).toContainText("Scripted tutor could not start.");
    await expect(refusal).toContainText("It said: “Authentication required”");
    await expect(refusal).toContainText("No credentials in ~/.tutor/credentials.json");
    await expect(refusal.getByTestId("sign-in-method")).toHaveText(["Log in with Tutor — Run `tutor login` in a terminal", "Tutor API key — Set TUTOR_API_KEY"]);
    await expect(refusal).toContainText("studyloop.config.json");
    // Once: the page does not repeat it as an ended session, and the sentence is not said twice.
    const main = (await page.locator("main").textContent()) ?? "";
    expect(main.split("Authentication required").length - 1).toBe(1);
    expect(main.split("could not start").length - 1).toBe(1);
    await shot(page, "start-refused");
    expect(problems.filter((p) => !p.includes("502"))).toEqual([]);
  });

  test("a turn refused for want of sign-in shows the sign-in methods in the chat", async ({ page }) => {
    await startChat(page, server.url, "needs-login");
    await ask(page, "hello");
    const failure = page.getByTestId("turn-failure");
    await expect(failure).toContainText("It said: “Authentication required”");
    await expect(failure.getByTestId("sign-in-method")).toHaveCount(2);
    await expect(page.getByLabel("Message to the tutor")).toBeEnabled();
    await shot(page, "turn-refused");
  });

  test("the agent sees the variables its config passes, and no other secret", async ({ page }) => {
    await startChat(page, server.url, "scripted");
    await ask(page, "env please");
    await expect(page.getByTestId("agent-message").last()).toHaveText("TUTOR_API_KEY is set; OTHER_API_KEY is not set.");
  });

  test("/api/agents tells the terminal and the chat apart; the form does not offer a missing chat as ready", async ({ page, request }) => {
    const { agents } = await (await request.get(`${server.url}/api/agents`)).json();
    const noAdapter = agents.find((a: { name: string }) => a.name === "no-adapter");
    expect(noAdapter.terminal).toEqual({ command: process.execPath, available: true });
    expect(noAdapter.chat).toMatchObject({ command: "tutor-acp-adapter-not-installed", available: false });
    expect(agents.find((a: { name: string }) => a.name === "scripted").env).toEqual({ pass: ["TUTOR_API_KEY"], unset: [] });
    await open(page, `${server.url}/study`);
    await page.getByLabel("Tutor agent").selectOption("no-adapter");
    await page.getByLabel(/a chat/).check();
    await expect(page.getByLabel(/a chat/)).toBeChecked();
    await expect(page.locator("fieldset.choice")).toContainText("a chat (Agent Client Protocol: reads best on a phone) (not installed)");
    await expect(page.getByTestId("chat-install-hint")).toHaveText("Install the tutor.");
  });
});

test("a turn silent past the configured time-out is stopped and marked so", async ({ page }) => {
  const server = await startServer({ dataDir: makeDataDir({ scripted: tutorAgent() }), env: { STUDYLOOP_ACP_TURN_TIMEOUT_SECONDS: "2" } });
  try {
    await startChat(page, server.url, "scripted");
    await ask(page, "silent question");
    await expect(page.getByTestId("turn-stopped")).toHaveAttribute("data-by", "timeout");
    await expect(page.getByTestId("turn-stopped")).toContainText("the tutor sent nothing for too long");
    await expect(page.getByText("The tutor sent nothing for 2 s, so StudyLoop stopped this turn.")).toBeVisible();
  } finally {
    await server.stop();
  }
});
