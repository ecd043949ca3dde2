"use client";
// The bar above a live session's view (terminal or chat): what is running, its connection, End.
import type { SessionView } from "@/server/sessions/session-view";
import { EndSessionButton } from "./EndSessionButton";
import { ErrorAlert } from "../components/ErrorAlert";

/** The connection's badge: green only when live, red when the page has given up, amber in between. */
const BADGE_TONE: Record<string, string> = { live: "live", error: "trouble", ended: "" };

export function SessionHeader(props: {
  session: SessionView;
  status: string;
  statusTestId: string;
  error: string | null;
  onError: (message: string) => void;
  onEnded: (view: SessionView) => void;
}) {
  return (
    <>
      <div className="console-bar">
        <div>
          <strong>{props.session.topic}</strong> <span className="muted">with {props.session.agent}</span>{" "}
          <span className={`badge ${BADGE_TONE[props.status] ?? "waiting"}`} data-testid={props.statusTestId}>
            {props.status}
          </span>
        </div>
        <EndSessionButton onEnded={props.onEnded} onError={props.onError} />
      </div>
      <ErrorAlert error={props.error} />
    </>
  );
}
