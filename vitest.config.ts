import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // Unit and integration tests live beside their source; e2e/ is Playwright's.
    include: ["server/**/*.test.ts", "app/**/*.test.ts", "prisma/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
  },
});
