"use client";
// The parking lot: every parked thought, grouped by what is left to do with it. Changes made on any
// page (or by the agent) arrive at once: the server says "parking:changed" and the list is read again.
import { useCallback, useEffect, useState } from "react";
import type { ParkedStatus, ParkedView } from "@/common/study/study-view";
import { studySocket } from "../components/socket";
import { ErrorAlert } from "../components/ErrorAlert";
import { callApi } from "../components/api-client";
import { MakeCard } from "../review/MakeCard";
import { cardFromParked } from "../review/prefill";
import { dateTimeText } from "@/common/dates";
import { PARKING_GROUPS, PARKING_GROUP_PAGE, type FoldedParkingLot, type ParkingGroupId } from "@/common/study/parking-groups";

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
 * `initial` is the newest PARKING_GROUP_PAGE thoughts of each group and each group's size
 * (common/study/parking-groups.ts); the whole lot is read when the socket watches (as before: what
 * changed since the render), at each change, or at "Show all" if it has not been yet.
 */
export function ParkingLot({ initial }: { initial: FoldedParkingLot }) {
  const [items, setItems] = useState(initial.items);
  // Each group's size while only the first page of it is here; null once the whole lot is.
  const [counts, setCounts] = useState<FoldedParkingLot["counts"] | null>(initial.counts);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [showAll, setShowAll] = useState<Partial<Record<ParkingGroupId, boolean>>>({});

  const reload = useCallback(async (): Promise<boolean> => {
    const answer = await callApi<{ items: ParkedView[] }>("/api/parking", { cache: "no-store" });
    if (!answer.ok) return false;
    setItems(answer.value.items);
    setCounts(null);
    return true;
  }, []);

  const showGroup = async (group: ParkingGroupId) => {
    setError(null);
    if (counts && !(await reload())) return setError("Could not read the rest of the parking lot. Try again.");
    setShowAll((all) => ({ ...all, [group]: true }));
  };

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
    const answer = await callApi(`/api/parking/${item.id}`, {
      method: "PATCH",
      body: { status },
      refused: () => "Could not change the item. Try again.",
    });
    if (!answer.ok) setError(answer.error);
    // A refusal may mean the item changed elsewhere: show it as it now is (no answer: nothing to read).
    if (answer.ok || answer.status !== undefined) await reload();
    setBusy(null);
  };

  return (
    <div className="stack" data-testid="parking-lot">
      <ErrorAlert error={error} />
      {PARKING_GROUPS.map((group) => {
        const inGroup = items.filter((i) => (group.statuses as readonly ParkedStatus[]).includes(i.status));
        const shown = showAll[group.id] ? inGroup : inGroup.slice(0, PARKING_GROUP_PAGE);
        const total = counts ? counts[group.id] : inGroup.length;
        return (
          <section key={group.id} aria-labelledby={`group-${group.id}`} data-group={group.id}>
            <h2 id={`group-${group.id}`}>
              {group.title} <span className="muted">({total})</span>
            </h2>
            {total === 0 ? (
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
            {shown.length < total ? (
              <p className="muted" data-testid={`parking-more-${group.id}`}>
                Showing the newest {shown.length} of {total}.{" "}
                <button type="button" onClick={() => void showGroup(group.id)}>
                  Show all {total}
                </button>
              </p>
            ) : null}
          </section>
        );
      })}
    </div>
  );
}
