// This server's stable host id: what a row's owner is compared by across hosts. A hostname alone
// is not enough (two machines may share one, a container gets a new one each run), so it is a
// UUID created once in the data directory; STUDYLOOP_HOST_ID overrides it (tests run several
// "hosts" on one machine, and a deployment can pin one).
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { PRIVATE_FILE_MODE } from "../config/paths.ts";

export const HOST_ID_FILE_NAME = "host-id";
const VALID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

/** Reads `<dataDir>/host-id`, creating it (0600, a new UUID) the first time. */
export function resolveHostId(dataDir: string, env: Readonly<Record<string, string | undefined>> = process.env): string {
  const override = env.STUDYLOOP_HOST_ID?.trim();
  if (override) {
    if (!VALID.test(override)) {
      throw new Error("STUDYLOOP_HOST_ID must be 1 to 128 letters, digits, dots, colons, dashes or underscores.");
    }
    return override;
  }
  const file = path.join(dataDir, HOST_ID_FILE_NAME);
  const existing = readHostId(file);
  if (existing) return existing;
  const fresh = crypto.randomUUID();
  try {
    // "wx": two servers starting at once in one data directory both end up with the first one's id.
    fs.writeFileSync(file, `${fresh}\n`, { mode: PRIVATE_FILE_MODE, flag: "wx" });
    return fresh;
  } catch (error) {
    const winner = (error as NodeJS.ErrnoException).code === "EEXIST" ? readHostId(file) : null;
    if (winner) return winner;
    throw new Error(
      `StudyLoop could not write its host id to ${file}: ${(error as Error).message}. Check that the data directory is writable.`,
    );
  }
}

function readHostId(file: string): string | null {
  try {
    const text = fs.readFileSync(file, "utf8").trim();
    return VALID.test(text) ? text : null;
  } catch {
    return null;
  }
}
