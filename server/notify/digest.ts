// "While you were away": the short digest a learner sees first when they come back to a page after
// more than a few minutes. Pure: built from what happened since the device was last seen (the
// terminal's lines, the chat's events, marks, parked thoughts, open permission questions).
import type { AcpEventRecord } from "../transports/acp/acp-events.ts";

export type DigestItemKind = "output" | "said" | "permission" | "mark" | "parked" | "notice";

export interface DigestItem {
  readonly kind: DigestItemKind;
  readonly at: string;
  readonly text: string;
}

export interface Digest {
  readonly since: string;
  readonly awayMs: number;
  readonly sessionId: string | null;
  readonly topic: string | null;
  /** Open permission questions (asked while away and not answered yet): shown first. */
  readonly pending: readonly DigestItem[];
  /** Everything else, oldest first. */
  readonly items: readonly DigestItem[];
}

export interface DigestInput {
  readonly since: Date;
  readonly now: Date;
  readonly sessionId: string | null;
  readonly topic: string | null;
  /** Terminal lines printed meanwhile, with when (terminal-watch.ts keeps them). */
  readonly outputLines: readonly { at: number; text: string }[];
  /** The chat's events (ACP sessions), any range: the builder keeps those after `since`. */
  readonly chat: readonly AcpEventRecord[];
  readonly marks: readonly { topic: string; status: string; note: string | null; createdAt: Date }[];
  readonly parked: readonly { text: string; source: string; createdAt: Date }[];
  readonly notices: readonly { title: string; createdAt: Date }[];
}

export const DIGEST_LIMITS = {
  /** Terminal lines shown, the last ones. */
  OUTPUT_LINES: 8,
  /** Characters of one line or one chat message. */
  TEXT_CHARS: 240,
  /** Items of each other kind shown, the last ones. */
  PER_KIND: 10,
} as const;

export function buildDigest(input: DigestInput): Digest {
  const since = input.since.getTime();
  const after = (at: number) => at > since;
  const items: DigestItem[] = [];

  const lines = dedupeAdjacent(
    input.outputLines
      .filter((l) => after(l.at))
      .map((l) => ({ at: l.at, text: l.text.trim() }))
      .filter((l) => l.text.length > 0),
  );
  for (const line of lines.slice(-DIGEST_LIMITS.OUTPUT_LINES)) items.push({ kind: "output", at: iso(line.at), text: clip(line.text) });

  const { said, pending } = readChat(
    input.chat.filter((e) => after(Date.parse(e.at))),
    input.chat,
  );
  items.push(...said.slice(-DIGEST_LIMITS.PER_KIND));

  for (const m of input.marks.filter((m) => after(m.createdAt.getTime())).slice(-DIGEST_LIMITS.PER_KIND)) {
    items.push({ kind: "mark", at: m.createdAt.toISOString(), text: clip(`${m.status}: ${m.topic}${m.note ? ` (${m.note})` : ""}`) });
  }
  for (const p of input.parked.filter((p) => after(p.createdAt.getTime())).slice(-DIGEST_LIMITS.PER_KIND)) {
    items.push({
      kind: "parked",
      at: p.createdAt.toISOString(),
      text: clip(`${p.source === "agent" ? "The tutor parked" : "Parked"}: ${p.text}`),
    });
  }
  for (const n of input.notices.filter((n) => after(n.createdAt.getTime())).slice(-DIGEST_LIMITS.PER_KIND)) {
    items.push({ kind: "notice", at: n.createdAt.toISOString(), text: n.title });
  }
  items.sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
  return {
    since: input.since.toISOString(),
    awayMs: Math.max(0, input.now.getTime() - since),
    sessionId: input.sessionId,
    topic: input.topic,
    pending,
    items,
  };
}

export function isEmptyDigest(digest: Digest): boolean {
  return digest.pending.length === 0 && digest.items.length === 0;
}

/** What the tutor said (one item per turn) after `since`, and the permission questions still open. */
function readChat(recent: readonly AcpEventRecord[], all: readonly AcpEventRecord[]): { said: DigestItem[]; pending: DigestItem[] } {
  const said: DigestItem[] = [];
  let text = "";
  let at = "";
  const flush = () => {
    const clean = text.replace(/\s+/g, " ").trim();
    if (clean) said.push({ kind: "said", at, text: clip(clean) });
    text = "";
  };
  for (const e of recent) {
    if (e.kind === "agent_message_chunk") {
      if (!text) at = e.at;
      text += String(e.payload.text ?? "");
    } else if (e.kind === "turn_end" || e.kind === "user_message") {
      flush();
    }
  }
  flush();
  // A question is open if it was asked (any time) and has no outcome; only those asked meanwhile are news,
  // but an open one is shown whenever it was asked: it is still waiting.
  const answered = new Set(all.filter((e) => e.kind === "permission_outcome").map((e) => String(e.payload.requestId)));
  const pending = all
    .filter((e) => e.kind === "permission_request" && !answered.has(String(e.payload.requestId)))
    .map<DigestItem>((e) => ({ kind: "permission", at: e.at, text: clip(`The tutor asks: ${toolTitle(e.payload)}`) }));
  return { said, pending };
}

function toolTitle(payload: Record<string, unknown>): string {
  const call = payload.toolCall as { title?: unknown } | undefined;
  return typeof call?.title === "string" && call.title ? call.title : "permission to use a tool";
}

function dedupeAdjacent<T extends { text: string }>(lines: readonly T[]): T[] {
  // TUIs redraw the same line many times: keep each distinct line once, at its last time.
  const seen = new Map<string, T>();
  for (const line of lines) {
    seen.delete(line.text);
    seen.set(line.text, line);
  }
  return [...seen.values()];
}

function clip(text: string): string {
  return text.length > DIGEST_LIMITS.TEXT_CHARS ? `${text.slice(0, DIGEST_LIMITS.TEXT_CHARS - 1)}…` : text;
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}
