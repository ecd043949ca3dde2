// The one owner of live state in this process. The custom server creates it at start-up; route
// handlers and pages (which Next bundles separately, so their module instances are not ours) reach
// the same object through globalThis. Only types are imported here, so bundling this file is cheap.
import type { AgentRegistry } from "./agents/agent-registry";
import type { SessionService } from "./sessions/session-service";
import type { StudyLog } from "./study/study-log";
import type { SessionEvents } from "./sessions/session-events";
import type { AccessControl } from "./security/access-control";
import type { CardStore } from "./cards/card-store";
import type { LearningRecord } from "./recording/learning-record";
import type { Notifier } from "./notify/notifier";
import type { Settings } from "./config/settings";

export interface Runtime {
  readonly dataDir: string;
  /** The server's settings, parsed once at start-up (server/config/settings.ts). */
  readonly settings: Settings;
  readonly sessions: SessionService;
  readonly agents: AgentRegistry;
  readonly study: StudyLog;
  /** Paired devices and pairing links (LAN access, docs/security.md). */
  readonly access: AccessControl;
  /** Spaced-repetition cards and their reviews (server/cards). */
  readonly cards: CardStore;
  /**
   * The bus of session and study events (session-events.ts): `changed`, `ended`, and `study`
   * (parked, marked, paused, resumed, break-due, ended). Subscribe with events.subscribe(...).
   */
  readonly events: SessionEvents;
  /** Recordings, transcripts and search (server/recording/). */
  readonly record: LearningRecord;
  /** Notifications: sources emit, the Devices page chooses delivery (docs/notifications.md). */
  readonly notify: Notifier;
}

const KEY = Symbol.for("studyloop.runtime");
type Holder = { [KEY]?: Runtime };

export function setRuntime(runtime: Runtime | undefined): void {
  (globalThis as Holder)[KEY] = runtime;
}

export function getRuntime(): Runtime {
  const runtime = (globalThis as Holder)[KEY];
  if (!runtime) {
    throw new Error("StudyLoop's server is not running in this process: start it with `studyloop web`.");
  }
  return runtime;
}
