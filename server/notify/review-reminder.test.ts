// The daily review reminder on a real migrated SQLite file with real cards: sent when cards are due,
// at most once a calendar day, also across a restart (a second reminder over the same database).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { applyMigrations } from "../db/migrate.ts";
import { openDatabase, type Db } from "../db/client.ts";
import { CardStore } from "../cards/card-store.ts";
import { defaultParameters } from "../cards/scheduling.ts";
import { Notifier } from "./notifier.ts";
import { NotifyDeviceStore } from "./device-store.ts";
import { WebPushChannel, loadVapidKeys } from "./web-push-channel.ts";
import { startReviewReminder, type ReviewReminder } from "./review-reminder.ts";

let tmp: string;
let db: Db;
const reminders: ReviewReminder[] = [];

beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "studyloop-review-"));
  const file = path.join(tmp, "studyloop.db");
  applyMigrations(file);
  db = openDatabase(file);
});

afterEach(async () => {
  for (const r of reminders.splice(0)) r.close();
  await db.$disconnect();
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** A server start: its notifier and reminder, at a clock the test sets. */
function start(clock: { now: Date }, cards: CardStore): ReviewReminder {
  const notifier = new Notifier({
    db,
    store: new NotifyDeviceStore(db),
    push: new WebPushChannel(loadVapidKeys(tmp)),
    log: () => undefined,
    awayMs: 60_000,
    now: () => clock.now,
  });
  const reminder = startReviewReminder({ db, notifier, dueCount: () => cards.dueCount(), log: () => undefined, now: () => clock.now });
  reminders.push(reminder);
  return reminder;
}

describe("review reminder", () => {
  it("nothing due: nothing sent; cards due: one calm notice a day, kept across a restart; the next day again", async () => {
    const clock = { now: new Date(2026, 11, 1, 9, 0) };
    const cards = new CardStore(db, defaultParameters(), () => clock.now);
    const first = start(clock, cards);
    expect(await first.check()).toBeNull();
    expect(await db.notificationLog.count()).toBe(0);

    await cards.create({ front: "What is a closure?", back: "A function with its scope.", topic: "closures" }, { source: "learner" });
    await cards.create({ front: "What is hoisting?", back: "Declarations move up.", topic: "closures" }, { source: "learner" });
    expect(await first.check()).toMatchObject({
      kind: "review-due",
      urgency: "calm",
      body: "2 cards are ready for review.",
      link: "/review",
    });
    clock.now = new Date(2026, 11, 1, 18, 0);
    expect(await first.check()).toBeNull();

    // A restart the same day: the log remembers.
    first.close();
    const second = start(clock, cards);
    expect(await second.check()).toBeNull();
    expect(await db.notificationLog.count({ where: { kind: "review-due" } })).toBe(1);

    clock.now = new Date(2026, 11, 2, 8, 0);
    expect(await second.check()).toMatchObject({ kind: "review-due" });
    expect((await db.notificationLog.findMany({ orderBy: { createdAt: "asc" } })).map((r) => r.key)).toEqual([
      "review-due:2026-12-01",
      "review-due:2026-12-02",
    ]);
  });
});
