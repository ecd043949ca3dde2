// "Review cards are due": checked when the server starts and every half hour, sent at most once per
// calendar day. The day's key lives in the notification log (unique), so a restart does not repeat it.
import type { Db } from "../db/client.ts";
import type { NoticePayload } from "./kinds.ts";
import type { Notifier } from "./notifier.ts";
import { dailyKey } from "./policy.ts";

/** How often the review loop's due count is looked at: a reminder is a calm nudge, not a clock. */
export const REVIEW_CHECK_MS = 30 * 60_000;

export interface ReviewReminderDeps {
  readonly db: Db;
  readonly notifier: Notifier;
  /** Cards due now (the review loop's CardStore.dueCount). */
  readonly dueCount: () => Promise<number>;
  readonly log: (line: string) => void;
  readonly now?: () => Date;
  readonly intervalMs?: number;
}

export interface ReviewReminder {
  /** One check: the notice sent, or null (already sent today, or nothing due). */
  check(): Promise<NoticePayload | null>;
  close(): void;
}

export function startReviewReminder(deps: ReviewReminderDeps): ReviewReminder {
  const now = deps.now ?? (() => new Date());
  let checking: Promise<NoticePayload | null> | null = null;
  const check = (): Promise<NoticePayload | null> => {
    checking ??= (async () => {
      // Today's reminder already went (this process or an earlier one): no count query needed.
      if (await deps.db.notificationLog.findUnique({ where: { key: dailyKey("review-due", now()) }, select: { id: true } })) return null;
      const due = await deps.dueCount();
      return due > 0 ? deps.notifier.reviewDue(due) : null;
    })().finally(() => {
      checking = null;
    });
    return checking;
  };
  const run = () => void check().catch((error: unknown) => deps.log(`Could not check for review cards due: ${String(error)}`));
  run();
  const interval = setInterval(run, deps.intervalMs ?? REVIEW_CHECK_MS);
  interval.unref();
  return { check, close: () => clearInterval(interval) };
}
