// Page helpers shared by the specs.
import type { Page } from "@playwright/test";

/** Opens a page and waits until React has hydrated it (app/components/HydrationMarker.tsx). */
export async function open(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await hydrated(page);
}

export async function hydrated(page: Page): Promise<void> {
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
}
