import { getRuntime } from "@/server/runtime";
import { StudyRoom } from "./StudyRoom";

export const dynamic = "force-dynamic";

export default async function StudyPage() {
  const { sessions, agents, study } = getRuntime();
  const state = await sessions.state();
  const suggestions = state.session ? null : await study.history.suggestions();
  // A live terminal's screen, painted with the page while its own terminal loads.
  const preview = state.session && state.attach?.transport === "pty" ? await sessions.screenPreview(state.session.id) : null;
  return (
    <div className="stack">
      <h1>Study</h1>
      {agents.configProblem() ? <p className="panel notice warn">{agents.configProblem()}</p> : null}
      <StudyRoom initialState={state} agents={agents.list()} suggestions={suggestions} preview={preview} />
    </div>
  );
}
