"use client";
// One session's study loop (timer, marks, parked items) as the server pushes it: the current view
// on watch, then every change, on every open page.
import { useEffect, useState } from "react";
import type { StudyLiveView } from "@/common/study/study-view";
import { studySocket } from "./socket";

export function useStudyLive(sessionId: string | null): { view: StudyLiveView | null; error: string | null } {
  const [view, setView] = useState<StudyLiveView | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!sessionId) return;
    const socket = studySocket();
    const onLive = (next: StudyLiveView) => {
      if (next.sessionId === sessionId) setView(next);
    };
    const watch = () =>
      socket.emit("study:watch", { sessionId }, (result) => {
        if (result.ok) {
          setView(result.value);
          setError(null);
        } else setError(result.error);
      });
    socket.on("study:live", onLive);
    socket.on("connect", watch);
    if (socket.connected) watch();
    return () => {
      socket.off("study:live", onLive);
      socket.off("connect", watch);
      socket.emit("study:unwatch", { sessionId });
    };
  }, [sessionId]);
  return { view, error };
}
