// The study_sessions row a state read needs (all columns but the transcript), and how a SQLite value
// becomes the value Prisma would have given: pure, so the reads in session-reads.ts stay thin
// prepared statements. Every read of GET /api/session/state runs two of these queries; through
// Prisma's query layer each cost ~0.15 ms of CPU, a prepared statement ~0.02 ms (docs/performance.md).
import type { StudySession } from "../db/generated/client.ts";

/**
 * A row without its transcript: what every state read needs. The transcript of a long session is
 * up to a megabyte and reading it dominated GET /api/session/state (docs/performance.md);
 * `SessionStore.byId` still returns it. Whether there is one shows in `transcriptAt`, written with
 * every transcript.
 */
export type SessionRow = Omit<StudySession, "transcript">;

type Kind = "text" | "int" | "time" | "bool";

/** Field -> [column, kind]. Typed so that a field added to (or removed from) the model fails the typecheck. */
const COLUMNS = {
  id: ["id", "text"],
  topic: ["topic", "text"],
  energy: ["energy", "int"],
  agent: ["agent", "text"],
  transport: ["transport", "text"],
  purpose: ["purpose", "text"],
  status: ["status", "text"],
  startedAt: ["started_at", "time"],
  endedAt: ["ended_at", "time"],
  endReason: ["end_reason", "text"],
  exitCode: ["exit_code", "int"],
  endDetail: ["end_detail", "text"],
  endOutput: ["end_output", "text"],
  continuedFromId: ["continued_from_id", "text"],
  ownerInstance: ["owner_instance", "text"],
  ownerHost: ["owner_host", "text"],
  ownerHostId: ["owner_host_id", "text"],
  ownerGeneration: ["owner_generation", "int"],
  ownerBootId: ["owner_boot_id", "text"],
  ownerPid: ["owner_pid", "int"],
  ownerPidStartTime: ["owner_pid_start_time", "text"],
  ownerUrl: ["owner_url", "text"],
  heartbeatAt: ["heartbeat_at", "time"],
  leaseMs: ["lease_ms", "int"],
  muxSession: ["mux_session", "text"],
  endRequestedAt: ["end_requested_at", "time"],
  endRequestedBy: ["end_requested_by", "text"],
  agentSessionId: ["agent_session_id", "text"],
  tokenHash: ["token_hash", "text"],
  liveSlot: ["live_slot", "int"],
  focusPlan: ["focus_plan", "text"],
  focusMinutes: ["focus_minutes", "int"],
  breakMinutes: ["break_minutes", "int"],
  pausedAt: ["paused_at", "time"],
  pausedMs: ["paused_ms", "int"],
  nudgesShown: ["nudges_shown", "text"],
  lastViewerAt: ["last_viewer_at", "time"],
  attachedOnce: ["attached_once", "bool"],
  winCount: ["win_count", "int"],
  struggleCount: ["struggle_count", "int"],
  summary: ["summary", "text"],
  transcriptAt: ["transcript_at", "time"],
  cols: ["cols", "int"],
  rows: ["rows", "int"],
  recordingPath: ["recording_path", "text"],
  recordingBytes: ["recording_bytes", "int"],
} as const satisfies { readonly [K in keyof SessionRow]-?: readonly [column: string, kind: Kind] };

const FIELDS = Object.entries(COLUMNS) as [keyof SessionRow, readonly [string, Kind]][];

/** The select list, in FIELDS order (read with better-sqlite3's raw mode: one array per row). */
export const SESSION_ROW_SELECT = FIELDS.map(([, [column]]) => `"${column}"`).join(", ");

/** Prisma's rule for a stored DateTime text (date only, no offset, "+hh", space for "T"), so both read the same instant. */
const TIME_OF_DAY = /\d{2}:\d{2}:\d{2}(?:\.\d+)?(Z|[+-]\d{2}(:?\d{2})?)?$/;

export function normalizeStoredTime(text: string): string {
  const match = TIME_OF_DAY.exec(text);
  if (match === null) return `${text}T00:00:00Z`;
  const [time, zone, minutes] = match;
  let out = text;
  if (zone !== undefined && zone !== "Z" && minutes === undefined) out = `${text}:00`;
  else if (zone === undefined) out = `${text}Z`;
  if (time.length === text.length) return `1970-01-01T${out}`;
  const separator = match.index - 1;
  return out[separator] === " " ? `${out.slice(0, separator)}T${out.slice(separator + 1)}` : out;
}

function convert(value: unknown, kind: Kind): unknown {
  if (value === null || value === undefined) return null;
  switch (kind) {
    case "time":
      // ISO-8601 text is what Prisma writes; a number is the unixepoch-ms format.
      return typeof value === "number" || typeof value === "bigint"
        ? new Date(Number(value))
        : new Date(normalizeStoredTime(String(value)));
    case "int":
      return typeof value === "number" && !Number.isInteger(value) ? Math.trunc(value) : typeof value === "bigint" ? Number(value) : value;
    case "bool":
      return value === 1 || value === 1n || value === true || value === "true" || value === "1";
    default:
      return value;
  }
}

/** One raw row (values in SESSION_ROW_SELECT order) as the row Prisma would return without the transcript. */
export function sessionRowFrom(values: readonly unknown[]): SessionRow {
  const row: Record<string, unknown> = {};
  for (let i = 0; i < FIELDS.length; i++) {
    const [field, [, kind]] = FIELDS[i]!;
    row[field] = convert(values[i], kind);
  }
  return row as SessionRow;
}

const ID_INDEX = FIELDS.findIndex(([field]) => field === "id");

/**
 * The rows of one statement's last read, by id: a row whose stored values are all unchanged comes back
 * as the same object, so a state read neither converts it again nor rebuilds its view (reconciler.ts)
 * while it stays as it is. Any change to any column (a heartbeat, a summary written later) is a new
 * row. Rows are shared between readers and never modified (docs/performance/state.md, "Round 8").
 */
export class RowMemo {
  private rows = new Map<unknown, { values: readonly unknown[]; row: SessionRow }>();

  /** The rows of one read, in its order; only these are kept for the next read. */
  rowsOf(read: readonly (readonly unknown[])[]): SessionRow[] {
    const kept = new Map<unknown, { values: readonly unknown[]; row: SessionRow }>();
    const rows = read.map((values) => {
      const id = values[ID_INDEX];
      const last = this.rows.get(id);
      const row = last && sameValues(last.values, values) ? last.row : sessionRowFrom(values);
      kept.set(id, { values, row });
      return row;
    });
    this.rows = kept;
    return rows;
  }
}

/** Raw SQLite values are text, numbers, bigints, null or buffers (no column here is a blob). */
function sameValues(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
