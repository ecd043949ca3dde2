// The environment an agent runs with: the learner's own, minus secrets and StudyLoop's settings, plus
// the variables the learner passes to that agent on purpose (studyloop.config.json:
// `"agents": {"gemini": {"env": {"pass": ["GEMINI_API_KEY"]}}}`). See docs/security.md, "Secrets".

const SECRET_PARTS = ["TOKEN", "SECRET", "PASSWORD", "PASSWD", "KEY", "CREDENTIAL", "COOKIE", "AUTH"] as const;
/** The server's own settings never leak into a session (the session gets its own, set below). */
const SERVER_PREFIXES = ["STUDYLOOP_", "NEXT_", "__NEXT", "PRISMA_", "NODE_OPTIONS", "NODE_ENV", "TSX_"] as const;

export function isScrubbed(name: string): boolean {
  const upper = name.toUpperCase();
  // DATABASE_URL: StudyLoop's PostgreSQL URL may carry its password (docs/deploy.md).
  return SECRET_PARTS.some((part) => upper.includes(part)) || isStudyLoopOwn(name) || upper === "DATABASE_URL";
}

/** StudyLoop's own settings and secrets: no config can pass these to an agent. */
export function isStudyLoopOwn(name: string): boolean {
  const upper = name.toUpperCase();
  return SERVER_PREFIXES.some((p) => upper.startsWith(p));
}

/** The learner's environment without secrets or StudyLoop's own settings. */
export function scrubbedEnvironment(base: NodeJS.ProcessEnv): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(base)) {
    if (value !== undefined && !isScrubbed(name)) env[name] = value;
  }
  return env;
}

/** Of the variables a config passes to an agent, the ones that are set here and may be passed. */
export function passedVariables(base: NodeJS.ProcessEnv, pass: readonly string[]): { passed: string[]; unset: string[] } {
  const passed: string[] = [];
  const unset: string[] = [];
  for (const name of pass) {
    if (isStudyLoopOwn(name)) continue; // the config schema refuses these too; belt and braces
    if (base[name] === undefined) unset.push(name);
    else passed.push(name);
  }
  return { passed, unset };
}

export function agentEnvironment(
  base: NodeJS.ProcessEnv,
  session: { id: string; token: string; serverUrl: string | null; dataDir: string; databaseUrl?: string | null },
  pass: readonly string[] = [],
): Record<string, string> {
  const env = scrubbedEnvironment(base);
  for (const name of passedVariables(base, pass).passed) env[name] = base[name]!;
  env.TERM = "xterm-256color";
  env.COLORTERM = "truecolor";
  env.STUDYLOOP_SESSION_ID = session.id;
  env.STUDYLOOP_SESSION_TOKEN = session.token;
  if (session.serverUrl) env.STUDYLOOP_URL = session.serverUrl;
  env.STUDYLOOP_DATA_DIR = session.dataDir;
  // A tmux session on PostgreSQL: the tutor's `studyloop park` writes there without a server.
  if (session.databaseUrl) env.STUDYLOOP_DATABASE_URL = session.databaseUrl;
  return env;
}
