// The study_sessions reads every state read and the history list make, never the transcript: on
// SQLite prepared statements on the read-only connection (each Prisma query cost ~0.15 ms of CPU
// against ~0.02 ms prepared, docs/performance.md); on PostgreSQL Prisma's query API, which is a
// network round trip either way. session-store.ts delegates its reads here and keeps the writes.
import type { Statement } from "better-sqlite3";
import type { Db, ReadConnection } from "../db/client.ts";
import { RowMemo, SESSION_ROW_SELECT, sessionRowFrom, type SessionRow } from "./session-rows.ts";

export interface HistoryFilter {
  readonly topic?: string;
  /** Only these sessions (a search's matches); an empty list matches none. */
  readonly ids?: readonly string[];
  readonly take: number;
}

export interface SessionReads {
  /** Rows not yet ended, newest first. */
  open(): Promise<SessionRow[]>;
  /** The session that ended last. */
  lastEnded(): Promise<SessionRow | null>;
  /** A page of the history, newest first, off the started_at indexes. */
  history(filter: HistoryFilter): Promise<SessionRow[]>;
}

/** SQLite: the read connection when there is one (the server, the CLI), else PostgreSQL's Prisma reads. */
export function sessionReads(db: Db, reads: ReadConnection | null): SessionReads {
  return reads ? new SqliteSessionReads(reads) : new PrismaSessionReads(db);
}

export class SqliteSessionReads implements SessionReads {
  private readonly openRows: Statement<[], unknown[]>;
  private readonly lastEndedRow: Statement<[], unknown[]>;
  private readonly historyRows: Statement<[number], unknown[]>;
  private readonly historyRowsOfTopic: Statement<[string, number], unknown[]>;
  private readonly historyRowsOfIds: Statement<[string, number], unknown[]>;
  private readonly historyRowsOfIdsAndTopic: Statement<[string, string, number], unknown[]>;
  /** Every state read makes the first two reads: unchanged rows are not converted again. */
  private readonly openMemo = new RowMemo();
  private readonly lastEndedMemo = new RowMemo();

  constructor(reads: ReadConnection) {
    this.openRows = reads
      .prepare<[], unknown[]>(`SELECT ${SESSION_ROW_SELECT} FROM study_sessions WHERE ended_at IS NULL ORDER BY started_at DESC`)
      .raw();
    this.lastEndedRow = reads
      .prepare<[], unknown[]>(`SELECT ${SESSION_ROW_SELECT} FROM study_sessions WHERE ended_at IS NOT NULL ORDER BY ended_at DESC LIMIT 1`)
      .raw();
    const listed = (where: string) => `SELECT ${SESSION_ROW_SELECT} FROM study_sessions ${where} ORDER BY started_at DESC LIMIT ?`;
    const ofIds = "id IN (SELECT value FROM json_each(?))";
    this.historyRows = reads.prepare<[number], unknown[]>(listed("")).raw();
    this.historyRowsOfTopic = reads.prepare<[string, number], unknown[]>(listed("WHERE topic = ?")).raw();
    this.historyRowsOfIds = reads.prepare<[string, number], unknown[]>(listed(`WHERE ${ofIds}`)).raw();
    this.historyRowsOfIdsAndTopic = reads.prepare<[string, string, number], unknown[]>(listed(`WHERE ${ofIds} AND topic = ?`)).raw();
  }

  async open(): Promise<SessionRow[]> {
    return this.openMemo.rowsOf(this.openRows.all() as unknown[][]);
  }

  async lastEnded(): Promise<SessionRow | null> {
    const values = this.lastEndedRow.get() as unknown[] | undefined;
    return values ? this.lastEndedMemo.rowsOf([values])[0]! : null;
  }

  async history({ topic, ids, take }: HistoryFilter): Promise<SessionRow[]> {
    if (ids && ids.length === 0) return [];
    const idList = ids ? JSON.stringify(ids) : null;
    const values =
      idList !== null
        ? topic
          ? this.historyRowsOfIdsAndTopic.all(idList, topic, take)
          : this.historyRowsOfIds.all(idList, take)
        : topic
          ? this.historyRowsOfTopic.all(topic, take)
          : this.historyRows.all(take);
    return values.map(sessionRowFrom);
  }
}

const WITHOUT_TRANSCRIPT = { transcript: true } as const;

export class PrismaSessionReads implements SessionReads {
  constructor(private readonly db: Db) {}

  open(): Promise<SessionRow[]> {
    return this.db.studySession.findMany({ where: { endedAt: null }, orderBy: { startedAt: "desc" }, omit: WITHOUT_TRANSCRIPT });
  }

  lastEnded(): Promise<SessionRow | null> {
    return this.db.studySession.findFirst({ where: { endedAt: { not: null } }, orderBy: { endedAt: "desc" }, omit: WITHOUT_TRANSCRIPT });
  }

  async history({ topic, ids, take }: HistoryFilter): Promise<SessionRow[]> {
    if (ids && ids.length === 0) return [];
    return this.db.studySession.findMany({
      where: { ...(topic ? { topic } : {}), ...(ids ? { id: { in: [...ids] } } : {}) },
      orderBy: { startedAt: "desc" },
      take,
      omit: WITHOUT_TRANSCRIPT,
    });
  }
}
