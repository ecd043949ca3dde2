// The HTTP edge's one table of answers: every kind of refusal below it gets its status here, and a
// real fault gets none (a logged 500).
import { describe, expect, it } from "vitest";
import { DbUnavailable } from "../db/db-faults.ts";
import { conflict, invalid, notFound } from "../errors/refusal.ts";
import { SessionError } from "../sessions/session-errors.ts";
import { ApiError, toApiError } from "./api-error.ts";

describe("toApiError", () => {
  it.each([
    ["an ApiError, as it is", new ApiError(413, "Too large."), 413, {}],
    ["an invalid request", invalid("topic is empty.", { field: "topic" }), 400, { field: "topic" }],
    ["something not there", notFound("There is no such card."), 404, {}],
    ["a conflict, with what the page needs", conflict("Already reviewed.", { due: "tomorrow" }), 409, { due: "tomorrow" }],
    ["a session refusal, by its code", new SessionError("already-active", "A session is live."), 409, { code: "already-active" }],
    [
      "a held database",
      new DbUnavailable("locked", "park that thought", new Error("SQLITE_BUSY")),
      503,
      { code: "db-unavailable", fault: "locked" },
    ],
  ])("%s", (_what, error, status, extra) => {
    const answer = toApiError(error);
    expect(answer?.status).toBe(status);
    expect(answer?.message).toBe(error.message);
    expect(answer?.extra).toEqual(extra);
  });

  it("a real fault is not a refusal: the edge logs it and answers 500", () => {
    expect(toApiError(new TypeError("x is undefined"))).toBeNull();
    expect(toApiError("a string")).toBeNull();
  });
});
