// Takes a session's record into the search index as the session runs: the new part of the recording
// is replayed into a TranscriptBuilder and each finished stretch of transcript is stored (and cached
// in transcript.jsonl); an ACP session's finished messages likewise. After a crash, a recording the
// index has not fully taken in is derived again from the start (reindex), so nothing the file holds
// is missing from search.
import fs from "node:fs";
import type { Db } from "../db/client.ts";
import { readAcpEvents } from "../sessions/acp-event-reads.ts";
import { parseCast, parseEventLine, type CastEvent } from "./asciicast.ts";
import { chatMessages, type ChatMessage } from "./chat-messages.ts";
import {
  appendTranscript,
  fileSize,
  readRange,
  readTranscriptCache,
  resolveRecording,
  rewriteTranscript,
  sessionDir,
} from "./record-files.ts";
import { recorderRunning } from "./recorder-lock.ts";
import { splitDoc, type NewDoc, type SearchIndex } from "./search-index.ts";
import type { TranscriptBuilder, TranscriptSegment } from "./transcript.ts";

/**
 * transcript.ts with its headless xterm (~10 MB of RSS on the server's thread), loaded with the first
 * recording to replay: a server with no terminal session never loads it.
 */
const newBuilder = async (cols: number, rows: number): Promise<TranscriptBuilder> =>
  new (await import("./transcript.ts")).TranscriptBuilder(cols, rows);

export const RecordIndexerLimits = {
  /**
   * Bytes of recording one live index turn takes in at most (turns come every 2 s). The transcript's
   * headless xterm costs about three times the mirror's parse, on the thread that serves the terminal:
   * a tutor's output (kilobytes a second) is indexed as it comes, a flood of megabytes a little at a
   * time and the rest at the end, so indexing never takes the flood's throughput (npm run bench).
   */
  TURN_MAX_BYTES: 256 * 1024,
  /**
   * Bytes read at once when a whole recording (or the rest of one) is taken in: at a session's end,
   * when a flood left the live index far behind, and when a crash left a recording unindexed. Read in
   * one piece, a recording costs about three times its size in memory (the bytes, the text, the
   * events) for as long as it is replayed: 200 MB, the default limit, would be ~600 MB.
   */
  PASS_MAX_BYTES: 1024 * 1024,
} as const;

/** What the indexer remembers about one live recording between turns. */
export interface LiveIndex {
  readonly sessionId: string;
  readonly file: string;
  readonly dir: string;
  /** Wall-clock ms of the recording's start: stored documents are dated from it. */
  readonly startMs: number;
  /** Bytes of the recording taken in (always up to a line end). */
  offset: number;
  builder: TranscriptBuilder | null;
}

/** What the indexer remembers about one live chat. */
export interface LiveChat {
  readonly sessionId: string;
  readonly startedAt: Date;
  /** Events up to this number are in the index. */
  doneSeq: number;
}

export class RecordIndexer {
  constructor(
    private readonly db: Db,
    private readonly dataDir: string,
    private readonly search: SearchIndex,
    private readonly log: (line: string) => void,
    /**
     * Aborted when the server stops: work stops at its next piece (or write) with an AbortError, and
     * what it had not finished is left unmarked, to be indexed again at the next start (catchUp).
     */
    private readonly signal?: AbortSignal,
  ) {}

  live(sessionId: string, file: string, startMs: number): LiveIndex {
    return { sessionId, file, dir: sessionDir(this.dataDir, sessionId), startMs, offset: 0, builder: null };
  }

  /**
   * Takes in the recording up to `upTo` bytes (what the writer has written), at most `maxBytes` of it
   * (whole lines; a line longer than that is taken whole), so a flood is indexed at a bounded pace.
   */
  async advance(state: LiveIndex, upTo: number, maxBytes = Number.POSITIVE_INFINITY): Promise<void> {
    const taken = takeLines(state.file, state.offset, upTo, maxBytes);
    if (!taken) return;
    const events: CastEvent[] = [];
    for (const line of taken.lines) {
      if (!state.builder) {
        const cast = parseCast(line);
        state.builder = await newBuilder(cast?.header.width ?? 80, cast?.header.height ?? 24);
        continue;
      }
      const event = parseEventLine(line);
      if (event) events.push(event);
    }
    await state.builder!.feed(events);
    state.offset = taken.next;
    await this.store(state, state.builder!.take());
    // Only while the session runs: an ended row is the learner's record and stays as it was ended.
    await this.db.studySession.updateMany({ where: { id: state.sessionId, endedAt: null }, data: { recordingBytes: upTo } });
  }

  /** The recording is closed: take in the rest and the last screen, and mark the cache complete. */
  async finish(state: LiveIndex, pieceBytes: number = RecordIndexerLimits.TURN_MAX_BYTES): Promise<void> {
    const size = fileSize(state.file);
    // A turn's piece at a time: after a flood the live index can be tens of MB behind, and the server
    // goes on serving the learner's pages (and a next session) meanwhile.
    for (let before = -1; state.offset < size && state.offset !== before;) {
      this.signal?.throwIfAborted();
      before = state.offset;
      await this.advance(state, size, pieceBytes);
    }
    const last = state.builder?.finish() ?? [];
    await this.store(state, last);
    appendTranscript(state.dir, [], state.offset);
  }

  /**
   * Derives a whole recording again and replaces its transcript in the index and the cache; null (and
   * nothing stored) while another process's recorder still writes it.
   */
  async reindex(sessionId: string): Promise<TranscriptSegment[] | null> {
    const row = await this.db.studySession.findUnique({ where: { id: sessionId }, select: { recordingPath: true, transport: true } });
    const file = resolveRecording(this.dataDir, row?.recordingPath);
    if (!file || row?.transport === "acp") return null;
    const dir = sessionDir(this.dataDir, sessionId);
    // A CLI session's recorder still at work indexes its recording itself when it ends: storing now would race it.
    if (recorderRunning(dir)) return null;
    const derived = await deriveTranscript(file, RecordIndexerLimits.PASS_MAX_BYTES, this.signal);
    if (!derived) return null;
    // The index first: the cache says the recording is taken in, so a crash between the two (the
    // index is written a few documents at a time) leaves it to be indexed again, never half done.
    await this.search.replace(sessionId, "transcript", toDocs(derived.segments, derived.startMs), this.signal);
    rewriteTranscript(dir, derived.segments, derived.bytes);
    return derived.segments;
  }

  /**
   * A session's transcript: the cache when it is complete for the recording as it is; otherwise derived
   * now (and, for an ended session no recorder still writes, stored: a crash left it unfinished).
   */
  async transcript(sessionId: string, ended: boolean): Promise<TranscriptSegment[] | null> {
    const row = await this.db.studySession.findUnique({ where: { id: sessionId }, select: { recordingPath: true, transport: true } });
    const file = resolveRecording(this.dataDir, row?.recordingPath);
    if (!file || row?.transport === "acp") return null;
    const cached = readTranscriptCache(sessionDir(this.dataDir, sessionId), fileSize(file));
    if (cached) return cached;
    if (ended && !recorderRunning(sessionDir(this.dataDir, sessionId))) return this.reindex(sessionId);
    return (await deriveTranscript(file))?.segments ?? null;
  }

  /**
   * Ended sessions whose recording (or chat) the index has not fully taken in: after a kill -9. A
   * recording is complete when its transcript cache says so for its size; a chat when it has messages
   * in the index.
   */
  async catchUp(): Promise<number> {
    const rows = await this.db.studySession.findMany({
      where: { endedAt: { not: null }, OR: [{ recordingPath: { not: null } }, { transport: "acp" }] },
      select: { id: true, transport: true, recordingPath: true, startedAt: true },
    });
    let done = 0;
    for (const row of rows) {
      if (this.signal?.aborted) break;
      try {
        if (row.transport === "acp") {
          const said = await this.db.acpEvent.count({
            where: { sessionId: row.id, kind: { in: ["user_message", "agent_message_chunk"] } },
          });
          if (said > 0 && (await this.db.searchDoc.count({ where: { sessionId: row.id, kind: "chat" } })) === 0) {
            await this.reindexChat(row.id, row.startedAt);
            done++;
          }
          continue;
        }
        const file = resolveRecording(this.dataDir, row.recordingPath);
        if (file && !readTranscriptCache(sessionDir(this.dataDir, row.id), fileSize(file))) {
          await this.reindex(row.id);
          done++;
        }
      } catch (error) {
        if (this.signal?.aborted) break;
        this.log(`Session ${row.id}: could not index its record: ${String(error)}`);
      }
    }
    return done;
  }

  liveChat(sessionId: string, startedAt: Date): LiveChat {
    return { sessionId, startedAt, doneSeq: 0 };
  }

  /** Indexes the chat's finished messages (all of them when the session has ended). */
  async advanceChat(state: LiveChat, ended: boolean): Promise<void> {
    const events = await readAcpEvents(this.db, state.sessionId, state.doneSeq);
    if (events.length === 0) return;
    const messages = chatMessages(events);
    const done = ended ? messages : messages.filter((m) => m.complete);
    await this.search.add(state.sessionId, chatDocs(done, state.startedAt), this.signal);
    const open = messages.find((m) => !m.complete);
    state.doneSeq = !ended && open ? open.seq - 1 : events[events.length - 1]!.seq;
  }

  private async reindexChat(sessionId: string, startedAt: Date): Promise<void> {
    const events = await readAcpEvents(this.db, sessionId);
    await this.search.replace(sessionId, "chat", chatDocs(chatMessages(events), startedAt), this.signal);
  }

  private async store(state: LiveIndex, segments: readonly TranscriptSegment[]): Promise<void> {
    if (segments.length === 0) return;
    appendTranscript(state.dir, segments);
    await this.search.add(state.sessionId, toDocs(segments, state.startMs), this.signal);
  }
}

/** A whole recording's transcript, read a piece at a time (PASS_MAX_BYTES). */
export async function deriveTranscript(
  file: string,
  pieceBytes: number = RecordIndexerLimits.PASS_MAX_BYTES,
  signal?: AbortSignal,
): Promise<{ segments: TranscriptSegment[]; bytes: number; startMs: number } | null> {
  let bytes: number;
  try {
    bytes = fs.statSync(file).size;
  } catch {
    return null;
  }
  // A crash can leave half a line at the end: only whole lines count (and the size says so).
  let taken = takeLines(file, 0, bytes, pieceBytes);
  const cast = taken ? parseCast(taken.lines[0]!) : null;
  if (!taken || !cast) return null;
  const builder = await newBuilder(cast.header.width, cast.header.height);
  const segments: TranscriptSegment[] = [];
  let lines = taken.lines.slice(1);
  for (;;) {
    signal?.throwIfAborted();
    const events: CastEvent[] = [];
    for (const line of lines) {
      const event = parseEventLine(line);
      if (event) events.push(event);
    }
    await builder.feed(events);
    segments.push(...builder.take());
    taken = takeLines(file, taken.next, bytes, pieceBytes);
    if (!taken) break;
    lines = taken.lines;
  }
  segments.push(...builder.finish());
  return { segments, bytes, startMs: cast.header.timestamp * 1000 };
}

/**
 * The whole lines of bytes [from, upTo) of a file, at most `maxBytes` of them (a line longer than that
 * is taken whole), and the offset after the last one; null when no whole line is there yet.
 */
function takeLines(file: string, from: number, upTo: number, maxBytes: number): { lines: string[]; next: number } | null {
  let bytes = readRange(file, from, Math.min(upTo, from + maxBytes));
  let end = bytes.lastIndexOf(0x0a);
  if (end < 0 && from + bytes.length < upTo) {
    bytes = readRange(file, from, upTo);
    end = bytes.indexOf(0x0a);
  }
  if (end < 0) return null;
  return { lines: bytes.subarray(0, end).toString("utf8").split("\n"), next: from + end + 1 };
}

function toDocs(segments: readonly TranscriptSegment[], startMs: number): NewDoc[] {
  return segments.flatMap((s) =>
    splitDoc(s.text).map((text) => ({ kind: "transcript" as const, atMs: s.atMs, text, createdAt: new Date(startMs + s.atMs) })),
  );
}

function chatDocs(messages: readonly ChatMessage[], startedAt: Date): NewDoc[] {
  return messages.flatMap((m) =>
    splitDoc(m.text).map((text) => ({
      kind: "chat" as const,
      atMs: Math.max(0, m.at.getTime() - startedAt.getTime()),
      sourceId: String(m.seq),
      text,
      createdAt: m.at,
    })),
  );
}
