// The environment an agent runs with: the learner's own, minus secrets and StudyLoop's settings.
// Agents need their own credentials from their config files, not from the server's environment.

const SECRET_PARTS = ["TOKEN", "SECRET", "PASSWORD", "PASSWD", "KEY", "CREDENTIAL", "COOKIE", "AUTH"] as const;
/** The server's own settings never leak into a session (the session gets its own, set below). */
const SERVER_PREFIXES = ["STUDYLOOP_", "NEXT_", "__NEXT", "PRISMA_", "NODE_OPTIONS", "NODE_ENV", "TSX_"] as const;

export function isScrubbed(name: string): boolean {
  const upper = name.toUpperCase();
  return SECRET_PARTS.some((part) => upper.includes(part)) || SERVER_PREFIXES.some((p) => upper.startsWith(p));
}

/** The learner's environment without secrets or StudyLoop's own settings. */
export function scrubbedEnvironment(base: NodeJS.ProcessEnv): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(base)) {
    if (value !== undefined && !isScrubbed(name)) env[name] = value;
  }
  return env;
}

export function agentEnvironment(
  base: NodeJS.ProcessEnv,
  session: { id: string; token: string; serverUrl: string | null; dataDir: string },
): Record<string, string> {
  const env = scrubbedEnvironment(base);
  env.TERM = "xterm-256color";
  env.COLORTERM = "truecolor";
  env.STUDYLOOP_SESSION_ID = session.id;
  env.STUDYLOOP_SESSION_TOKEN = session.token;
  if (session.serverUrl) env.STUDYLOOP_URL = session.serverUrl;
  env.STUDYLOOP_DATA_DIR = session.dataDir;
  return env;
}
