// What every part of the session core shares: the store, the live registry, the event bus, who this
// server is, and the one way a row becomes a view. Built once by SessionService.
import crypto from "node:crypto";
import path from "node:path";
import type { Settings } from "../config/settings.ts";
import { sessionsDir } from "../config/paths.ts";
import type { AgentRegistry } from "../agents/agent-registry.ts";
import type { TmuxOptions } from "../transports/tmux/tmux-control.ts";
import { LiveRegistry } from "./live-registry.ts";
import type { SessionEvents } from "./session-events.ts";
import type { SessionStore } from "./session-store.ts";
import type { SessionRow } from "./session-rows.ts";
import { selfIdentity } from "./owner-probes.ts";
import { resolveHostId } from "./host-id.ts";
import type { SelfIdentity } from "./verdict.ts";
import type { TutorBriefing } from "../cards/card-store.ts";
import { toSessionView, type SessionView, type ViewContext } from "./session-view.ts";

export interface SessionContext {
  readonly instanceId: string;
  readonly self: SelfIdentity & { readonly pid: number; readonly pidStartTime: string | null };
  readonly store: SessionStore;
  readonly registry: LiveRegistry;
  readonly events: SessionEvents;
  readonly settings: Settings;
  readonly agents: AgentRegistry;
  readonly dataDir: string;
  /** The URL this server serves, stored on rows so another server can name it. */
  readonly ownerUrl: string;
  readonly log: (line: string) => void;
  /** The topic's due cards and struggles for TUTOR.md (server/cards); never throws. */
  readonly briefing?: (topic: string) => Promise<TutorBriefing | undefined>;
  /** The clock of the keeper's rules (tests move it). */
  readonly now: () => Date;
}

export function makeContext(
  deps: Omit<SessionContext, "instanceId" | "self" | "registry" | "now"> & { now?: () => Date; hostId?: string },
): SessionContext {
  const instanceId = crypto.randomUUID();
  const me = selfIdentity();
  const { hostId = resolveHostId(deps.dataDir), ...rest } = deps;
  return {
    ...rest,
    now: deps.now ?? (() => new Date()),
    instanceId,
    registry: new LiveRegistry(),
    self: { instanceId, host: me.host, hostId, bootId: me.bootId, pid: me.pid, pidStartTime: me.pidStartTime },
  };
}

/** Reads the agent definitions once per context, not once per row. */
export function viewContext(ctx: SessionContext): ViewContext {
  let labels: Map<string, string> | undefined;
  const s = ctx.settings;
  return {
    agentLabel: (name) => {
      labels ??= new Map(ctx.agents.definitions().map((a) => [a.name, a.label]));
      return labels.get(name) ?? name;
    },
    graceMinutes: Math.round(s.STUDYLOOP_GRACE_SECONDS / 60),
    minuteMs: s.STUDYLOOP_TIMER_MINUTE_SECONDS * 1000,
    keep: { graceMs: s.STUDYLOOP_GRACE_SECONDS * 1000, pauseKeepMs: s.STUDYLOOP_PAUSE_KEEP_SECONDS * 1000 },
  };
}

export function viewOf(ctx: SessionContext, row: SessionRow): SessionView {
  return toSessionView(row, viewContext(ctx));
}

export function tmuxOptions(ctx: SessionContext): TmuxOptions {
  return { socket: ctx.settings.STUDYLOOP_TMUX_SOCKET };
}

/** A session's folder: where its agent runs and keeps its own history (what "Continue" resumes). */
export function sessionFolder(ctx: SessionContext, folderId: string): string {
  return path.join(sessionsDir(ctx.dataDir), folderId);
}
