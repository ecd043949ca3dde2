import { getRuntime } from "@/server/runtime";
import { StudyRoom } from "./StudyRoom";

export const dynamic = "force-dynamic";

export default async function StudyPage() {
  const { sessions, agents, study } = getRuntime();
  const state = await sessions.state();
  const suggestions = state.session ? null : await study.history.suggestions();
  return (
    <div className="stack">
      <h1>Study</h1>
      {agents.configProblem() ? <p className="panel notice warn">{agents.configProblem()}</p> : null}
      <StudyRoom initialState={state} agents={agents.list()} suggestions={suggestions} />
    </div>
  );
}
