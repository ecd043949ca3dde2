// The state read keeps a row's view while the row is unchanged (reconciler.ts, session-rows.ts
// RowMemo): every change that shows must still show at the next read, on a real database.
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { makeTestCoreOn, START, type TestCore } from "./test-support.ts";
import { testProviders } from "../db/test-storage.ts";

let core: TestCore | undefined;
afterEach(async () => {
  await core?.close();
  if (core) fs.rmSync(core.dir, { recursive: true, force: true });
  core = undefined;
});

/** Starts a session whose agent exits with `code`, and waits for its end to be written. */
async function exited(c: TestCore, code: number): Promise<string> {
  const { session } = await c.service.start(START);
  c.transports.at(-1)!.exit(code);
  await c.service.settle();
  return session.id;
}

describe.each(testProviders())("on %s", (provider) => {
  it("the last ended session: the same view while nothing changed, each change at the next read", async () => {
    core = await makeTestCoreOn(provider);
    const first = await exited(core, 1);
    const before = await core.service.state();
    expect(before.lastEnded?.id).toBe(first);
    expect(before.lastEnded?.explanation).toContain("(Test tutor) exited with code 1");
    const again = await core.service.state();
    expect(again.lastEnded).toEqual(before.lastEnded);
    // SQLite's read gives back the unchanged row itself, and with it the view it was given.
    if (provider === "sqlite") expect(again.lastEnded).toBe(before.lastEnded);

    // Written by someone else after the end (another process, a later summary): read at once.
    const summary = {
      durationMinutes: 3,
      focusMinutes: 3,
      wins: ["closures"],
      struggles: [],
      insights: [],
      parked: [],
      forNextSession: [],
    };
    await core.db.studySession.update({ where: { id: first }, data: { summary: JSON.stringify(summary), winCount: 2 } });
    const written = await core.service.state();
    expect(written.lastEnded?.winCount).toBe(2);
    expect(written.lastEnded?.summary).toMatchObject({ wins: ["closures"] });

    // The agent's label comes from the config: an edit shows in the explanation of the same row.
    const config = path.join(core.dir, "studyloop.config.json");
    fs.writeFileSync(config, fs.readFileSync(config, "utf8").replace('"Test tutor"', '"Renamed tutor"'));
    expect((await core.service.state()).lastEnded?.explanation).toContain("(Renamed tutor) exited with code 1");

    // Another session ends: it is the last ended one.
    const second = await exited(core, 3);
    const after = await core.service.state();
    expect(after.lastEnded?.id).toBe(second);
    expect(after.lastEnded?.exitCode).toBe(3);
  });

  it("the live session: a write to its row shows at the next read", async () => {
    core = await makeTestCoreOn(provider);
    const { session } = await core.service.start(START);
    const live = await core.service.state();
    expect(live.session?.id).toBe(session.id);
    if (provider === "sqlite") expect((await core.service.state()).session).toBe(live.session);
    await core.db.studySession.update({ where: { id: session.id }, data: { winCount: 4, focusMinutes: 50 } });
    const changed = await core.service.state();
    expect([changed.session?.winCount, changed.session?.focusMinutes]).toEqual([4, 50]);
  });
});
