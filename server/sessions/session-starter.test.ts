// Starting and continuing sessions on a real SQLite file with a fake agent.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { isSessionError } from "./session-errors.ts";
import { selfIdentity } from "./owner-probes.ts";
import { makeTestCoreOn, START, type TestCore } from "./test-support.ts";
import { testProviders } from "../db/test-storage.ts";

let core: TestCore | undefined;
afterEach(async () => {
  await core?.close();
  if (core) fs.rmSync(core.dir, { recursive: true, force: true });
  core = undefined;
});

async function refusal(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a refusal");
}

const codeOf = (error: unknown) => (isSessionError(error) ? error.code : String(error));

describe.each(testProviders())("on %s", (provider) => {
  describe("start", () => {
    it("claims the one live slot: of two starts at once, one runs and the other is refused naming the holder", async () => {
      core = await makeTestCoreOn(provider);
      const results = await Promise.allSettled([core.service.start(START), core.service.start(START)]);
      const ok = results.filter((r) => r.status === "fulfilled");
      const refused = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
      expect(ok).toHaveLength(1);
      expect(refused.map((r) => codeOf(r.reason))).toEqual(["already-active"]);
      expect(core.transports).toHaveLength(1);
      expect(await core.db.studySession.count()).toBe(1);
    });

    it("an unknown agent is refused before anything is written", async () => {
      core = await makeTestCoreOn(provider);
      expect(codeOf(await refusal(core.service.start({ ...START, agent: "nobody" })))).toBe("agent-unknown");
      expect(await core.db.studySession.count()).toBe(0);
    });

    it("an agent that cannot start: the row is ended as startup-failed and the next start works", async () => {
      core = await makeTestCoreOn(provider);
      core.failNextLaunch = "spawn ENOENT";
      const error = await refusal(core.service.start(START));
      expect(codeOf(error)).toBe("startup-failed");
      expect((error as Error).message).toMatch(/Test tutor could not start: spawn ENOENT/);
      const row = (await core.db.studySession.findFirst())!;
      expect([row.status, row.endReason, row.endDetail]).toEqual(["ended", "startup-failed", "spawn ENOENT"]);
      expect((await core.service.start(START)).session.status).toBe("live");
    });

    it("an agent that exits at once keeps its last lines and exit code for the study page", async () => {
      core = await makeTestCoreOn(provider);
      const { session } = await core.service.start(START);
      core.transports[0]!.output =
        "Welcome\r\nUnable to connect to Anthropic services\r\nFailed to connect to api.anthropic.com: ERR_BAD_REQUEST\r\n";
      core.transports[0]!.exit(1);
      await core.service.settle();
      const state = await core.service.state();
      expect(state.session).toBeNull();
      expect(state.lastEnded?.id).toBe(session.id);
      expect(state.lastEnded?.exitCode).toBe(1);
      expect(state.lastEnded?.lastLines).toEqual([
        "Welcome",
        "Unable to connect to Anthropic services",
        "Failed to connect to api.anthropic.com: ERR_BAD_REQUEST",
      ]);
      expect(state.lastEnded?.explanation).toMatch(/exited with code 1 .* Its last lines are below/);
      expect(state.lastEnded?.canContinue).toBe(true);
    });
  });

  describe("continue this session", () => {
    it("starts the agent with its resume arguments in the previous session's folder, linked to it", async () => {
      core = await makeTestCoreOn(provider);
      const first = await core.service.start(START);
      core.transports[0]!.exit(0);
      await core.service.settle();
      const next = await core.service.continueSession(first.session.id);
      expect(next.session.continuedFromId).toBe(first.session.id);
      expect(next.session.topic).toBe("closures");
      const launch = core.transports[1]!.launch;
      expect(launch.args).toEqual(["--resumed"]);
      expect(launch.cwd).toBe(core.transports[0]!.launch.cwd);
      expect(launch.resume).toEqual({ agentSessionId: null });

      // A chain keeps the first folder.
      core.transports[1]!.exit(0);
      await core.service.settle();
      await core.service.continueSession(next.session.id);
      expect(core.transports[2]!.launch.cwd).toBe(core.transports[0]!.launch.cwd);
    });

    it("is refused for a session the learner ended, or one still running", async () => {
      core = await makeTestCoreOn(provider);
      const first = await core.service.start(START);
      expect(codeOf(await refusal(core.service.continueSession(first.session.id)))).toBe("not-continuable");
      await core.service.end();
      expect(codeOf(await refusal(core.service.continueSession(first.session.id)))).toBe("not-continuable");
      expect(codeOf(await refusal(core.service.continueSession("00000000-0000-4000-8000-000000000000")))).toBe("not-found");
    });
  });

  describe("reconciling an 'ending' row whose server died", () => {
    it("ends it with the reason it was ending for, at its last heartbeat", async () => {
      core = await makeTestCoreOn(provider);
      // A pid that existed and is gone: its owner died after writing "ending".
      const gone = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
      const me = selfIdentity();
      const heartbeatAt = new Date(Date.now() - 60_000);
      await core.db.studySession.create({
        data: {
          id: "11111111-1111-4111-8111-111111111111",
          topic: "recursion",
          energy: 5,
          agent: "tutor",
          transport: "pty",
          status: "ending",
          endReason: "ended-by-learner",
          startedAt: new Date(Date.now() - 3_600_000),
          heartbeatAt,
          ownerInstance: "another-server",
          ownerHost: me.host,
          ownerBootId: me.bootId,
          ownerPid: Number(gone.stdout),
          ownerPidStartTime: "1",
          liveSlot: 1,
        },
      });
      const state = await core.service.state();
      expect(state.session).toBeNull();
      const row = (await core.db.studySession.findFirst())!;
      expect([row.status, row.endReason, row.endedAt?.toISOString()]).toEqual(["ended", "ended-by-learner", heartbeatAt.toISOString()]);
      expect((await core.service.start(START)).session.status).toBe("live");
    });
  });

  describe("viewers", () => {
    it("a chat session refuses a terminal viewer, and no viewer attaches to a session that is ending", async () => {
      core = await makeTestCoreOn(provider);
      const { session } = await core.service.start({ ...START, transport: "acp" });
      expect(codeOf(await refusal(core.service.attachViewer(session.id, "v1", () => undefined)))).toBe("wrong-transport");
      expect((await core.service.attachAcpViewer(session.id, "v2", () => undefined)).id).toBe(session.id);
      await core.service.end();
      expect(codeOf(await refusal(core.service.attachAcpViewer(session.id, "v3", () => undefined)))).toBe("ended");
    });

    it("an input-only viewer (a page's early keys) passes the same checks: a terminal that runs here, not ended", async () => {
      core = await makeTestCoreOn(provider);
      const chat = (await core.service.start({ ...START, transport: "acp" })).session;
      expect(codeOf(await refusal(core.service.attachInputViewer(chat.id, "v1")))).toBe("wrong-transport");
      await core.service.end();
      const { session } = await core.service.start(START);
      expect((await core.service.attachInputViewer(session.id, "v2")).id).toBe(session.id);
      expect(codeOf(await refusal(core.service.attachInputViewer("no-such-session", "v3")))).toBe("not-found");
      core.service.detachViewer(session.id, "v2");
      await core.service.end();
      expect(codeOf(await refusal(core.service.attachInputViewer(session.id, "v4")))).toBe("ended");
    });
  });
});
