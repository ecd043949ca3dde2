// Where notifications come from: each source is one small call to `notifier.emit`. Connected here,
// outside the modules that own the events, so those keep one-line hooks (see docs/notifications.md):
//   - terminal sessions: bells and "waiting for input" (the SessionService's `launched` event and
//     TerminalSession.onOutput);
//   - chat sessions: permission requests (urgent; withdrawn when answered) and long turns finished;
//   - sessions that ended without the learner (`ended` with another reason than ended-by-learner);
//   - the focus timer: break due and break over, read from the rows of this server's live sessions;
//   - review cards: the review loop calls `notifier.reviewDue(count)`.
// It also gathers the "While you were away" digest (digest.ts) from the same places.
import type { Db } from "../db/client.ts";
import type { SessionService } from "../sessions/session-service.ts";
import type { SessionEvents } from "../sessions/session-events.ts";
import type { LiveTransport } from "../transports/live-transport.ts";
import type { SessionView } from "../sessions/session-view.ts";
import type { AcpEventRecord } from "../transports/acp/acp-events.ts";
import { readTimer, timerStateOf } from "../../common/study/timer.ts";
import type { Notifier } from "./notifier.ts";
import { buildDigest, isEmptyDigest, type Digest } from "./digest.ts";
import { readNotifyConfig } from "./notify-config.ts";
import { TerminalWatch } from "./terminal-watch.ts";

/** The viewer id the notifier watches chats under. */
const NOTIFY_VIEWER = "studyloop-notifier";

/** How often the timer's rows are read for break due / over (ms): a nudge is sent within a second. */
const TIMER_CHECK_MS = 1_000;

export interface SourceDeps {
  readonly db: Db;
  readonly sessions: SessionService;
  /** The session and study event bus: `launched` and `ended`. */
  readonly events: SessionEvents;
  readonly notifier: Notifier;
  readonly dataDir: string;
  /** One minute of a focus plan, in ms (shortened by tests). */
  readonly minuteMs: number;
  readonly log: (line: string) => void;
}

export interface Sources {
  close(): void;
}

export function connectSources(deps: SourceDeps): Sources {
  const { sessions, notifier, log } = deps;
  const terminals = new Map<string, TerminalWatch>();
  /** Per chat session, when the learner's current turn began (a long turn that ends is "finished"). */
  const turns = new Map<string, { startedAt: number; longRunMs: number }>();
  /** Keys already sent by this process: spares the database a refused insert every second. */
  const sent = new Set<string>();
  const send = (event: Parameters<Notifier["emit"]>[0]) => {
    if (event.key && sent.has(event.key)) return;
    if (event.key) sent.add(event.key);
    notifier.emit(event).catch((error: unknown) => log(`Could not send a ${event.kind} notification: ${String(error)}`));
  };

  const onLaunched = (sessionId: string, agent: string, transport: LiveTransport) => {
    const config = readNotifyConfig(deps.dataDir);
    if (config.problem) log(config.problem);
    const rule = config.ruleFor(agent);
    if (transport.view === "chat") {
      turns.set(sessionId, { startedAt: 0, longRunMs: rule.longRunSeconds * 1000 });
      // Watches the chat as a viewer of the transport (not of the session: grace is unaffected).
      void transport
        .attachChat(NOTIFY_VIEWER, (event) => onAcp(sessionId, event), 0)
        .catch((error: unknown) => log(`Could not watch the chat for notifications: ${String(error)}`));
      return;
    }
    let n = 0;
    const watch = new TerminalWatch(rule, (verdict) => {
      n++;
      if (verdict.kind === "waiting") send({ kind: "waiting-input", sessionId, key: `waiting:${sessionId}:${n}`, text: verdict.line });
      else send({ kind: "run-finished", sessionId, key: `finished:${sessionId}:${n}` });
    });
    terminals.set(sessionId, watch);
    transport.terminal()?.onOutput((data) => watch.feed(data));
  };

  const onAcp = (sessionId: string, event: AcpEventRecord) => {
    const p = event.payload;
    if (event.kind === "permission_request") {
      const title = (p.toolCall as { title?: unknown } | undefined)?.title;
      send({
        kind: "permission",
        sessionId,
        key: permissionKey(sessionId, p.requestId),
        text: typeof title === "string" ? `It asks: ${title}` : undefined,
      });
    } else if (event.kind === "permission_outcome") {
      void notifier
        .resolve(permissionKey(sessionId, p.requestId))
        .catch((error: unknown) => log(`Could not withdraw a notification: ${String(error)}`));
    } else if (event.kind === "user_message") {
      const turn = turns.get(sessionId);
      if (turn) turn.startedAt = Date.parse(event.at);
    } else if (event.kind === "turn_end") {
      const turn = turns.get(sessionId);
      if (turn && turn.startedAt > 0 && turn.longRunMs > 0 && Date.parse(event.at) - turn.startedAt >= turn.longRunMs) {
        send({ kind: "run-finished", sessionId, key: `finished:${sessionId}:${event.seq}` });
      }
    }
  };

  const onEnded = (sessionId: string, view: SessionView) => {
    terminals.get(sessionId)?.dispose();
    terminals.delete(sessionId);
    turns.delete(sessionId);
    // The learner ended it, or stopped the server themselves: nothing to tell them.
    if (view.endReason && view.endReason !== "ended-by-learner" && view.endReason !== "server-shutdown") {
      send({ kind: "session-ended", sessionId, key: `ended:${sessionId}`, text: view.explanation ?? undefined });
    }
  };

  const { events } = deps;
  events.on("agent-launched", onLaunched);
  events.on("ended", onEnded);

  let checking = false;
  const checkTimers = async () => {
    if (checking) return;
    checking = true;
    try {
      const rows = await deps.db.studySession.findMany({ where: { endedAt: null, status: "live", ownerInstance: sessions.instanceId } });
      const now = Date.now();
      for (const row of rows) {
        const t = timerStateOf(row, deps.minuteMs);
        const reading = readTimer(t, now);
        if (reading.active) {
          send({
            kind: "break-due",
            sessionId: row.id,
            key: `break-due:${row.id}:${reading.active.n}`,
            text: `You have focused for ${reading.active.focusMinute} minutes: take ${reading.active.breakMinutes}.`,
          });
        }
        const onBreak = [...t.nudges].reverse().find((r) => r.answer === "break");
        if (reading.paused && onBreak && reading.pausedForMs >= onBreak.breakMinutes * deps.minuteMs) {
          send({ kind: "break-over", sessionId: row.id, key: `break-over:${row.id}:${onBreak.n}` });
        }
      }
    } finally {
      checking = false;
    }
  };
  const interval = setInterval(
    () => void checkTimers().catch((error: unknown) => log(`Could not check the timer for notifications: ${String(error)}`)),
    TIMER_CHECK_MS,
  );
  interval.unref();

  notifier.setDigestSource((since) => gatherDigest(deps, since, terminals));

  return {
    close: () => {
      clearInterval(interval);
      events.off("agent-launched", onLaunched);
      events.off("ended", onEnded);
      for (const watch of terminals.values()) watch.dispose();
      terminals.clear();
    },
  };
}

function permissionKey(sessionId: string, requestId: unknown): string {
  return `permission:${sessionId}:${String(requestId)}`;
}

/** What happened since `since` in the current (or last) session: null when nothing did. */
async function gatherDigest(deps: SourceDeps, since: Date, terminals: ReadonlyMap<string, TerminalWatch>): Promise<Digest | null> {
  const state = await deps.sessions.state();
  const session = state.session;
  const sessionId = session?.id ?? null;
  const [chat, marks, parked, notices] = await Promise.all([
    session?.transport === "acp" ? deps.sessions.acpEvents(session.id) : Promise.resolve([]),
    deps.db.topicMark.findMany({ where: { createdAt: { gt: since }, ...(sessionId ? { sessionId } : {}) }, orderBy: { createdAt: "asc" } }),
    deps.db.parkedItem.findMany({ where: { createdAt: { gt: since } }, orderBy: { createdAt: "asc" } }),
    deps.db.notificationLog.findMany({ where: { createdAt: { gt: since } }, orderBy: { createdAt: "asc" } }),
  ]);
  const digest = buildDigest({
    since,
    now: new Date(),
    sessionId,
    topic: session?.topic ?? null,
    outputLines: sessionId ? (terminals.get(sessionId)?.linesSince(since.getTime()) ?? []) : [],
    chat,
    marks,
    parked,
    notices,
  });
  return isEmptyDigest(digest) ? null : digest;
}
