import Link from "next/link";
import { getRuntime } from "@/server/runtime";
import { LiveCard } from "./components/LiveCard";
import { PairDevice } from "./components/PairDevice";

export const dynamic = "force-dynamic";

export default async function DashboardPage() {
  const { sessions } = getRuntime();
  const [state, history] = await Promise.all([sessions.state(), sessions.history({ take: 50 })]);
  const past = history.filter((s) => s.status === "ended");
  return (
    <div className="stack">
      <h1>Dashboard</h1>
      <LiveCard initial={state} />
      <section aria-labelledby="history-heading">
        <h2 id="history-heading">History</h2>
        {past.length === 0 ? (
          <div className="panel notice">
            <p>
              <strong>No study sessions yet.</strong> Start your first one: pick a topic, say how much energy you
              have, and choose your tutor agent. StudyLoop keeps the time, your parked thoughts and your wins.
            </p>
            <Link className="button primary" href="/study">
              Start studying
            </Link>
          </div>
        ) : (
          <ul className="history">
            {past.map((s) => (
              <li key={s.id} className="panel">
                <Link href={`/sessions/${s.id}`}>
                  <strong>{s.topic}</strong>
                  <div className="meta">
                    {new Date(s.startedAt).toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "short" })} ·{" "}
                    {s.durationMinutes ?? 0} min · {s.agent} · {s.winCount} wins · {s.struggleCount} struggles
                  </div>
                  {s.explanation ? <div className="meta">{s.explanation}</div> : null}
                </Link>
              </li>
            ))}
          </ul>
        )}
      </section>
      <PairDevice />
    </div>
  );
}
