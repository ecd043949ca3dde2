// Server settings from the environment, parsed once at start-up so a bad value fails early and says
// which one (the create-t3-app habit). Command-line flags override what they cover.
import { z } from "zod";
import { settingConflicts, type SettingConflict } from "./setting-pairs.ts";

// Each setting says what it accepts, so a bad value's message can tell the learner what to write.
const seconds = (fallback: number) =>
  z.coerce.number().positive().default(fallback).describe(`a number of seconds above 0 (default ${fallback})`);

export const SettingsSchema = z.object({
  /** How long a live session waits for a viewer to come back after the last one left. */
  STUDYLOOP_GRACE_SECONDS: seconds(15 * 60),
  /** How long before grace runs out the learner is told their session is about to end: 5 minutes. */
  STUDYLOOP_GRACE_WARNING_SECONDS: seconds(5 * 60),
  /**
   * A paused session (a break) is kept this long with no page open before the grace window runs:
   * 3 hours. A locked phone on a long break does not lose the tutor.
   */
  STUDYLOOP_PAUSE_KEEP_SECONDS: seconds(3 * 60 * 60),
  /** A session nobody ever attached to ends after this long. */
  STUDYLOOP_NEVER_ATTACHED_SECONDS: seconds(90),
  /** How often an owner refreshes heartbeatAt on its live rows. */
  STUDYLOOP_HEARTBEAT_SECONDS: seconds(5),
  /** A row owned on another host is live while its heartbeat is younger than this. */
  STUDYLOOP_LEASE_SECONDS: seconds(30),
  /** How often a live session's transcript is checkpointed to its row. */
  STUDYLOOP_CHECKPOINT_SECONDS: seconds(30),
  /** Length of one minute of a focus plan, in seconds: 60. Tests shorten it to see break nudges. */
  STUDYLOOP_TIMER_MINUTE_SECONDS: seconds(60),
  /** How long an ACP agent has to answer initialize and session/new. */
  STUDYLOOP_ACP_HANDSHAKE_SECONDS: seconds(45), // opencode alone takes 20 s or more to start on a busy machine
  /** A chat turn with no event from the agent for this long is stopped (an agent stuck on its provider). */
  STUDYLOOP_ACP_TURN_TIMEOUT_SECONDS: seconds(180),
  /** A private tmux server (tmux -L NAME) for CLI sessions; unset: the learner's default tmux. */
  STUDYLOOP_TMUX_SOCKET: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{1,64}$/)
    .optional()
    .describe("a name of 1 to 64 letters, digits, dots, dashes or underscores"),
  /** How long a pairing link works (LAN access): 10 minutes. Tests shorten it to see one expire. */
  STUDYLOOP_PAIRING_TOKEN_SECONDS: seconds(10 * 60),
  /** Megabytes one session's recording may reach (a marker says when it stopped); 0 records nothing. */
  STUDYLOOP_RECORDING_MAX_MB: z.coerce.number().min(0).default(200).describe("a number of megabytes, 0 or more (default 200)"),
  /** Away from every page at least this long, a learner coming back sees "While you were away" first. */
  STUDYLOOP_AWAY_DIGEST_SECONDS: seconds(3 * 60),
  /**
   * The most memory, in MB, the server's copy of one live terminal (its mirror, which lets a reload or
   * a second device show the screen) may use: 1024. Past it that copy is made again from recent output,
   * twice; after that the agent runs on but pages say they cannot show its terminal.
   */
  STUDYLOOP_MIRROR_HEAP_MB: z.coerce.number().int().min(8).default(1024).describe("a whole number of megabytes, 8 or more (default 1024)"),
  /** Megabytes one session's attachments (photos and files sent in a chat) may take on disk: 100. */
  STUDYLOOP_ATTACHMENTS_SESSION_MB: z.coerce.number().positive().default(100).describe("a number of megabytes above 0 (default 100)"),
  /** Megabytes all sessions' attachments may take together: 2000. */
  STUDYLOOP_ATTACHMENTS_TOTAL_MB: z.coerce.number().positive().default(2000).describe("a number of megabytes above 0 (default 2000)"),
  /** A paired device unused this long is no longer paired (it needs a new link): 90 days. */
  STUDYLOOP_DEVICE_IDLE_SECONDS: seconds(90 * 24 * 60 * 60),
});

export type Settings = z.infer<typeof SettingsSchema>;

export type SettingName = keyof typeof SettingsSchema.shape;

/** One setting whose value cannot be used: its name, what was given, and what it accepts. */
export interface SettingProblem {
  name: SettingName;
  given: string;
  accepts: string;
}

/** Settings that cannot be used, alone or together. Nothing has started when this is thrown. */
export class SettingsError extends Error {
  constructor(
    readonly problems: readonly SettingProblem[],
    readonly conflicts: readonly SettingConflict[] = [],
  ) {
    super(settingsMessage(problems, conflicts));
    this.name = "SettingsError";
  }
}

function settingsMessage(problems: readonly SettingProblem[], conflicts: readonly SettingConflict[]): string {
  if (problems.length > 0) {
    const lines = problems.map((p) => `  ${p.name}=${JSON.stringify(p.given)}: use ${p.accepts}.`);
    const one = problems.length === 1;
    return `${one ? "This setting cannot be used" : "These settings cannot be used"}:\n${lines.join("\n")}\nSet ${one ? "it" : "them"} as shown, or unset ${one ? "it" : "them"} for the default, and run the command again.`;
  }
  const lines = conflicts.map((c) => `  ${c.names[0]} and ${c.names[1]}: ${c.why}.`);
  return `${conflicts.length === 1 ? "These two settings do" : "These settings do"} not work together:\n${lines.join("\n")}\nChange one of each pair (or unset it for its default) and run the command again.`;
}

export function loadSettings(env: Readonly<Record<string, string | undefined>> = process.env): Settings {
  const parsed = SettingsSchema.safeParse(env);
  if (!parsed.success) {
    const names = [...new Set(parsed.error.issues.map((i) => String(i.path[0]) as SettingName))];
    throw new SettingsError(
      names.map((name) => ({ name, given: String(env[name]), accepts: SettingsSchema.shape[name].description ?? "another value" })),
    );
  }
  const conflicts = settingConflicts(parsed.data);
  if (conflicts.length > 0) throw new SettingsError([], conflicts);
  return parsed.data;
}
