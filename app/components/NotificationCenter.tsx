"use client";
// Notifications in every page (docs/notifications.md): tells the server which browser this is and
// whether it is looked at, shows the notices it is sent (an overlay, the tab title, a chime, and on
// one page per device the system notification), closes them when they were acted on elsewhere, and
// shows "While you were away" first when the learner comes back after a while.
import { useEffect, useRef, useState } from "react";
import "./notify.css";
import type { NoticePayload } from "@/server/notify/kinds";
import type { ShowOptions } from "@/server/notify/presence";
import type { Digest } from "@/server/notify/digest";
import { studySocket } from "./socket";
import {
  chime,
  closeSystemNotification,
  currentPresence,
  guessBrowserName,
  notifyClientId,
  serviceWorker,
  showSystemNotification,
} from "./notify-client";
import { AwayDigest } from "./AwayDigest";

/** Notices kept on screen at once; older ones drop off. */
const MAX_NOTICES = 4;

export function NotificationCenter() {
  const [notices, setNotices] = useState<NoticePayload[]>([]);
  const [digest, setDigest] = useState<Digest | null>(null);
  const unseen = useRef(0);
  const baseTitle = useRef<string | null>(null);

  useEffect(() => {
    const socket = studySocket();
    const clientId = notifyClientId();
    const takeDigest = (result: { ok: boolean; value?: { digest: Digest | null } }) => {
      if (result.ok && result.value?.digest) setDigest(result.value.digest);
    };
    const hello = () =>
      socket.emit(
        "notify:hello",
        { clientId, name: guessBrowserName(), origin: window.location.origin, presence: currentPresence() },
        (r) => takeDigest(r as never),
      );
    const report = () => {
      const presence = currentPresence();
      if (presence.visible && presence.focused) clearTitle();
      socket.emit("notify:presence", presence, (r) => takeDigest(r as never));
    };
    const clearTitle = () => {
      unseen.current = 0;
      if (baseTitle.current !== null) document.title = baseTitle.current;
      baseTitle.current = null;
    };
    const onShow = (notice: NoticePayload, how: ShowOptions) => {
      setNotices((list) => [notice, ...list.filter((n) => n.tag !== notice.tag)].slice(0, MAX_NOTICES));
      if (how.quiet) return;
      const presence = currentPresence();
      if (!(presence.visible && presence.focused)) {
        baseTitle.current ??= document.title;
        unseen.current++;
        document.title = `(${unseen.current}) ${notice.title} · ${baseTitle.current}`;
      }
      if (how.sound) chime(notice.urgency === "urgent");
      if (how.alert) void showSystemNotification(notice).catch(() => undefined);
    };
    const onWithdraw = (tag: string) => {
      setNotices((list) => list.filter((n) => n.tag !== tag));
      void closeSystemNotification(tag).catch(() => undefined);
    };
    const onMessage = (event: MessageEvent) => {
      const data = event.data as { type?: string; link?: string } | null;
      if (data?.type === "studyloop:open" && typeof data.link === "string" && data.link.startsWith("/")) window.location.assign(data.link);
    };

    // Opened from a notification: the learner acted on it here, so the others close.
    const match = /(?:^#|&)notice=([0-9a-f-]{36})/.exec(window.location.hash);
    if (match) {
      socket.emit("notify:act", { noticeId: match[1]! });
      history.replaceState(null, "", window.location.pathname + window.location.search);
    }

    socket.on("connect", hello);
    if (socket.connected) hello();
    socket.on("notify:show", onShow);
    socket.on("notify:withdraw", onWithdraw);
    document.addEventListener("visibilitychange", report);
    window.addEventListener("focus", report);
    window.addEventListener("blur", report);
    navigator.serviceWorker?.addEventListener("message", onMessage);
    void serviceWorker();
    return () => {
      socket.off("connect", hello);
      socket.off("notify:show", onShow);
      socket.off("notify:withdraw", onWithdraw);
      document.removeEventListener("visibilitychange", report);
      window.removeEventListener("focus", report);
      window.removeEventListener("blur", report);
      navigator.serviceWorker?.removeEventListener("message", onMessage);
    };
  }, []);

  const act = (notice: NoticePayload) => {
    studySocket().emit("notify:act", { noticeId: notice.id });
    setNotices((list) => list.filter((n) => n.id !== notice.id));
  };

  return (
    <>
      {digest ? <AwayDigest digest={digest} onClose={() => setDigest(null)} /> : null}
      {/* The digest lists the notices too: one thing to read at a time. */}
      {notices.length > 0 && !digest ? (
        <section className="notices" aria-label="Notifications" aria-live="polite">
          {notices.map((n) => (
            <div
              key={n.id}
              className={`notice-card panel ${n.urgency}`}
              role={n.urgency === "urgent" ? "alert" : "status"}
              data-testid="notice"
              data-kind={n.kind}
            >
              <strong>{n.title}</strong>
              <span>{n.body}</span>
              <div className="row">
                <a className="button primary" href={n.link} onClick={() => act(n)}>
                  Open
                </a>
                <button onClick={() => act(n)}>Dismiss</button>
              </div>
            </div>
          ))}
        </section>
      ) : null}
    </>
  );
}
