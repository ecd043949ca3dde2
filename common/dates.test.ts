import { describe, expect, it } from "vitest";
import { dateTimeText, formatDate } from "./dates.ts";

describe("formatDate", () => {
  const at = new Date(2026, 11, 1, 21, 30);
  it.each([
    [{ dateStyle: "medium", timeStyle: "short" }],
    [{ dateStyle: "medium" }],
    [{ weekday: "short", day: "numeric", month: "short" }],
    [{ month: "short" }],
    [{ hour: "2-digit", minute: "2-digit" }],
  ] as const)("writes what toLocaleString writes for %j", (options) => {
    expect(formatDate(at, options)).toBe(at.toLocaleString("en-GB", options));
    expect(formatDate(at.toISOString(), options)).toBe(at.toLocaleString("en-GB", options));
    expect(formatDate(at.getTime(), options)).toBe(at.toLocaleString("en-GB", options));
  });
  it("writes a moment with its date and time", () => {
    expect(dateTimeText(at)).toBe(at.toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "short" }));
  });
});
