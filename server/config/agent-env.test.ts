// The secrets policy: scrubbed by default, named variables passed to the agent that names them,
// StudyLoop's own never.
import { describe, expect, it } from "vitest";
import { agentEnvironment, passedVariables, scrubbedEnvironment } from "./agent-env.ts";

const base: NodeJS.ProcessEnv = {
  PATH: "/usr/bin",
  HOME: "/home/learner",
  GEMINI_API_KEY: "g-secret",
  OPENAI_API_KEY: "o-secret",
  GITHUB_TOKEN: "gh-secret",
  STUDYLOOP_PAIRING_SECRET: "own",
  NODE_OPTIONS: "--inspect",
  NODE_ENV: "production",
};
const session = { id: "s1", token: "session-token", serverUrl: "http://127.0.0.1:3000", dataDir: "/data" };

describe("agent environment", () => {
  it("scrubs every secret and StudyLoop's settings by default", () => {
    expect(Object.keys(scrubbedEnvironment(base)).sort()).toEqual(["HOME", "PATH"]);
  });

  it("passes the named variables, and only those", () => {
    const env = agentEnvironment(base, session, ["GEMINI_API_KEY"]);
    expect(env.GEMINI_API_KEY).toBe("g-secret");
    expect(env.OPENAI_API_KEY).toBeUndefined();
    expect(env.GITHUB_TOKEN).toBeUndefined();
  });

  it("never passes StudyLoop's own, even when named; the session gets its own token", () => {
    const env = agentEnvironment(base, session, ["STUDYLOOP_PAIRING_SECRET", "NODE_OPTIONS"]);
    expect(env.STUDYLOOP_PAIRING_SECRET).toBeUndefined();
    expect(env.NODE_OPTIONS).toBeUndefined();
    expect(env.STUDYLOOP_SESSION_TOKEN).toBe("session-token");
  });

  it("keeps DATABASE_URL (it may hold StudyLoop's PostgreSQL password); a tmux session on PostgreSQL gets its database as STUDYLOOP_DATABASE_URL", () => {
    const withDb = { ...base, DATABASE_URL: "postgresql://studyloop:pw@db.lan/studyloop" };
    expect(agentEnvironment(withDb, session).DATABASE_URL).toBeUndefined();
    expect(agentEnvironment(withDb, session).STUDYLOOP_DATABASE_URL).toBeUndefined();
    const tmux = { ...session, serverUrl: null, databaseUrl: "postgresql://studyloop@db.lan/studyloop" };
    expect(agentEnvironment(withDb, tmux).STUDYLOOP_DATABASE_URL).toBe("postgresql://studyloop@db.lan/studyloop");
  });

  it("tells named variables that are not set apart from passed ones", () => {
    expect(passedVariables(base, ["GEMINI_API_KEY", "ANTHROPIC_API_KEY", "STUDYLOOP_X"])).toEqual({
      passed: ["GEMINI_API_KEY"],
      unset: ["ANTHROPIC_API_KEY"],
    });
  });
});
