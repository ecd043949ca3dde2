// providerOf reads Prisma's own field: if a Prisma upgrade moves it, this fails (and PostgreSQL would
// otherwise be sent SQLite's FTS5 queries).
import { describe, expect, it } from "vitest";
import { providerOf } from "./provider-of.ts";
import { openTestStorage, testProviders } from "./test-storage.ts";

describe.each(testProviders())("providerOf on %s", (provider) => {
  it("names the database the client talks to", async () => {
    const storage = await openTestStorage(provider);
    try {
      expect(providerOf(storage.db)).toBe(provider);
    } finally {
      await storage.dispose();
    }
  });
});
