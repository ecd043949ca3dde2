// What StudyLoop notifies about: each kind with its urgency and the words the learner sees. Pure and
// browser-safe (the page and the service worker show these payloads). docs/notifications.md.

export type Urgency = "urgent" | "normal" | "calm";

export const NOTICE_KINDS = {
  permission: { urgency: "urgent", title: "The tutor asks for your permission" },
  "waiting-input": { urgency: "normal", title: "The tutor is waiting for your answer" },
  "run-finished": { urgency: "calm", title: "The tutor has finished" },
  "break-due": { urgency: "normal", title: "Time for a break" },
  "break-over": { urgency: "normal", title: "Your break is over" },
  "session-ended": { urgency: "urgent", title: "Your study session has ended" },
  "grace-ending": { urgency: "urgent", title: "Your study session ends in a few minutes" },
  "review-due": { urgency: "calm", title: "Review cards are due" },
  test: { urgency: "normal", title: "Test notification from StudyLoop" },
} as const satisfies Record<string, { urgency: Urgency; title: string }>;

export type NoticeKind = keyof typeof NOTICE_KINDS;
export const NOTICE_KIND_NAMES = Object.keys(NOTICE_KINDS) as NoticeKind[];

/** What a source reports: one call, `notifier.emit({ kind, sessionId, ... })`. */
export interface NotifyEvent {
  readonly kind: NoticeKind;
  readonly sessionId?: string;
  /**
   * Sends once per key, ever (the log's unique key): a nudge, a permission request, a day. Without
   * one, a fresh key is made and the event is always sent.
   */
  readonly key?: string;
  /** One short sentence, shown in the page only (remote channels get the generic text). */
  readonly text?: string;
  /** Where the notification opens; defaults to the session. */
  readonly link?: string;
}

/** What every channel carries: no secrets, no tutor output beyond one short sentence in the page. */
export interface NoticePayload {
  readonly id: string;
  readonly kind: NoticeKind;
  readonly urgency: Urgency;
  readonly title: string;
  readonly body: string;
  readonly link: string;
  /** The same tag replaces an earlier notification of the same thing; withdrawals name it. */
  readonly tag: string;
  readonly at: string;
}

/** Longest body, in characters: a notification is a nudge, not a transcript. */
export const BODY_MAX_CHARS = 140;

/** The generic sentence each kind carries off this machine (push services, ntfy servers). */
const REMOTE_BODY: Record<NoticeKind, string> = {
  permission: "Open StudyLoop to allow or deny it.",
  "waiting-input": "It asked a question and is waiting for you.",
  "run-finished": "Its long run is done: have a look when you are ready.",
  "break-due": "Step away from the screen for a few minutes.",
  "break-over": "Come back when you are ready and pick up where you left off.",
  "session-ended": "Open StudyLoop to see why and continue where you left off.",
  "grace-ending": "Nobody is watching it: open StudyLoop to keep it going.",
  "review-due": "A few cards are ready for review.",
  test: "Notifications reach this device.",
};

export function remoteBody(kind: NoticeKind): string {
  return REMOTE_BODY[kind];
}

/** The page's text: the source's sentence (plain, one line, short) or the generic one. */
export function pageBody(kind: NoticeKind, text: string | undefined): string {
  const clean = (text ?? "")
    .replace(/[\p{Cc}\p{Cf}]+/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
  if (!clean) return REMOTE_BODY[kind];
  return clean.length > BODY_MAX_CHARS ? `${clean.slice(0, BODY_MAX_CHARS - 1)}…` : clean;
}

/** The page a notification opens: the live study page, or an ended session's own page. */
export function noticeLink(event: NotifyEvent, noticeId: string): string {
  if (event.link) return event.link;
  if (event.kind === "session-ended" && event.sessionId) return `/sessions/${encodeURIComponent(event.sessionId)}#notice=${noticeId}`;
  if (event.sessionId) return `/study#notice=${noticeId}`;
  return `/#notice=${noticeId}`;
}
