// Property-based fuzzing (fast-check) of every HTTP body and socket payload against a real server:
// whatever arrives, the answer is never a 5xx, a refused input stores nothing, and the server keeps
// serving. The schemas alone are fuzzed harder in server/api/schemas.fuzz.test.ts.
import { test, expect } from "@playwright/test";
import fc from "fast-check";
import { startServer, type StartedServer } from "./support/server";
import { json, send, state as storedState } from "./support/hostile";
import { connect, Viewer, type TestSocket } from "./support/socket";
import { anyBody } from "./support/fuzz";

/** What is stored, but what the live session writes on its own: its heartbeat and recording size. */
const state = (dataDir: string) =>
  storedState(dataDir)
    .replace(/heartbeat_at[^,]*,/g, "")
    .replace(/recording_bytes[^,}\]]*/g, "");

/** Every route that reads a body, with the keys its schema knows. */
const BODY_ROUTES: [method: string, path: string, keys: string[]][] = [
  ["POST", "/api/session/start", ["topic", "energy", "agent", "transport", "focusPlan"]],
  ["POST", "/api/parking", ["text"]],
  ["PATCH", "/api/parking/00000000-0000-4000-8000-000000000000", ["status"]],
  ["POST", "/api/session/topics", ["topic", "status", "note"]],
  ["POST", "/api/session/timer", ["action", "nudge"]],
  ["POST", "/api/devices/revoke-all", ["keepThisDevice"]],
  ["POST", "/pair", ["token", "name"]],
];

let server: StartedServer;
let socket: TestSocket;
let sessionId: string;

test.beforeAll(async () => {
  // No transcript checkpoint during the run: it is the one write that is not a request's.
  server = await startServer({ env: { STUDYLOOP_CHECKPOINT_SECONDS: "100000" } });
  const started = await send(`${server.url}/api/session/start`, {
    method: "POST",
    ...json({ topic: "fuzzing", energy: 5, agent: "tutor" }),
  });
  expect(started.status, started.body).toBe(201);
  sessionId = (JSON.parse(started.body) as { session: { id: string } }).session.id;
  socket = await connect(server.url);
  const viewer = new Viewer(socket, sessionId);
  expect((await viewer.attach()).ok).toBe(true);
  await viewer.waitFor("tutor>");
});
test.afterAll(async () => {
  socket?.disconnect();
  await server.stop();
});

for (const [method, path, keys] of BODY_ROUTES) {
  test(`${method} ${path}: never a 5xx; a refusal stores nothing`, async () => {
    test.setTimeout(120_000);
    await fc.assert(
      fc.asyncProperty(anyBody(keys), fc.boolean(), async (body, asText) => {
        const before = state(server.dataDir);
        // Some bodies are sent as raw text that is not JSON at all.
        const payload = asText && typeof body === "string" ? body : (JSON.stringify(body) ?? "undefined");
        const res = await send(`${server.url}${path}`, { method, headers: { "content-type": "application/json" }, body: payload });
        expect(res.status, res.body).toBeLessThan(500);
        if (res.status >= 400) {
          expect(state(server.dataDir)).toBe(before);
          expect(JSON.parse(res.body).error).toMatch(/\S/);
        }
      }),
      { numRuns: 60 },
    );
  });
}

const PAYLOAD_EVENTS = [
  "terminal:attach",
  "terminal:lane-failed",
  "acp:attach",
  "acp:prompt",
  "acp:cancel",
  "acp:permission",
  "study:watch",
] as const;
const FIRE_AND_FORGET = [
  "terminal:detach",
  "terminal:input",
  "terminal:resize",
  "terminal:fit",
  "terminal:ack",
  "acp:detach",
  "study:unwatch",
] as const;

test("every socket event with any payload: never a 5xx, nothing stored, the socket keeps working", async () => {
  test.setTimeout(120_000);
  const keys = ["sessionId", "sinceSeq", "data", "cols", "rows", "chars", "text", "requestId", "optionId"];
  const payloadArb = fc.oneof(anyBody(keys), fc.record({ sessionId: fc.oneof(fc.constant("SESSION"), fc.uuid()) }, { requiredKeys: [] }));
  const before = state(server.dataDir);
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...PAYLOAD_EVENTS, ...FIRE_AND_FORGET), payloadArb, async (event, raw) => {
      // Some payloads name the live session, so the handlers get past their first check.
      const payload =
        raw && typeof raw === "object" && (raw as { sessionId?: unknown }).sessionId === "SESSION" ? { ...raw, sessionId } : raw;
      if ((FIRE_AND_FORGET as readonly string[]).includes(event)) {
        // Input to the live tutor is typed for real: keep it away from the tutor's own commands.
        if (event === "terminal:input") return;
        (socket.emit as (e: string, p: unknown) => void)(event, payload);
      } else {
        const answer = (await (socket.timeout(5_000).emitWithAck as (e: string, p: unknown) => Promise<{ ok: boolean; status?: number }>)(
          event,
          payload,
        )) as { ok: boolean; status?: number };
        if (!answer.ok) expect(answer.status).toBeLessThan(500);
      }
      const clock = await socket.timeout(5_000).emitWithAck("clock:sync");
      expect(clock.ok).toBe(true);
    }),
    { numRuns: 150 },
  );
  // Attaching and watching store nothing; no input was typed.
  expect(state(server.dataDir)).toBe(before);
  expect(server.output()).not.toMatch(/\n\s+at \S+/);
});
