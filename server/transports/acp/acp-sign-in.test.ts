// ACP sign-in against real agent processes: the scripted tutor (written with the SDK's agent side)
// that, like codex-acp, opens a conversation only after `authenticate` with the key it was passed; and
// codex-acp itself when it is installed in /tmp/agents (never a project dependency).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../config/paths.ts";
import type { AcpEventRecord } from "./acp-events.ts";
import { AcpFailure, AcpSession, type AcpSpawnOptions } from "./acp-session.ts";

const TUTOR = path.join(PROJECT_ROOT, "e2e", "fixtures", "acp-tutor-agent.mjs");
const CODEX_ACP = "/tmp/agents/node_modules/.bin/codex-acp";
const HINT = 'To sign in, run `tutor login`; or set TUTOR_API_KEY and pass it to "tutor" in studyloop.config.json.';

const sessions: AcpSession[] = [];
const dirs: string[] = [];
afterEach(() => {
  while (sessions.length) sessions.pop()!.dispose();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

const tempDir = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), "studyloop-sign-in-"));
  dirs.push(d);
  return d;
};

async function start(command: string, args: string[], env: Record<string, string>, extra: Partial<AcpSpawnOptions> = {}) {
  const events: AcpEventRecord[] = [];
  const session = await AcpSession.start({
    command,
    args,
    cwd: tempDir(),
    env: { PATH: process.env.PATH ?? "", HOME: tempDir(), ...env },
    handshakeTimeoutMs: 20_000,
    signInHint: HINT,
    record: (e) => events.push(e),
    ...extra,
  });
  sessions.push(session);
  return { session, events };
}

const refusalOf = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error("expected the start to fail");
    },
    (error: unknown) => {
      if (!(error instanceof AcpFailure)) throw error;
      return error;
    },
  );

describe("ACP sign-in with a key the learner passed", () => {
  it("authenticates with the agent's method for that key before session/new, and the conversation opens", async () => {
    const { session } = await start(
      process.execPath,
      [TUTOR, "--needs-authenticate"],
      { TUTOR_API_KEY: "tk-123" },
      {
        passedVariables: ["TUTOR_API_KEY"],
      },
    );
    expect(session.sessionIdAtAgent).toBe("tutor-session-1");
  });

  it("finds the method in the refusal's data when initialize listed none, signs in, and asks once more", async () => {
    const { session } = await start(
      process.execPath,
      [TUTOR, "--needs-authenticate", "--methods-in-error"],
      { TUTOR_API_KEY: "tk-123" },
      {
        passedVariables: ["TUTOR_API_KEY"],
      },
    );
    expect(session.sessionIdAtAgent).toBe("tutor-session-1");
  });

  it("a refusal after signing in says what StudyLoop tried, and does not repeat the advice already followed", async () => {
    const failure = await refusalOf(
      start(
        process.execPath,
        [TUTOR, "--needs-authenticate", "--rejects-key"],
        { TUTOR_API_KEY: "tk-123" },
        { passedVariables: ["TUTOR_API_KEY"] },
      ),
    );
    expect(failure.message).toContain(
      'StudyLoop passed TUTOR_API_KEY and signed in with it ("Use TUTOR_API_KEY"); the agent still refused: "Authentication required".',
    );
    expect(failure.message).not.toContain("pass it");
    expect(failure.details).toMatchObject({ needsSignIn: true, tried: expect.stringContaining("StudyLoop passed TUTOR_API_KEY") });
    expect(failure.details?.signInHint).toBeUndefined();
  });

  it("without the key passed, nothing is tried: the refusal names the ways to sign in and the hint", async () => {
    const failure = await refusalOf(start(process.execPath, [TUTOR, "--needs-authenticate"], {}));
    expect(failure.message).toContain("It offers these ways to sign in: Log in with Tutor");
    expect(failure.message).toContain(HINT);
    expect(failure.details?.tried).toBeUndefined();
  });

  it("a key set but not passed by the config is not used", async () => {
    const failure = await refusalOf(start(process.execPath, [TUTOR, "--needs-authenticate"], { TUTOR_API_KEY: "tk-123" }));
    expect(failure.message).toContain("Authentication required");
  });
});

describe("a handshake that times out", () => {
  it("shows the agent's last lines on its error output and the likely cause", async () => {
    const failure = await refusalOf(start(process.execPath, [TUTOR, "--offline-start"], {}, { handshakeTimeoutMs: 1_500 }));
    expect(failure.message).toMatch(/^the agent did not answer the protocol handshake within 2 s\./);
    expect(failure.message).toContain("It seems unable to reach its provider over the network");
    expect(failure.message).toContain(
      'Its last lines on its error output: "Fetching the model list from https://api.tutor.example/v1/models"; "Error: getaddrinfo ENOTFOUND api.tutor.example"; "Retrying in 30 s (attempt 2 of 5)".',
    );
  });
});

describe.skipIf(!fs.existsSync(CODEX_ACP))("the real codex-acp, offline, with a fake HOME", () => {
  it("opens a conversation once StudyLoop signs in with the OPENAI_API_KEY it was passed", async () => {
    const home = tempDir();
    const { session } = await start(CODEX_ACP, [], { HOME: home, OPENAI_API_KEY: "sk-test" }, { passedVariables: ["OPENAI_API_KEY"] });
    expect(session.sessionIdAtAgent).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("without the key passed it refuses, and the refusal lists its methods", async () => {
    const failure = await refusalOf(start(CODEX_ACP, [], { HOME: tempDir() }));
    expect(failure.message).toContain("Authentication required");
    expect(failure.details?.signInMethods.map((m) => m.id)).toEqual(["chatgpt", "codex-api-key", "openai-api-key"]);
  });
});
