// The session API's refusals: a clear 4xx, a sentence naming the field, and nothing stored.
import { test, expect } from "@playwright/test";
import fs from "node:fs";
import path from "node:path";
import { makeDataDir, startServer, type StartedServer } from "./support/server";
import { KEEPER_COLUMNS, storedState, sessionRow } from "./support/db";

let server: StartedServer;
test.beforeAll(async () => {
  const dataDir = makeDataDir({ broken: { label: "Broken", command: path.join(makeBadAgentDir(), "bad-agent") } });
  server = await startServer({ dataDir });
});
test.afterAll(async () => {
  await server.stop();
});

function makeBadAgentDir(): string {
  const dir = fs.mkdtempSync("/tmp/studyloop-bad-agent-");
  // Executable, but its interpreter does not exist: the exec fails inside the pty.
  fs.writeFileSync(path.join(dir, "bad-agent"), "#!/nonexistent/interpreter\necho never\n", { mode: 0o755 });
  return dir;
}

const valid = { topic: "closures", energy: 5, agent: "tutor", transport: "pty" };

const refusals: Array<[string, unknown, number, RegExp]> = [
  ["energy 0", { ...valid, energy: 0 }, 400, /Energy must be a whole number from 1 to 10/],
  ["energy 11", { ...valid, energy: 11 }, 400, /Energy must be a whole number from 1 to 10/],
  ["energy as text", { ...valid, energy: "high" }, 400, /Energy must be/],
  ["no topic", { energy: 5, agent: "tutor" }, 400, /Topic is required/],
  ["a blank topic", { ...valid, topic: "   " }, 400, /Topic is required/],
  ["a 100 KB topic", { ...valid, topic: "x".repeat(100 * 1024) }, 413, /too large/],
  ["a 10 KB topic", { ...valid, topic: "x".repeat(10 * 1024) }, 400, /Topic must be at most 200 characters/],
  ["no agent", { topic: "x", energy: 5 }, 400, /Agent is required/],
  ["an unknown agent", { ...valid, agent: "nope" }, 400, /There is no agent called "nope"/],
  ["a path as agent", { ...valid, agent: "../../bin/sh" }, 400, /Agent must be an agent name/],
  ["an unknown transport", { ...valid, transport: "telnet" }, 400, /Transport must be "pty"/],
  ["an unknown field", { ...valid, admin: true }, 400, /Unknown field "admin"/],
  ["an array", [valid], 400, /must be a JSON object/],
  ["an agent that is not installed", { ...valid, agent: "claude" }, 503, /Claude Code is not installed on this machine/],
];

for (const [name, body, status, message] of refusals) {
  test(`start with ${name} is refused with ${status} and stores nothing`, async ({ request }) => {
    const before = storedState(server.dataDir);
    const res = await request.post(`${server.url}/api/session/start`, { data: body });
    expect(res.status()).toBe(status);
    expect((await res.json()).error).toMatch(message);
    expect(storedState(server.dataDir)).toBe(before);
  });
}

test("malformed JSON is refused and stores nothing", async ({ request }) => {
  const before = storedState(server.dataDir);
  const res = await request.post(`${server.url}/api/session/start`, {
    headers: { "content-type": "application/json" },
    data: Buffer.from("{topic:"),
  });
  expect(res.status()).toBe(400);
  expect((await res.json()).error).toBe("The request body is not valid JSON.");
  expect(storedState(server.dataDir)).toBe(before);
});

test("ending with no active session is a 404 that says so", async ({ request }) => {
  const res = await request.post(`${server.url}/api/session/end`);
  expect(res.status()).toBe(404);
  expect((await res.json()).error).toMatch(/^No active session/);
});

test("a start while a session is live is a 409 naming it, and changes nothing", async ({ request }) => {
  const first = await request.post(`${server.url}/api/session/start`, { data: valid });
  expect(first.status()).toBe(201);
  const started = await first.json();
  expect(started.attach).toMatchObject({ transport: "pty", sessionId: started.session.id });
  // The live session's keeper writes its heartbeat and checkpoints meanwhile; the refusal writes nothing.
  const before = storedState(server.dataDir, KEEPER_COLUMNS);
  const second = await request.post(`${server.url}/api/session/start`, { data: { ...valid, topic: "other" } });
  expect(second.status()).toBe(409);
  const body = await second.json();
  expect(body.error).toMatch(/A study session is already active: "closures" with Test tutor since \d\d:\d\d/);
  expect(body.canReattach).toBe(true);
  expect(storedState(server.dataDir, KEEPER_COLUMNS)).toBe(before);
  expect((await request.post(`${server.url}/api/session/end`)).status()).toBe(200);
});

test("two simultaneous starts give exactly one 201 and one 409", async ({ request }) => {
  const results = await Promise.all([
    request.post(`${server.url}/api/session/start`, { data: { ...valid, topic: "race a" } }),
    request.post(`${server.url}/api/session/start`, { data: { ...valid, topic: "race b" } }),
  ]);
  expect(results.map((r) => r.status()).sort()).toEqual([201, 409]);
  await request.post(`${server.url}/api/session/end`);
});

test("an agent that cannot run ends as startup-failed, says why, and frees the slot", async ({ request }) => {
  const res = await request.post(`${server.url}/api/session/start`, { data: { ...valid, agent: "broken" } });
  expect(res.status()).toBe(201);
  const id = (await res.json()).session.id as string;
  await expect
    .poll(async () => (await (await request.get(`${server.url}/api/session/state`)).json()).lastEnded?.id, { timeout: 10_000 })
    .toBe(id);
  const state = await (await request.get(`${server.url}/api/session/state`)).json();
  expect(state.state).toBe("ended");
  expect(state.lastEnded.endReason).toBe("startup-failed");
  expect(state.lastEnded.explanation).toMatch(/could not start: the program could not be run/);
  expect(sessionRow(server.dataDir, id).live_slot).toBeNull();
  const next = await request.post(`${server.url}/api/session/start`, { data: valid });
  expect(next.status()).toBe(201);
  await request.post(`${server.url}/api/session/end`);
});
