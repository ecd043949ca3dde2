import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    // Unit and integration tests live beside their source; e2e/ is Playwright's.
    include: ["server/**/*.test.ts", "common/**/*.test.ts", "app/**/*.test.ts", "prisma/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Servers started by tests serve the build made before them and never rebuild it (server/cli/web.ts).
    // DATABASE_URL cleared: no test opens the learner's PostgreSQL (PostgreSQL tests start their own).
    env: { STUDYLOOP_KEEP_BUILD: "1", DATABASE_URL: "" },
  },
});
