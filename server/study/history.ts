// The history readers: the session list (filter and search), one session's detail and timeline,
// the dashboard's charts, and the suggestions a new session starts with. Route handlers and pages
// both call these, so the API and what the pages show cannot disagree.
import type { Db } from "../db/client.ts";
import { Prisma } from "../db/generated/client.ts";
import type { SessionReader } from "../sessions/ports.ts";
import type { SessionView } from "../sessions/session-view.ts";
import { dayKey, heatmap, streakOfRuns, tallyTopics, type Heatmap, type Streak, type TopicTally } from "../../common/study/stats.ts";
import { buildTimeline, type MarkView, type ParkedView, type TimelineEntry } from "../../common/study/study-view.ts";
import { SearchIndex, type MomentFilter, type SearchHit } from "../recording/search-index.ts";

export interface HistoryFilter {
  readonly topic?: string;
  readonly q?: string;
  readonly take?: number;
}

export interface SessionDetail {
  readonly session: SessionView;
  readonly marks: readonly MarkView[];
  readonly parked: readonly ParkedView[];
  readonly timeline: readonly TimelineEntry[];
  readonly transcript: string | null;
}

export interface DashboardStats {
  readonly today: string;
  readonly heatmap: Heatmap;
  readonly streak: Streak;
  readonly topics: readonly TopicTally[];
}

export interface NextSessionSuggestions {
  /** The last ended session whose summary the suggestions come from. */
  readonly from: { readonly id: string; readonly topic: string; readonly endedAt: string } | null;
  /** "Revisit closures", pending parked thoughts: the summary's "for next session". */
  readonly forNextSession: readonly string[];
  /** Parked items the learner chose to carry: they join the next session's parking lot. */
  readonly carried: readonly ParkedView[];
  /** Recent session topics, newest first, for the topic field's suggestions. */
  readonly recentTopics: readonly string[];
}

const RECENT_TOPICS = 8;

/** What the history reads of the study log (StudyLog, study-log.ts, which builds the history: no import back). */
export interface StudyLogReads {
  markViews(sessionId: string): Promise<MarkView[]>;
  parkedViews(sessionId: string, topic?: string | null): Promise<ParkedView[]>;
  waitingToCarry(): Promise<ParkedView[]>;
}

export class StudyHistory {
  private readonly search: SearchIndex;

  constructor(
    private readonly db: Db,
    private readonly sessions: SessionReader,
    private readonly study: StudyLogReads,
  ) {
    this.search = new SearchIndex(db);
  }

  /**
   * Sessions newest first; `topic` is the session's topic, `q` searches (literally) what the learner
   * sees of each: its topic, summary, marks, parked thoughts, transcript and chat.
   */
  async list(filter: HistoryFilter = {}): Promise<SessionView[]> {
    const q = filter.q?.trim();
    const ids = q ? await this.search.sessionIds(q, { limit: filter.take ?? 100, topic: filter.topic }) : undefined;
    return this.sessions.history({ topic: filter.topic, ids, take: filter.take });
  }

  /**
   * The best matching moments across every session, or those a filter leaves (a topic, the sessions
   * a page lists: server/recording/search-index.ts).
   */
  moments(query: string, options: MomentFilter & { limit?: number } = {}): Promise<SearchHit[]> {
    return this.search.search(query, options);
  }

  /**
   * Topics by their latest session, newest first. A skip scan of the (topic, started_at) index: one
   * step per distinct topic, however many sessions each has. Each topic's latest is read in that
   * index's order (PostgreSQL walked the started_at index instead, past every other topic's sessions).
   */
  async recentTopics(limit = RECENT_TOPICS): Promise<string[]> {
    const rows = await this.db.$queryRaw<{ topic: string }[]>(
      Prisma.sql`WITH RECURSIVE t(topic) AS (
         SELECT (SELECT min(topic) FROM study_sessions)
         UNION ALL
         SELECT (SELECT min(topic) FROM study_sessions WHERE topic > t.topic) FROM t WHERE t.topic IS NOT NULL
       )
       SELECT topic FROM t WHERE topic IS NOT NULL
       ORDER BY (SELECT started_at FROM study_sessions s WHERE s.topic = t.topic ORDER BY s.topic DESC, s.started_at DESC LIMIT 1) DESC LIMIT ${Math.max(0, Math.floor(limit))}`,
    );
    return rows.map((r) => r.topic);
  }

  async detail(id: string): Promise<SessionDetail | null> {
    const found = await this.sessions.session(id);
    if (!found) return null;
    const [marks, parked] = await Promise.all([this.study.markViews(id), this.study.parkedViews(id, found.view.topic)]);
    return { session: found.view, marks, parked, timeline: buildTimeline(found.view, marks, parked), transcript: found.transcript };
  }

  /**
   * The charts: focus minutes per day for 12 weeks, the streak, wins and struggles per topic. Read
   * from totals kept as sessions end and marks are written (server/sessions/history-aggregates.ts),
   * so the cost does not grow with the history; statsByScan is the same answer counted from every row.
   */
  async stats(now: Date = new Date()): Promise<DashboardStats> {
    await this.sessions.reconcileOpen();
    const { focusByDay: byDay, recentRuns, longestRun, topics } = await this.sessions.historyAggregates(now);
    return {
      today: dayKey(now),
      heatmap: heatmap(byDay, now),
      streak: streakOfRuns(recentRuns, now, longestRun),
      topics: tallyTopics(topics),
    };
  }

  async suggestions(): Promise<NextSessionSuggestions> {
    const [state, carried, recentTopics] = await Promise.all([this.sessions.state(), this.study.waitingToCarry(), this.recentTopics()]);
    const last = state.lastEnded;
    if (!last?.endedAt) return { from: null, forNextSession: [], carried, recentTopics };
    // The summary's struggles, and its parked thoughts as they stand now: one resolved since the
    // end is no longer suggested, one carried is listed with the carried items instead.
    const stillPending = (await this.study.parkedViews(last.id)).filter((p) => p.status === "pending").map((p) => p.text);
    const struggles = (last.summary?.struggles ?? []).map((topic) => `Revisit ${topic}`);
    return {
      from: { id: last.id, topic: last.topic, endedAt: last.endedAt },
      forNextSession: [...struggles, ...stillPending],
      carried,
      recentTopics,
    };
  }
}
