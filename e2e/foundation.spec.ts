// The foundation: the production server serves the pages from the real database.
import { test, expect } from "@playwright/test";
import Database from "better-sqlite3";
import path from "node:path";
import { startServer, type StartedServer } from "./support/server";

let server: StartedServer;
test.beforeAll(async () => {
  server = await startServer();
});
test.afterAll(async () => {
  await server.stop();
});

test("the dashboard greets a new learner and the database has its tables", async ({ page }) => {
  const response = await page.goto(server.url);
  expect(response?.status()).toBe(200);
  await expect(page.getByText("No study sessions yet.")).toBeVisible();
  await page.getByRole("link", { name: "Start studying" }).click();
  await expect(page).toHaveURL(/\/study$/);
  await expect(page.getByRole("heading", { name: "Start a study session" })).toBeVisible();

  const db = new Database(path.join(server.dataDir, "studyloop.db"), { readonly: true });
  const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[];
  expect(tables.map((t) => t.name)).toEqual(
    expect.arrayContaining(["study_sessions", "parked_items", "topic_marks", "_prisma_migrations"]),
  );
  const migrations = db.prepare("SELECT migration_name, finished_at FROM _prisma_migrations").all() as {
    migration_name: string;
    finished_at: unknown;
  }[];
  expect(migrations.length).toBeGreaterThan(0);
  expect(migrations.every((m) => m.finished_at !== null)).toBe(true);
  db.close();
});

test("navigation works at phone width", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 667 });
  await page.goto(server.url);
  const nav = page.getByRole("navigation", { name: "Main" });
  await expect(nav).toBeVisible();
  await nav
    .getByRole("link", { name: "Study" })
    .tap()
    .catch(() => nav.getByRole("link", { name: "Study" }).click());
  await expect(page).toHaveURL(/\/study$/);
  // Nothing wider than the screen: no sideways scrolling on a phone.
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await page.screenshot({ path: test.info().outputPath("study-phone.png"), fullPage: true });
});

test("every response carries the security headers", async ({ request }) => {
  const res = await request.get(server.url);
  expect(res.headers()["x-content-type-options"]).toBe("nosniff");
  expect(res.headers()["referrer-policy"]).toBe("same-origin");
});
