// The learning record of the sessions this server runs: each terminal session recorded as it runs
// (CastWriter), study events as markers on it (and on a markers-only recording for chat sessions),
// and everything indexed for search as it happens (RecordIndexer). Listens to the session service's
// events; knows nothing of HTTP. runtime.record.
import fs from "node:fs";
import type { Db } from "../db/client.ts";
import type { SessionService } from "../sessions/session-service.ts";
import type { TerminalSession } from "../transports/pty/terminal-session.ts";
import type { Disposable } from "../transports/pty/pty-process.ts";
import { readCastOverview } from "./cast-overview.ts";
import { CastWriter } from "./cast-writer.ts";
import { recordingPathFor, resolveRecording } from "./record-files.ts";
import { RecordIndexer, RecordIndexerLimits, type LiveChat, type LiveIndex } from "./record-indexer.ts";
import { SearchIndex } from "./search-index.ts";
import { endedLabel, markerLabels, NO_FACTS, type StudyFacts } from "./study-markers.ts";
import { readStudyFacts } from "./study-facts.ts";
import type { TranscriptSegment } from "./transcript.ts";

export const LearningRecordLimits = {
  /** Milliseconds between index turns of a live session: how soon a printed word can be found. */
  INDEX_MS: 2_000,
  /**
   * Turns in a row a flood may put its session's index off (see indexTurnDue): how stale the index of
   * a session that never stops printing can get, INDEX_MS each.
   */
  MAX_DEFERRED_TURNS: 15,
} as const;

/**
 * Pure: whether a live session's index turn runs now. Not while its recording grew by more than a
 * turn takes in since the last turn (RecordIndexerLimits.TURN_MAX_BYTES): that is a flood, and the
 * turn's transcript parse and search inserts would run on the thread that serves the flood to the
 * page, for an index that could not keep up anyway. The turns resume when it calms down (a tutor's
 * kilobytes a second are indexed as they come), or after MAX_DEFERRED_TURNS in a row; what was
 * put off is taken in then, or at the end, in the same order: the transcript is the same.
 */
export function indexTurnDue(grewBytes: number, deferredTurns: number): boolean {
  return grewBytes <= RecordIndexerLimits.TURN_MAX_BYTES || deferredTurns >= LearningRecordLimits.MAX_DEFERRED_TURNS;
}

export interface LearningRecordOptions {
  readonly db: Db;
  readonly dataDir: string;
  readonly sessions: SessionService;
  /** Bytes one recording may reach; 0 records nothing. */
  readonly maxBytes: number;
  readonly log: (line: string) => void;
}

interface Recording {
  readonly sessionId: string;
  readonly writer: CastWriter;
  readonly tap: Disposable | null;
  readonly index: LiveIndex | null;
  readonly chat: LiveChat | null;
  facts: StudyFacts;
  /** The recording's size at the last index turn, and the turns put off since (indexTurnDue). */
  turnBytes: number;
  deferredTurns: number;
  /** One turn at a time per session: indexing, markers and the end never overlap. */
  turn: Promise<void>;
}

export interface RecordOverview {
  /** Seconds the recording runs. */
  readonly duration: number;
  readonly markers: readonly { readonly time: number; readonly label: string }[];
  readonly bytes: number;
  /** A terminal recording the player can play (chat sessions have markers only). */
  readonly playable: boolean;
}

export class LearningRecord {
  readonly search: SearchIndex;
  private readonly indexer: RecordIndexer;
  private readonly recordings = new Map<string, Recording>();
  private timer: NodeJS.Timeout | undefined;
  private markersDue = false;
  private stopped = false;
  /** Aborted by stop(): indexing stops at its next piece, the rest is caught up at the next start. */
  private readonly halt = new AbortController();
  /** Indexing that runs on its own (an ended session's catch-up, a crash's reindex, the start's catchUp). */
  private readonly background = new Set<Promise<unknown>>();

  constructor(private readonly options: LearningRecordOptions) {
    this.search = new SearchIndex(options.db);
    this.indexer = new RecordIndexer(options.db, options.dataDir, this.search, options.log, this.halt.signal);
    options.sessions.on("launched", (id, dir, terminal, startedAt) => this.begin(id, dir, terminal, startedAt));
    options.sessions.on("changed", () => this.scheduleMarkers());
    options.sessions.on("ended", (id, view) => void this.end(id, view.endReason));
  }

  /** Catches up on records a crash left unindexed, then indexes live sessions every INDEX_MS. */
  start(): void {
    void this.track(
      this.indexer.catchUp().catch((error: unknown) => this.logUnlessStopped(`Could not catch up on the search index: ${String(error)}`)),
    );
    this.timer ??= setInterval(() => this.indexTurn(), LearningRecordLimits.INDEX_MS);
    this.timer.unref();
  }

  /**
   * Closes every recording (after the sessions have ended): nothing queued is lost on a clean stop.
   * Indexing still under way stops at its next piece and is finished at the next start (catchUp):
   * after a flood it can take minutes, which a stop must not wait for.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.halt.abort();
    await Promise.all([...this.recordings.keys()].map((id) => this.end(id, "server-shutdown")));
    await Promise.all(this.background);
  }

  /** The transcript of a session (null for chat sessions and sessions without a recording). */
  transcript(sessionId: string, ended: boolean): Promise<TranscriptSegment[] | null> {
    return this.indexer.transcript(sessionId, ended);
  }

  /** The recording file of a session, if there is one. */
  async castFile(sessionId: string): Promise<string | null> {
    const row = await this.options.db.studySession.findUnique({ where: { id: sessionId }, select: { recordingPath: true } });
    const file = resolveRecording(this.options.dataDir, row?.recordingPath);
    return file && fs.existsSync(file) ? file : null;
  }

  /** Duration and markers (the chapters), read from the recording. */
  async overview(sessionId: string, transport: string): Promise<RecordOverview | null> {
    const file = await this.castFile(sessionId);
    if (!file) return null;
    const overview = await readCastOverview(file);
    return overview ? { ...overview, playable: transport !== "acp" } : null;
  }

  /** Re-derives a session's transcript into the index (after a crash ended it elsewhere). */
  reindex(sessionId: string): Promise<TranscriptSegment[] | null> {
    return this.indexer.reindex(sessionId);
  }

  private begin(sessionId: string, dir: string, terminal: TerminalSession | null, startedAt: Date): void {
    if (this.options.maxBytes <= 0 || this.stopped) return;
    let writer: CastWriter;
    try {
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      writer = CastWriter.open(`${dir}/session.cast`, {
        cols: terminal?.cols ?? 80,
        rows: terminal?.rows ?? 24,
        maxBytes: this.options.maxBytes,
        startedAtMs: startedAt.getTime(),
        log: this.options.log,
      });
    } catch (error) {
      this.options.log(`Session ${sessionId}: could not start its recording: ${String(error)}`);
      return;
    }
    const tap = terminal ? terminal.onOutput((f) => (f.type === "output" ? writer.output(f.data) : writer.resize(f.cols, f.rows))) : null;
    const startMs = startedAt.getTime();
    const recording: Recording = {
      sessionId,
      writer,
      tap,
      index: terminal ? this.indexer.live(sessionId, writer.file, startMs) : null,
      chat: terminal ? null : this.indexer.liveChat(sessionId, new Date(startMs)),
      facts: NO_FACTS,
      turnBytes: 0,
      deferredTurns: 0,
      turn: Promise.resolve(),
    };
    this.recordings.set(sessionId, recording);
    void this.enqueue(recording, async () => {
      await this.options.db.studySession.updateMany({
        where: { id: sessionId, endedAt: null },
        data: { recordingPath: recordingPathFor(sessionId) },
      });
      // What was there before the recording began (carried thoughts) is not news.
      recording.facts = await this.facts(sessionId);
    });
  }

  private async end(sessionId: string, endReason: string | null): Promise<void> {
    const recording = this.recordings.get(sessionId);
    if (!recording) {
      // Ended by a read after its server died (a crash): its recording is indexed from the file.
      if (!this.stopped)
        void this.track(
          this.indexer
            .reindex(sessionId)
            .catch((error: unknown) => this.logUnlessStopped(`Session ${sessionId}: could not index its recording: ${String(error)}`)),
        );
      return;
    }
    this.recordings.delete(sessionId);
    recording.tap?.dispose();
    await this.track(
      this.enqueue(recording, async () => {
        await this.addMarkers(recording);
        await recording.writer.close(endedLabel(endReason));
        if (recording.index) await this.indexer.finish(recording.index);
        if (recording.chat) await this.indexer.advanceChat(recording.chat, true);
      }),
    );
  }

  private indexTurn(): void {
    for (const recording of this.recordings.values()) {
      if (recording.index) {
        const bytes = recording.writer.bytes;
        const due = indexTurnDue(bytes - recording.turnBytes, recording.deferredTurns);
        recording.turnBytes = bytes;
        recording.deferredTurns = due ? 0 : recording.deferredTurns + 1;
        if (!due) continue;
      }
      void this.enqueue(recording, async () => {
        if (recording.index) {
          await recording.writer.flush();
          await this.indexer.advance(recording.index, recording.writer.bytes, RecordIndexerLimits.TURN_MAX_BYTES);
        }
        if (recording.chat) await this.indexer.advanceChat(recording.chat, false);
      });
    }
  }

  /** `changed` fires on every write: look for new study events once per turn of the event loop. */
  private scheduleMarkers(): void {
    if (this.markersDue || this.recordings.size === 0) return;
    this.markersDue = true;
    setImmediate(() => {
      this.markersDue = false;
      for (const recording of this.recordings.values()) void this.enqueue(recording, () => this.addMarkers(recording));
    });
  }

  private async addMarkers(recording: Recording): Promise<void> {
    const facts = await this.facts(recording.sessionId);
    for (const label of markerLabels(recording.facts, facts)) recording.writer.marker(label);
    recording.facts = facts;
  }

  private facts(sessionId: string): Promise<StudyFacts> {
    return readStudyFacts(this.options.db, sessionId);
  }

  private enqueue(recording: Recording, work: () => Promise<void>): Promise<void> {
    recording.turn = recording.turn
      .then(work)
      .catch((error: unknown) => this.logUnlessStopped(`Session ${recording.sessionId}: learning record: ${String(error)}`));
    return recording.turn;
  }

  /** Work that runs on its own, which stop() waits for (it stops at its next piece). */
  private track<T>(work: Promise<T>): Promise<T> {
    this.background.add(work);
    const done = () => void this.background.delete(work);
    void work.then(done, done);
    return work;
  }

  /** A stop's AbortError is not a failure: what was cut short is indexed again at the next start. */
  private logUnlessStopped(line: string): void {
    if (!this.halt.signal.aborted) this.options.log(line);
  }
}
