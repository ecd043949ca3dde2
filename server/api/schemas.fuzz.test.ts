// Property tests of every HTTP body schema and socket payload schema (fast-check): any input is either
// accepted, with stored text free of control characters and bidi controls, or refused with a 400 and a
// sentence; nothing throws anything else. The same inputs against a real server: e2e/fuzz.spec.ts.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { isApiError } from "./api-error.ts";
import { ParkSchema, ParkingPatchSchema, RevokeAllSchema, StartSessionSchema, TopicMarkSchema, parseBody } from "./schemas.ts";
import { HistoryQuerySchema, ParkingQuerySchema, TimerActionSchema } from "./study-schemas.ts";
import { PairRequestSchema } from "../security/access-control.ts";
import * as payloads from "../realtime/payloads.ts";
import { forbiddenControl } from "../security/safe-text.ts";
import { anyBody } from "../../e2e/support/fuzz.ts";

/** Each body's schema, its keys, and the text fields that end up stored (with what they may hold). */
const BODIES: [string, z.ZodType, readonly string[], Record<string, "line" | "text">][] = [
  ["start", StartSessionSchema, ["topic", "energy", "agent", "transport", "focusPlan"], { topic: "line", agent: "line" }],
  ["park", ParkSchema, ["text"], { text: "text" }],
  ["parking patch", ParkingPatchSchema, ["status"], {}],
  ["topic mark", TopicMarkSchema, ["topic", "status", "note"], { topic: "line", note: "text" }],
  ["timer", TimerActionSchema, ["action", "nudge"], {}],
  ["revoke all", RevokeAllSchema, ["keepThisDevice"], {}],
  ["pair", PairRequestSchema, ["token", "name"], { name: "line" }],
  ["history query", HistoryQuerySchema, ["topic", "q"], {}],
  ["parking query", ParkingQuerySchema, ["session", "status"], {}],
];

describe("HTTP body schemas (property)", () => {
  for (const [name, schema, keys, stored] of BODIES) {
    it(`${name}: accepted, or a 400 with a sentence; never another error`, () => {
      fc.assert(
        fc.property(anyBody(keys), (body) => {
          try {
            const value = parseBody(schema, body) as Record<string, unknown>;
            // What is stored holds no control characters (line breaks only where allowed) and no bidi controls.
            for (const [key, kind] of Object.entries(stored)) {
              const v = value[key];
              if (typeof v !== "string") continue;
              expect(forbiddenControl(v, kind)).toBeUndefined();
              expect(v).not.toMatch(/[\u202A-\u202E\u2066-\u2069]/);
            }
          } catch (error) {
            expect(isApiError(error)).toBe(true);
            if (!isApiError(error)) return;
            expect(error.status).toBe(400);
            expect(error.message).toMatch(/^[A-Z"].*\.$/s);
          }
        }),
        { numRuns: 500 },
      );
    });
  }
});

describe("socket payload schemas (property)", () => {
  const schemas = Object.entries(payloads as Record<string, unknown>).filter(
    (entry): entry is [string, z.ZodType] => typeof (entry[1] as z.ZodType).safeParse === "function",
  );
  it("there is a schema for each client event that carries a payload", () => {
    // Every schema payloads.ts exports is fuzzed below, a new one included; these are the known ones.
    expect(schemas.map(([n]) => n)).toEqual(
      expect.arrayContaining([
        "AckSchema",
        "AttachSchema",
        "DetachSchema",
        "InputSchema",
        "PermissionSchema",
        "PromptSchema",
        "ResizeSchema",
        "StudyWatchSchema",
      ]),
    );
  });
  for (const [name, schema] of schemas) {
    it(`${name}: safeParse never throws`, () => {
      fc.assert(
        fc.property(anyBody(["sessionId", "sinceSeq", "data", "cols", "rows", "chars", "text", "requestId", "optionId"]), (payload) => {
          expect(() => schema.safeParse(payload)).not.toThrow();
        }),
        { numRuns: 300 },
      );
    });
  }
});
