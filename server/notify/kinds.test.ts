import { describe, expect, it } from "vitest";
import { BODY_MAX_CHARS, NOTICE_KINDS, noticeLink, pageBody, remoteBody } from "./kinds.ts";

describe("notice words", () => {
  it("each kind has its urgency", () => {
    expect(Object.fromEntries(Object.entries(NOTICE_KINDS).map(([k, v]) => [k, v.urgency]))).toEqual({
      permission: "urgent",
      "waiting-input": "normal",
      "run-finished": "calm",
      "break-due": "normal",
      "break-over": "normal",
      "session-ended": "urgent",
      "grace-ending": "urgent",
      "review-due": "calm",
      test: "normal",
    });
  });

  it("the page's text is one short plain line; remote channels get the generic sentence", () => {
    expect(pageBody("permission", "It asks:\x1b[31m rm -rf\n build")).toBe("It asks: [31m rm -rf build");
    expect(pageBody("break-due", undefined)).toBe(remoteBody("break-due"));
    expect(pageBody("waiting-input", "x".repeat(500))).toHaveLength(BODY_MAX_CHARS);
  });

  it("links open the session (or an ended session's page) and name the notice", () => {
    expect(noticeLink({ kind: "permission", sessionId: "s1" }, "n1")).toBe("/study#notice=n1");
    expect(noticeLink({ kind: "session-ended", sessionId: "s1" }, "n1")).toBe("/sessions/s1#notice=n1");
    expect(noticeLink({ kind: "review-due", link: "/review" }, "n1")).toBe("/review");
    expect(noticeLink({ kind: "test" }, "n1")).toBe("/#notice=n1");
  });
});
