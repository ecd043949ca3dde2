// Where the demo tutor's programs are (README, "Try it without an AI"): plain Node scripts, run by the
// server's own node in the session's folder like any agent, as a terminal (demo-tutor.mjs) or as a
// chat on the Agent Client Protocol (demo-chat.mjs). An agent is a program of its own, and these need
// nothing compiled to run there. agent-catalog.ts offers them as the built-in agent "demo".
import path from "node:path";
import { PROJECT_ROOT } from "../../config/paths.ts";

export const DEMO_AGENT_NAME = "demo";
export const DEMO_AGENT_LABEL = "Demo tutor (no AI)";
const DEMO_DIR = path.join(PROJECT_ROOT, "server", "agents", "demo");
export const DEMO_TUTOR_SCRIPT = path.join(DEMO_DIR, "demo-tutor.mjs");
export const DEMO_CHAT_SCRIPT = path.join(DEMO_DIR, "demo-chat.mjs");
