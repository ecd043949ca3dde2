import { getRuntime } from "@/server/runtime";
import { StudyRoom } from "./StudyRoom";

export const dynamic = "force-dynamic";

export default async function StudyPage() {
  const { sessions, agents } = getRuntime();
  const state = await sessions.state();
  return (
    <div className="stack">
      <h1>Study</h1>
      <StudyRoom initialState={state} agents={agents.list()} />
    </div>
  );
}
