// A due break has to reach a learner who is deep in the terminal: the tab's title and a vibration on a
// phone here; the system notification (where the page is a secure context and the learner allowed it)
// through the notification pipeline.
// Decisions are pure; the browser calls are thin and each one is skipped where it is not available.

/** The tab's title while a break is due: the first thing a learner in another tab sees. */
export function breakTitle(baseTitle: string, long: boolean): string {
  return `${long ? "Longer break" : "Break"} time · ${baseTitle.replace(/^.*· /, "")}`;
}

/** Whether a system notification may be shown (never asked for here: only from a click). */
export function canNotify(env: { secure: boolean; permission: NotificationPermission | undefined }): boolean {
  return env.secure && env.permission === "granted";
}

/** Whether to offer the "notify me" button: possible, and neither granted nor refused yet. */
export function shouldOfferNotifications(env: { secure: boolean; permission: NotificationPermission | undefined }): boolean {
  return env.secure && env.permission === "default";
}

function notificationEnv() {
  return {
    secure: typeof window !== "undefined" && window.isSecureContext,
    permission: typeof Notification === "undefined" ? undefined : Notification.permission,
  };
}

export function notificationsOffered(): boolean {
  return shouldOfferNotifications(notificationEnv());
}

/** Asks once, from the learner's click; resolves with whether notifications are allowed now. */
export async function askForNotifications(): Promise<boolean> {
  if (!notificationsOffered()) return canNotify(notificationEnv());
  return (await Notification.requestPermission()) === "granted";
}

/**
 * Sounds the alarm for nudge `n` once on this page: a vibration. The system notification comes from
 * the notification pipeline (server/notify, app/components/NotificationCenter.tsx), which sends one
 * per device and none while the learner is looking; a second one from here would double it.
 */
export function alertBreak(_n: number, _message: string): void {
  // Chromium refuses (and logs an error for) a vibration before the learner has touched the page.
  if (navigator.userActivation && !navigator.userActivation.hasBeenActive) return;
  navigator.vibrate?.([200, 100, 200]);
}
