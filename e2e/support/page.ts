// Page helpers shared by the specs.
import { expect, type Browser, type BrowserContextOptions, type ConsoleMessage, type Page } from "@playwright/test";

/** Opens a page and waits until React has hydrated it (app/components/HydrationMarker.tsx). */
export async function open(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await hydrated(page);
}

export async function hydrated(page: Page): Promise<void> {
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
}

export interface ProblemWatch {
  /** Put before each problem: the device's name when several pages share one list. */
  readonly label?: string;
  /** A console error the test causes on purpose (a refused request, the 404 page's own status): not counted. */
  readonly expected?: (message: ConsoleMessage) => boolean;
  /** Also count Content Security Policy refusals, which Chromium may log as warnings. */
  readonly csp?: boolean;
}

/**
 * Collects what says the page is broken into `problems` (returned): every uncaught page error and every
 * console error. The browser's own request for /favicon.ico is not the page's doing and never counts.
 */
export function watchProblems(page: Page, watch: ProblemWatch = {}, problems: string[] = []): string[] {
  const label = watch.label ? `${watch.label}: ` : "";
  page.on("pageerror", (error) => problems.push(`${label}page error: ${error.message}`));
  page.on("console", (message) => {
    const where = message.location().url;
    if (where.endsWith("/favicon.ico") || watch.expected?.(message)) return;
    const refused = watch.csp === true && /Content Security Policy|Refused to/i.test(message.text());
    if (message.type() === "error" || refused) problems.push(`${label}console ${message.type()}: ${message.text()} (${where})`);
  });
  return problems;
}

/** The two sizes the pages are checked at: a laptop and a phone. */
export const LAPTOP_AND_PHONE: readonly { readonly name: string; readonly options: BrowserContextOptions }[] = [
  { name: "laptop-1280x800", options: { viewport: { width: 1280, height: 800 } } },
  { name: "phone-390x844", options: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } },
];

/** A page in a context of its own whose errors are collected; `check()` fails the test on any. */
export async function watchedPage(
  browser: Browser,
  options: BrowserContextOptions,
  watch: ProblemWatch = {},
): Promise<{ page: Page; check: () => void }> {
  const page = await (await browser.newContext(options)).newPage();
  const problems = watchProblems(page, watch);
  return { page, check: () => expect(problems, "page and console errors").toEqual([]) };
}
