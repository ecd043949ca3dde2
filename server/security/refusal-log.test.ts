import { describe, expect, it } from "vitest";
import { RefusalLog, formatRefusal } from "./refusal-log.ts";

const refusal = (n: number) => ({ method: "POST", url: `/api/x/${n}`, address: "10.0.0.2", status: 401, reason: "Not paired." });

describe("refusal log", () => {
  it("logs one line per refusal up to the budget, then counts, then reports the count", () => {
    const lines: string[] = [];
    let now = 0;
    const log = new RefusalLog(
      (l) => lines.push(l),
      () => now,
      { MAX_LINES: 3, WINDOW_MS: 1000 },
    );
    for (let i = 0; i < 10; i++) log.record(refusal(i));
    expect(lines).toHaveLength(3);
    expect(lines[0]).toBe("Refused POST /api/x/0 from 10.0.0.2: 401 Not paired.");
    now = 1000;
    log.record(refusal(10));
    expect(lines).toHaveLength(4);
    expect(lines[3]).toMatch(/\/api\/x\/10 .*\(and 7 more refused earlier, not logged\)$/);
    expect(lines.every((l) => !l.includes("\n"))).toBe(true);
  });

  it("shortens a long path", () => {
    expect(formatRefusal({ ...refusal(0), url: `/${"a".repeat(5000)}` }).length).toBeLessThan(220);
  });
});
