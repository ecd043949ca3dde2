// The dashboard's charts, drawn with CSS grid and flex boxes (no chart library): focus minutes per
// day over 12 weeks as a calendar heatmap, the streak, and wins and struggles per topic.
import type { DashboardStats } from "@/server/study/history";
import type { HeatmapCell } from "@/common/study/stats";
import { formatDate } from "@/common/dates";

const WEEKDAYS = ["Mon", "", "Wed", "", "Fri", "", ""] as const;

function parseDay(key: string): Date {
  const [y, m, d] = key.split("-").map(Number) as [number, number, number];
  return new Date(y, m - 1, d);
}

export function minutesText(ms: number): string {
  if (ms <= 0) return "no study";
  const minutes = Math.round(ms / 60_000);
  if (minutes < 1) return "under a minute";
  if (minutes < 60) return `${minutes} min`;
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return m ? `${h} h ${m} min` : `${h} h`;
}

function cellTitle(cell: HeatmapCell): string {
  const day = formatDate(parseDay(cell.date), { weekday: "short", day: "numeric", month: "short" });
  return `${day}${cell.today ? " (today)" : ""}: ${minutesText(cell.focusMs)}${cell.focusMs > 0 ? " of focus" : ""}`;
}

export function Heatmap({ stats }: { stats: DashboardStats }) {
  const { weeks, totalMs, activeDays } = stats.heatmap;
  // A month's name above the first week that starts in it.
  const months = weeks.map((week, i) => {
    const first = parseDay(week[0]!.date);
    const previous = i > 0 ? parseDay(weeks[i - 1]![0]!.date) : null;
    return !previous || previous.getMonth() !== first.getMonth() ? formatDate(first, { month: "short" }) : "";
  });
  return (
    <section className="panel chart" aria-labelledby="heatmap-heading">
      <h2 id="heatmap-heading">Focus, last 12 weeks</h2>
      <p className="muted">
        {activeDays === 0
          ? "No study yet in these 12 weeks: your first session fills in today’s square."
          : `${minutesText(totalMs)} of focus over ${activeDays} ${activeDays === 1 ? "day" : "days"}.`}
      </p>
      <div
        className="heatmap"
        data-testid="heatmap"
        role="img"
        aria-label={`Calendar of focus minutes per day over the last 12 weeks: ${minutesText(totalMs)} over ${activeDays} days.`}
      >
        <span />
        {months.map((m, i) => (
          <span key={`m${i}`} className="heatmap-month" aria-hidden="true">
            {m}
          </span>
        ))}
        {WEEKDAYS.map((label, d) => (
          <Row key={label + d} label={label} cells={weeks.map((w) => w[d]!)} />
        ))}
      </div>
      <div className="heatmap-legend muted" aria-hidden="true">
        Less{" "}
        {[0, 1, 2, 3, 4].map((l) => (
          <span key={l} className={`heat l${l}`} />
        ))}{" "}
        More
      </div>
    </section>
  );
}

function Row({ label, cells }: { label: string; cells: HeatmapCell[] }) {
  return (
    <>
      <span className="heatmap-day" aria-hidden="true">
        {label}
      </span>
      {cells.map((cell) => (
        <span
          key={cell.date}
          className={`heat l${cell.level}${cell.today ? " today" : ""}${cell.future ? " future" : ""}`}
          title={cell.future ? undefined : cellTitle(cell)}
          data-date={cell.date}
          data-level={cell.level}
          data-minutes={Math.round(cell.focusMs / 60_000)}
          data-today={cell.today ? "true" : undefined}
        />
      ))}
    </>
  );
}

export function StreakCard({ stats }: { stats: DashboardStats }) {
  const { current, longest, studiedToday } = stats.streak;
  return (
    <section className="panel chart streak" aria-labelledby="streak-heading" data-testid="streak">
      <h2 id="streak-heading">Streak</h2>
      <p className="streak-number">
        <strong>{current}</strong> {current === 1 ? "day" : "days"} in a row
      </p>
      <p className="muted">
        {current === 0
          ? "Study today to start a streak: one short session is enough."
          : studiedToday
            ? "You studied today."
            : "Not yet today: a short session keeps the streak going."}{" "}
        Longest: {longest} {longest === 1 ? "day" : "days"}.
      </p>
    </section>
  );
}

export function TopicBars({ stats }: { stats: DashboardStats }) {
  const max = Math.max(1, ...stats.topics.map((t) => t.wins + t.struggles));
  return (
    <section className="panel chart" aria-labelledby="topics-heading" data-testid="topic-bars">
      <h2 id="topics-heading">Wins and struggles per topic</h2>
      {stats.topics.length === 0 ? (
        <p className="muted">No wins or struggles marked yet. Mark them during a session (or let the tutor do it) and they show here.</p>
      ) : (
        <>
          <ul className="bars">
            {stats.topics.map((t) => (
              <li key={t.topic}>
                <a
                  className="bar-label"
                  href={`/topics/${encodeURIComponent(t.topic)}`}
                  title={`${t.topic}: cards, retention, wins and struggles over time`}
                >
                  {t.topic}
                </a>
                <span className="bar" aria-hidden="true">
                  {t.wins > 0 ? <span className="bar-win" style={{ width: `${(t.wins / max) * 100}%` }} /> : null}
                  {t.struggles > 0 ? <span className="bar-struggle" style={{ width: `${(t.struggles / max) * 100}%` }} /> : null}
                </span>
                <span className="bar-counts">
                  {t.wins} {t.wins === 1 ? "win" : "wins"}, {t.struggles} {t.struggles === 1 ? "struggle" : "struggles"}
                </span>
              </li>
            ))}
          </ul>
          <p className="bars-legend muted" aria-hidden="true">
            <span className="bar-win swatch" /> wins <span className="bar-struggle swatch" /> struggles
          </p>
        </>
      )}
    </section>
  );
}
