// `studyloop park` and `studyloop topic`: parsing (pure), and the real command talking to a stand-in
// server, to prove what it sends (the Bearer token, the body) and how it answers each refusal.
import { spawn } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../config/paths.ts";
import { UsageError } from "./options.ts";
import { parseParkArgs } from "./park.ts";
import { parseTopicArgs } from "./topic.ts";
import { sessionEnv } from "./session-client.ts";

const BIN = path.join(PROJECT_ROOT, "bin", "studyloop.js");

describe("parsing", () => {
  it("parks the words given, quoted or not", () => {
    expect(parseParkArgs(["why do closures capture variables?"])).toEqual({ help: false, text: "why do closures capture variables?" });
    expect(parseParkArgs(["read", "about", "TCO"])).toEqual({ help: false, text: "read about TCO" });
    expect(parseParkArgs(["--", "-1 is odd?"])).toEqual({ help: false, text: "-1 is odd?" });
    expect(parseParkArgs(["--help"])).toEqual({ help: true });
  });

  it.each([
    [[], /Say what to park/],
    [["   "], /Say what to park/],
    [["x".repeat(2001)], /park at most 2000/],
    [["--loud", "x"], /Unknown option --loud/],
  ])("refuses park %j", (argv, message) => {
    expect(() => parseParkArgs(argv)).toThrow(UsageError);
    expect(() => parseParkArgs(argv)).toThrow(message);
  });

  it("marks a topic with a status and an optional note", () => {
    expect(parseTopicArgs(["closures", "--status", "win"])).toEqual({ help: false, topic: "closures", status: "win" });
    expect(parseTopicArgs(["tail", "calls", "--status=struggling", "--note", "TCO?"])).toEqual({
      help: false,
      topic: "tail calls",
      status: "struggling",
      note: "TCO?",
    });
  });

  it.each([
    [["--status", "win"], /Name the topic/],
    [["closures"], /Give --status win\|struggling\|learning\|insight/],
    [["closures", "--status", "great"], /--status must be one of win, struggling, learning, insight, not "great"/],
    [["closures", "--status"], /--status needs a value/],
    [["x".repeat(201), "--status", "win"], /at most 200/],
    [["closures", "--status", "win", "--note", "n".repeat(2001)], /note is 2001 characters/],
  ])("refuses topic %j", (argv, message) => {
    expect(() => parseTopicArgs(argv)).toThrow(UsageError);
    expect(() => parseTopicArgs(argv)).toThrow(message);
  });

  it("needs the session's URL and token from the environment", () => {
    expect(sessionEnv("park", { STUDYLOOP_URL: "http://127.0.0.1:8567/", STUDYLOOP_SESSION_TOKEN: "t" })).toEqual({
      url: "http://127.0.0.1:8567",
      token: "t",
    });
    expect(() => sessionEnv("park", {})).toThrow(/works inside a StudyLoop study session/);
    expect(() => sessionEnv("park", { STUDYLOOP_URL: "ftp://x", STUDYLOOP_SESSION_TOKEN: "t" })).toThrow(
      /must be the server's http\(s\) address/,
    );
  });
});

describe("the command against a server", () => {
  const seen: Array<{ method: string; url: string; authorization: string | undefined; body: unknown }> = [];
  /** What the stand-in server answers next. */
  let answer: { status: number; body: unknown } = { status: 201, body: {} };
  let server: http.Server;
  let url = "";

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let text = "";
      req.on("data", (d: Buffer) => (text += d.toString()));
      req.on("end", () => {
        seen.push({ method: req.method!, url: req.url!, authorization: req.headers.authorization, body: text ? JSON.parse(text) : null });
        res.writeHead(answer.status, { "content-type": "application/json" });
        res.end(JSON.stringify(answer.body));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  function run(args: string[], env: Record<string, string> = { STUDYLOOP_URL: url, STUDYLOOP_SESSION_TOKEN: "secret-token" }) {
    return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [BIN, ...args], {
        env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", ...env } as unknown as NodeJS.ProcessEnv,
      });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
      child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
      child.on("exit", (code) => resolve({ code, stdout, stderr }));
    });
  }

  it("parks with the session token as a Bearer token", async () => {
    seen.length = 0;
    answer = { status: 201, body: { item: {} } };
    const result = await run(["park", "what is a monad?"]);
    expect(result).toMatchObject({ code: 0, stdout: "Parked for after the session: what is a monad?\n" });
    expect(seen).toEqual([
      { method: "POST", url: "/api/parking", authorization: "Bearer secret-token", body: { text: "what is a monad?" } },
    ]);
  });

  it("marks a topic", async () => {
    seen.length = 0;
    answer = { status: 201, body: { mark: {} } };
    const result = await run(["topic", "closures", "--status", "win", "--note", "explained it back"]);
    expect(result).toMatchObject({ code: 0, stdout: 'Marked "closures" as a win.\n' });
    expect(seen[0]).toMatchObject({
      url: "/api/session/topics",
      authorization: "Bearer secret-token",
      body: { topic: "closures", status: "win", note: "explained it back" },
    });
  });

  it.each([
    [401, "This session token is not valid: run the command inside a StudyLoop session.", 1],
    [409, "The session this token belongs to has ended: nothing was written.", 1],
    [400, "Text must be at most 2000 characters.", 2],
  ])("a %i from the server is one sentence, exit %i", async (status, error, code) => {
    answer = { status, body: { error } };
    const result = await run(["park", "x"]);
    expect(result.code).toBe(code);
    expect(result.stderr).toBe(`studyloop: ${error}\n`);
  });

  it("outside a session it says so, exit 2, and sends nothing", async () => {
    seen.length = 0;
    const result = await run(["park", "x"], {});
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^studyloop: "studyloop park" works inside a StudyLoop study session/);
    expect(seen).toEqual([]);
  });

  it("bad input is refused before anything is sent, exit 2", async () => {
    seen.length = 0;
    expect((await run(["topic", "closures", "--status", "nope"])).code).toBe(2);
    expect((await run(["park", ""])).code).toBe(2);
    expect(seen).toEqual([]);
  });
});
