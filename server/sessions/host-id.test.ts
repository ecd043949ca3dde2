import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { HOST_ID_FILE_NAME, resolveHostId } from "./host-id.ts";

const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), "studyloop-hostid-"));

describe("resolveHostId", () => {
  it("creates a private UUID once and reads the same one afterwards", () => {
    const dir = tempDir();
    const first = resolveHostId(dir, {});
    expect(first).toMatch(/^[0-9a-f-]{36}$/);
    expect(fs.statSync(path.join(dir, HOST_ID_FILE_NAME)).mode & 0o777).toBe(0o600);
    expect(resolveHostId(dir, {})).toBe(first);
    expect(resolveHostId(tempDir(), {})).not.toBe(first);
  });

  it("takes STUDYLOOP_HOST_ID over the file, and refuses a malformed one with a sentence", () => {
    const dir = tempDir();
    expect(resolveHostId(dir, { STUDYLOOP_HOST_ID: "host-a" })).toBe("host-a");
    expect(fs.existsSync(path.join(dir, HOST_ID_FILE_NAME))).toBe(false);
    expect(() => resolveHostId(dir, { STUDYLOOP_HOST_ID: "a b" })).toThrow(/STUDYLOOP_HOST_ID must be/);
  });

  it("keeps the id an existing file holds", () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, HOST_ID_FILE_NAME), "kept-id\n");
    expect(resolveHostId(dir, {})).toBe("kept-id");
  });
});
