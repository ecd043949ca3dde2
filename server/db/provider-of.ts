// Which database a Prisma client talks to, for the few raw queries whose SQL differs (FTS5 against
// pg_trgm, json_each against arrays). Read from the client itself so that every store built on a
// Storage's client follows it without another constructor argument.
import type { Db } from "./client.ts";
import type { Provider } from "./database-target.ts";

export function providerOf(db: Db): Provider {
  // Prisma's generated client keeps the schema's provider ("sqlite" | "postgresql") on the instance.
  return (db as unknown as { _activeProvider?: string })._activeProvider === "postgresql" ? "postgresql" : "sqlite";
}
