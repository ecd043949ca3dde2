import { headers } from "next/headers";
import { getRuntime } from "@/server/runtime";
import { scriptNonce } from "@/server/security/headers";
import { StudyRoom } from "./StudyRoom";
import { earlyWorkerUrl } from "@/server/http/early-worker-script";
import { earlyCatcherScript } from "./early-catcher";
import { TERMINAL_FRAME_ID } from "./terminal-frame-id";

export const dynamic = "force-dynamic";

export default async function StudyPage() {
  const { sessions, agents, study } = getRuntime();
  const state = await sessions.state();
  const suggestions = state.session ? null : await study.history.suggestions();
  // A live terminal's screen, painted with the page while its own terminal loads.
  const preview = state.session && state.attach?.transport === "pty" ? await sessions.screenPreview(state.session.id) : null;
  // Keys typed on a live terminal's page before its scripts run are taken by this inline script and sent
  // by its worker (early-catcher.ts).
  const nonce = preview ? scriptNonce((await headers()).get("content-security-policy")) : undefined;
  const catcher =
    nonce && state.session
      ? earlyCatcherScript({ frameId: TERMINAL_FRAME_ID, sessionId: state.session.id, workerUrl: earlyWorkerUrl() })
      : null;
  return (
    <div className="stack">
      {catcher ? <script nonce={nonce} dangerouslySetInnerHTML={{ __html: catcher }} /> : null}
      <h1>Study</h1>
      {agents.configProblem() ? <p className="panel notice warn">{agents.configProblem()}</p> : null}
      <StudyRoom initialState={state} agents={agents.list()} suggestions={suggestions} preview={preview} />
    </div>
  );
}
