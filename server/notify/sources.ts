// Where notifications come from: each source is one small call to `notifier.emit`. Connected here,
// outside the modules that own the events, so those keep one-line hooks (see docs/notifications.md):
//   - terminal sessions: bells and "waiting for input" (the SessionService's `launched` event and
//     TerminalSession.onOutput);
//   - chat sessions: permission requests (urgent; withdrawn when answered) and long turns finished;
//   - sessions that ended without the learner (`ended` with another reason than ended-by-learner or
//     server-shutdown), and sessions whose grace runs out soon (the keeper's `grace-ending`);
//   - the focus timer: break due and break over, the study events it puts on the bus (focus-timer.ts
//     decides once; nothing here reads timer rows);
//   - review cards: review-reminder.ts, once a day.
// It also gathers the "While you were away" digest (digest.ts) from the same places.
import type { Db } from "../db/client.ts";
import type { SessionService } from "../sessions/session-service.ts";
import type { SessionEvents } from "../sessions/session-events.ts";
import type { LiveTransport } from "../transports/live-transport.ts";
import type { SessionView } from "../sessions/session-view.ts";
import type { AcpEventRecord } from "../transports/acp/acp-events.ts";
import type { StudyEvent } from "../sessions/session-events.ts";
import { clockTime } from "../sessions/end-reasons.ts";
import type { Notifier } from "./notifier.ts";
import { buildDigest, isEmptyDigest, type Digest } from "./digest.ts";
import { readNotifyConfig } from "./notify-config.ts";
import { TerminalWatch } from "./terminal-watch.ts";

/** The viewer id the notifier watches chats under. */
const NOTIFY_VIEWER = "studyloop-notifier";

export interface SourceDeps {
  readonly db: Db;
  readonly sessions: SessionService;
  /** The session and study event bus: `agent-launched`, `ended`, `grace-ending`, `study`. */
  readonly events: SessionEvents;
  readonly notifier: Notifier;
  readonly dataDir: string;
  readonly log: (line: string) => void;
}

export interface Sources {
  close(): void;
}

export function connectSources(deps: SourceDeps): Sources {
  const { notifier, log } = deps;
  const terminals = new Map<string, TerminalWatch>();
  /** Each watched terminal's output subscription, dropped when its session ends. */
  const outputs = new Map<string, { dispose(): void }>();
  /** Per session, the grace warning sent for its current window (its key, and its send). */
  const graceKeys = new Map<string, { key: string; sent: Promise<unknown> }>();
  /** Per chat session, when the learner's current turn began (a long turn that ends is "finished"). */
  const turns = new Map<string, { startedAt: number; longRunMs: number }>();
  /** Keys already sent by this process: spares the database a refused insert. */
  const sent = new Set<string>();
  /** Sends; resolves once the notice is logged (or refused as sent before, or failed and logged). */
  const post = (event: Parameters<Notifier["emit"]>[0]): Promise<unknown> => {
    if (event.key && sent.has(event.key)) return Promise.resolve();
    if (event.key) sent.add(event.key);
    return notifier.emit(event).catch((error: unknown) => log(`Could not send a ${event.kind} notification: ${String(error)}`));
  };
  const send = (event: Parameters<Notifier["emit"]>[0]): void => void post(event);

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
    const output = transport.terminal()?.onOutput((frame) => {
      if (frame.type === "output") watch.feed(frame.data);
    });
    if (output) outputs.set(sessionId, output);
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
    outputs.get(sessionId)?.dispose();
    outputs.delete(sessionId);
    // Its "ends in a few minutes" is out of date: the ended notice below takes its place.
    onGraceKept(sessionId);
    terminals.get(sessionId)?.dispose();
    terminals.delete(sessionId);
    turns.delete(sessionId);
    // The learner ended it, or stopped the server themselves: nothing to tell them.
    if (view.endReason && view.endReason !== "ended-by-learner" && view.endReason !== "server-shutdown") {
      send({ kind: "session-ended", sessionId, key: `ended:${sessionId}`, text: view.explanation ?? undefined });
    }
  };

  const onGraceEnding = (sessionId: string, endsAt: Date) => {
    const minutes = Math.max(1, Math.round((endsAt.getTime() - Date.now()) / 60_000));
    const key = `grace-ending:${sessionId}:${endsAt.getTime()}`;
    const sent = post({
      kind: "grace-ending",
      sessionId,
      key,
      text: `Nobody is watching it: it ends at ${clockTime(endsAt)} (in about ${minutes} minute${minutes === 1 ? "" : "s"}) unless you open it.`,
    });
    graceKeys.set(sessionId, { key, sent });
  };

  // The learner came back (or a pause keeps it, or it ended): the warning is withdrawn on every device.
  const onGraceKept = (sessionId: string) => {
    const warning = graceKeys.get(sessionId);
    graceKeys.delete(sessionId);
    // After its own send: a warning still being logged is withdrawn once it is.
    if (warning)
      void warning.sent
        .then(() => notifier.resolve(warning.key))
        .catch((error: unknown) => log(`Could not withdraw a notification: ${String(error)}`));
  };

  const onStudy = (event: StudyEvent) => {
    const n = Number(event.detail?.n);
    if (!Number.isInteger(n)) return;
    const breakMinutes = Number(event.detail?.breakMinutes);
    if (event.kind === "break-due") {
      const focused = Number(event.detail?.focusMinute);
      send({
        kind: "break-due",
        sessionId: event.sessionId,
        key: `break-due:${event.sessionId}:${n}`,
        text: `You have focused for ${focused} minutes: take ${breakMinutes}.`,
      });
    } else if (event.kind === "break-over") {
      send({ kind: "break-over", sessionId: event.sessionId, key: `break-over:${event.sessionId}:${n}` });
    }
  };

  const { events } = deps;
  events.on("agent-launched", onLaunched);
  events.on("ended", onEnded);
  events.on("grace-ending", onGraceEnding);
  events.on("grace-kept", onGraceKept);
  events.on("study", onStudy);

  notifier.setDigestSource((since) => gatherDigest(deps, since, terminals));

  return {
    close: () => {
      events.off("agent-launched", onLaunched);
      events.off("ended", onEnded);
      events.off("grace-ending", onGraceEnding);
      events.off("grace-kept", onGraceKept);
      events.off("study", onStudy);
      for (const output of outputs.values()) output.dispose();
      outputs.clear();
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
