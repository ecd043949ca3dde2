// The learning record of one CLI session, kept by a process of its own: tmux pipes the session's pane
// output into it (cli/record-pane.ts), and it does for that session what LearningRecord does for the
// web server's: the same CastWriter (batched writes, bounded size), resizes from the pane's size,
// markers for study events (read from the rows, whoever wrote them: `studyloop park` in the pane, the
// web page), and the search index fed as the session runs. While it runs, its lock in the session
// folder tells every other reader to leave the index to it.
import fs from "node:fs";
import type { Db } from "../db/client.ts";
import { CastWriter } from "./cast-writer.ts";
import { CAST_FILE, recordingPathFor, sessionDir } from "./record-files.ts";
import { RecordIndexer, RecordIndexerLimits, type LiveIndex } from "./record-indexer.ts";
import { holdRecorderLock, releaseRecorderLock } from "./recorder-lock.ts";
import { SearchIndex } from "./search-index.ts";
import { readStudyFacts } from "./study-facts.ts";
import { endedLabel, markerLabels, NO_FACTS, type StudyFacts } from "./study-markers.ts";

export const PaneRecorderLimits = {
  /** Milliseconds between index turns: how soon a printed word can be found (as LearningRecord). */
  INDEX_MS: 2_000,
  /** Milliseconds between readings of the study rows: how late a marker can be placed. */
  MARKERS_MS: 1_000,
  /** Milliseconds between asks for the pane's size: how late a resize can be placed. */
  SIZE_MS: 500,
} as const;

export interface PaneSize {
  readonly cols: number;
  readonly rows: number;
}

export interface PaneRecorderOptions {
  readonly db: Db;
  readonly dataDir: string;
  readonly sessionId: string;
  /** The session's start: time 0 of the recording, so markers match the session's timeline. */
  readonly startedAt: Date;
  readonly size: PaneSize;
  /** Bytes the recording may reach. */
  readonly maxBytes: number;
  /** The pane's size now; null when it cannot be told (then nothing changes). */
  readonly probeSize: () => Promise<PaneSize | null>;
  readonly log: (line: string) => void;
}

export class PaneRecorder {
  private readonly timers: NodeJS.Timeout[] = [];
  private turn: Promise<void> = Promise.resolve();
  private facts: StudyFacts = NO_FACTS;
  private size: PaneSize;
  private probing = false;
  private closing: Promise<void> | undefined;

  private constructor(
    private readonly options: PaneRecorderOptions,
    private readonly writer: CastWriter,
    private readonly indexer: RecordIndexer,
    private readonly index: LiveIndex,
    private readonly dir: string,
  ) {
    this.size = options.size;
  }

  /** Opens the recording, claims the session's record and starts the turns; throws if the file cannot be written. */
  static async open(options: PaneRecorderOptions): Promise<PaneRecorder> {
    const { db, dataDir, sessionId } = options;
    const dir = sessionDir(dataDir, sessionId);
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    holdRecorderLock(dir);
    let writer: CastWriter;
    try {
      writer = CastWriter.open(`${dir}/${CAST_FILE}`, {
        cols: options.size.cols,
        rows: options.size.rows,
        maxBytes: options.maxBytes,
        startedAtMs: options.startedAt.getTime(),
        log: options.log,
      });
    } catch (error) {
      releaseRecorderLock(dir);
      throw error;
    }
    const indexer = new RecordIndexer(db, dataDir, new SearchIndex(db), options.log);
    const recorder = new PaneRecorder(options, writer, indexer, indexer.live(sessionId, writer.file, options.startedAt.getTime()), dir);
    await db.studySession.updateMany({ where: { id: sessionId, endedAt: null }, data: { recordingPath: recordingPathFor(sessionId) } });
    // What was there before the recording began (carried thoughts) is not news.
    recorder.facts = await readStudyFacts(db, sessionId);
    recorder.every(PaneRecorderLimits.INDEX_MS, () => recorder.enqueue(() => recorder.advance()));
    recorder.every(PaneRecorderLimits.MARKERS_MS, () => recorder.enqueue(() => recorder.addMarkers()));
    recorder.every(PaneRecorderLimits.SIZE_MS, () => void recorder.probeSize());
    return recorder;
  }

  /** The pane's output as it comes: a push, nothing else. */
  output(data: string): void {
    if (!this.closing) this.writer.output(data);
  }

  /**
   * The pane closed: the last markers, the end marker (with the reason the row gives, if known), the
   * rest of the recording into the index; then the lock is released.
   */
  close(endReason: string | null): Promise<void> {
    this.closing ??= (async () => {
      for (const timer of this.timers) clearInterval(timer);
      await this.enqueue(async () => {
        await this.addMarkers();
        await this.writer.close(endedLabel(endReason));
        await this.indexer.finish(this.index);
      });
      releaseRecorderLock(this.dir);
    })();
    return this.closing;
  }

  private async probeSize(): Promise<void> {
    if (this.probing || this.closing) return;
    this.probing = true;
    try {
      const size = await this.options.probeSize();
      if (size && !this.closing && (size.cols !== this.size.cols || size.rows !== this.size.rows)) {
        this.size = size;
        this.writer.resize(size.cols, size.rows);
      }
    } finally {
      this.probing = false;
    }
  }

  private async advance(): Promise<void> {
    await this.writer.flush();
    await this.indexer.advance(this.index, this.writer.bytes, RecordIndexerLimits.TURN_MAX_BYTES);
  }

  private async addMarkers(): Promise<void> {
    const facts = await readStudyFacts(this.options.db, this.options.sessionId);
    for (const label of markerLabels(this.facts, facts)) this.writer.marker(label);
    this.facts = facts;
  }

  private every(ms: number, work: () => unknown): void {
    const timer = setInterval(work, ms);
    this.timers.push(timer);
  }

  /** One turn at a time: indexing, markers and the end never overlap. */
  private enqueue(work: () => Promise<void>): Promise<void> {
    this.turn = this.turn
      .then(work)
      .catch((error: unknown) => this.options.log(`Session ${this.options.sessionId}: pane recorder: ${String(error)}`));
    return this.turn;
  }
}
