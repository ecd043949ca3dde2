// Prisma CLI settings (generate, studio). The app itself never runs the Prisma CLI: it applies
// prisma/migrations on start-up (server/db/migrate.ts).
import path from "node:path";
import { defineConfig } from "prisma/config";

// Offline, every Prisma CLI command first tries to download the native schema engine. generate,
// validate, format and studio do not need it, so point the CLI at a stub that only says so.
process.env.PRISMA_SCHEMA_ENGINE_BINARY ??= path.resolve("prisma/schema-engine-stub.sh");

export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: {
    url: process.env.STUDYLOOP_DATABASE_URL ?? "file:./dev.db",
  },
});
