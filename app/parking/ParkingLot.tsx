"use client";
// The parking lot: every parked thought, grouped by what is left to do with it. Changes made on any
// page (or by the agent) arrive at once: the server says "parking:changed" and the list is read again.
import { useCallback, useEffect, useState } from "react";
import type { ParkedStatus, ParkedView } from "@/common/study/study-view";
import { studySocket } from "../components/socket";
import { ErrorAlert } from "../components/ErrorAlert";
import { MakeCard } from "../review/MakeCard";
import { cardFromParked } from "../review/prefill";
import { dateTimeText } from "@/common/dates";

const GROUPS: ReadonlyArray<{ id: string; title: string; empty: string; statuses: readonly ParkedStatus[] }> = [
  { id: "pending", title: "To look at", empty: "Nothing waiting. Thoughts you park during a session show up here.", statuses: ["pending"] },
  { id: "carried", title: "Carried into your next session", empty: "Nothing carried over.", statuses: ["carried"] },
  { id: "done", title: "Done", empty: "Nothing resolved or dismissed yet.", statuses: ["resolved", "dismissed"] },
];

const ACTIONS: Record<ParkedStatus, ReadonlyArray<{ status: ParkedStatus; label: string }>> = {
  pending: [
    { status: "resolved", label: "Resolve" },
    { status: "dismissed", label: "Dismiss" },
    { status: "carried", label: "Carry into next session" },
  ],
  carried: [{ status: "pending", label: "Keep it here instead" }],
  resolved: [{ status: "pending", label: "Reopen" }],
  dismissed: [{ status: "pending", label: "Reopen" }],
};

const when = (iso: string) => dateTimeText(iso);

/**
 * Thoughts shown in a group until the learner asks for the rest: a lot of 500 rendered with their
 * buttons was the largest page (467 KB, docs/performance.md "Round 7: history"). Newest first, so
 * the ones shown are the ones most likely still on the learner's mind.
 */
const PARKING_GROUP_PAGE = 50;

export function ParkingLot({ initial }: { initial: ParkedView[] }) {
  const [items, setItems] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [showAll, setShowAll] = useState<Record<string, boolean>>({});

  const reload = useCallback(async () => {
    const res = await fetch("/api/parking", { cache: "no-store" }).catch(() => null);
    if (res?.ok) setItems(((await res.json()) as { items: ParkedView[] }).items);
  }, []);

  useEffect(() => {
    const socket = studySocket();
    const watch = () => socket.emit("parking:watch", () => void reload());
    const onChanged = () => void reload();
    socket.on("parking:changed", onChanged);
    socket.on("connect", watch);
    if (socket.connected) watch();
    return () => {
      socket.off("parking:changed", onChanged);
      socket.off("connect", watch);
    };
  }, [reload]);

  const setStatus = async (item: ParkedView, status: ParkedStatus) => {
    setBusy(item.id);
    setError(null);
    try {
      const res = await fetch(`/api/parking/${item.id}`, {
        method: "PATCH",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ status }),
      });
      if (!res.ok) setError(((await res.json().catch(() => ({}))) as { error?: string }).error ?? "Could not change the item. Try again.");
      await reload();
    } catch {
      setError("Could not reach the StudyLoop server: check the connection and try again.");
    } finally {
      setBusy(null);
    }
  };

  return (
    <div className="stack" data-testid="parking-lot">
      <ErrorAlert error={error} />
      {GROUPS.map((group) => {
        const inGroup = items.filter((i) => group.statuses.includes(i.status));
        const shown = showAll[group.id] ? inGroup : inGroup.slice(0, PARKING_GROUP_PAGE);
        return (
          <section key={group.id} aria-labelledby={`group-${group.id}`} data-group={group.id}>
            <h2 id={`group-${group.id}`}>
              {group.title} <span className="muted">({inGroup.length})</span>
            </h2>
            {inGroup.length === 0 ? (
              <p className="muted">{group.empty}</p>
            ) : (
              <ul className="parking-list">
                {shown.map((item) => (
                  <li key={item.id} className="panel" data-status={item.status}>
                    <p className="parked-text">{item.text}</p>
                    <p className="meta">
                      {item.sessionTopic ? <a href={`/sessions/${item.sessionId}`}>{item.sessionTopic}</a> : "no session"} ·{" "}
                      {when(item.createdAt)}
                      {item.source === "agent" ? " · from the tutor" : ""}
                      {item.carriedFromId ? " · carried over" : ""}
                      {item.status === "resolved" || item.status === "dismissed" ? ` · ${item.status}` : ""}
                    </p>
                    <div className="row">
                      {ACTIONS[item.status].map((a) => (
                        <button key={a.status} disabled={busy === item.id} onClick={() => void setStatus(item, a.status)}>
                          {a.label}
                        </button>
                      ))}
                      <MakeCard origin={{ kind: "parked", id: item.id }} {...cardFromParked(item.text, item.sessionTopic)} className="" />
                    </div>
                  </li>
                ))}
              </ul>
            )}
            {shown.length < inGroup.length ? (
              <p className="muted" data-testid={`parking-more-${group.id}`}>
                Showing the newest {shown.length} of {inGroup.length}.{" "}
                <button type="button" onClick={() => setShowAll((all) => ({ ...all, [group.id]: true }))}>
                  Show all {inGroup.length}
                </button>
              </p>
            ) : null}
          </section>
        );
      })}
    </div>
  );
}
