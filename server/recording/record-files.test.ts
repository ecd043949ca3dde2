// record-files.ts on real files: how much of a recording may be served (its whole lines).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { wholeLinesLength } from "./record-files.ts";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "record-files-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("wholeLinesLength", () => {
  it("ends after the last newline, however far from the end it is", async () => {
    const cases: [string, number][] = [
      ["", 0],
      ["no newline at all", 0],
      ["a\nb\n", 4],
      ['{"version":2}\n[1,"o","torn', 14],
      // A last line longer than the piece read from the end at a time (64 KB).
      [`head\n${"x".repeat(200_000)}`, 5],
      [`${"y".repeat(70_000)}\n${"x".repeat(70_000)}`, 70_001],
    ];
    for (const [i, [text, expected]] of cases.entries()) {
      const file = path.join(dir, `${i}.cast`);
      fs.writeFileSync(file, text);
      expect(await wholeLinesLength(file)).toBe(expected);
    }
  });
});
