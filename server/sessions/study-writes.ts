// The study loop's writes to study_sessions (ports.ts): the timer's conditional write and the win and struggle counts.
import type { Db } from "../db/client.ts";
import type { Prisma } from "../db/generated/client.ts";
import { withDb, type RetryOptions } from "../db/db-faults.ts";
import type { StudySessionWrites } from "./ports.ts";

/** How a session's win and struggle counts move when a mark goes from `before` to `after` (null: none). */
export function countDelta(before: string | null, after: string | null): { winCount: number; struggleCount: number } {
  const of = (status: string | null) => ({ winCount: status === "win" ? 1 : 0, struggleCount: status === "struggling" ? 1 : 0 });
  const [b, a] = [of(before), of(after)];
  return { winCount: a.winCount - b.winCount, struggleCount: a.struggleCount - b.struggleCount };
}

export class StudyWrites implements StudySessionWrites {
  constructor(
    private readonly db: Db,
    /** The session store's retry options: a timer write waits for a held lock as its other writes do. */
    private readonly retry: RetryOptions,
  ) {}

  async updateTimer(
    expected: { id: string; pausedAt: Date | null; nudgesShown: string },
    data: { pausedAt?: Date | null; pausedMs?: number; nudgesShown?: string },
  ): Promise<boolean> {
    const result = await withDb(
      "change the timer",
      () =>
        this.db.studySession.updateMany({
          where: { id: expected.id, endedAt: null, pausedAt: expected.pausedAt, nudgesShown: expected.nudgesShown },
          data,
        }),
      this.retry,
    );
    return result.count === 1;
  }

  async countMark(tx: Prisma.TransactionClient, id: string, before: string | null, after: string | null): Promise<void> {
    const delta = countDelta(before, after);
    if (delta.winCount === 0 && delta.struggleCount === 0) return;
    await tx.studySession.update({
      where: { id },
      data: { winCount: { increment: delta.winCount }, struggleCount: { increment: delta.struggleCount } },
    });
  }
}
