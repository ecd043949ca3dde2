import { describe, expect, it } from "vitest";
import { TUTOR_ROUTES, tutorMayCall, tutorTokenRefusal, type TutorRoute } from "./tutor-routes.ts";

describe("tutor routes", () => {
  it.each([
    ["POST", "/api/parking", true],
    ["post", "/api/parking", true],
    ["GET", "/api/parking", false],
    ["POST", "/api/parking/", false],
    ["POST", "/api/parking/x", false],
    ["POST", "/api/session/topics", true],
    ["POST", "/api/session/start", false],
    ["POST", "/api/devices/pairing", false],
    ["GET", "/api/devices", false],
    ["POST", "/API/parking", false],
  ] as const)("%s %s -> %s", (method, path, allowed) => {
    expect(tutorMayCall(method, path)).toBe(allowed);
  });

  it("a row with a parameter matches one non-empty segment", () => {
    const routes: TutorRoute[] = [...TUTOR_ROUTES, { method: "PATCH", path: "/api/cards/:id", command: "studyloop card" }];
    expect(tutorMayCall("PATCH", "/api/cards/3f2c", routes)).toBe(true);
    expect(tutorMayCall("PATCH", "/api/cards/", routes)).toBe(false);
    expect(tutorMayCall("PATCH", "/api/cards/3f2c/x", routes)).toBe(false);
  });

  it("the refusal names the commands the token is for", () => {
    expect(tutorTokenRefusal()).toMatch(/studyloop park, studyloop topic, studyloop card, studyloop cards, studyloop recall/);
  });
});
