// Who gets a notification and how: the pure decision behind the notifier (table-tested in
// policy.test.ts). The learner is one person: while any page of theirs is visible and focused they
// are looking, so nothing buzzes anywhere; otherwise every device gets its in-page notice (overlay,
// title, sound) and exactly one alert, through the first channel it has of system, push, ntfy.
import type { Urgency } from "./kinds.ts";

export type AlertChannel = "system" | "push" | "ntfy";

/** What the notifier knows about one notification device at the moment of sending. */
export interface DeviceState {
  readonly id: string;
  /** Pages of this device connected now. */
  readonly pages: number;
  /** One of its pages is visible and focused. */
  readonly looking: boolean;
  /** A looking page already shows the session the notice is about (the study page). */
  readonly showsSession: boolean;
  /** The learner chose system notifications here and a connected page has the browser's permission. */
  readonly system: boolean;
  readonly push: boolean;
  readonly ntfy: boolean;
  readonly sound: boolean;
}

export interface Delivery {
  readonly device: string;
  /** Socket event to its pages: an overlay (and title and sound unless `quiet`). */
  readonly page: boolean;
  /** A looking page elsewhere in the app gets a quiet overlay only. */
  readonly quiet: boolean;
  readonly sound: boolean;
  readonly alert: AlertChannel | null;
}

/** The deliveries of one notice; a device absent from the result gets nothing. */
export function planDeliveries(urgency: Urgency, devices: readonly DeviceState[], opts: { test?: string } = {}): Delivery[] {
  // A test notification goes to the one device asked for, through every channel it has (so each can
  // be checked), even while it is looked at.
  if (opts.test !== undefined) {
    const d = devices.find((device) => device.id === opts.test);
    if (!d) return [];
    const alerts = allAlerts(d);
    const out: Delivery[] = alerts.map((alert, i) => ({
      device: d.id,
      page: i === 0 && d.pages > 0,
      quiet: false,
      sound: i === 0 && d.sound && d.pages > 0,
      alert,
    }));
    if (out.length === 0 && d.pages > 0) out.push({ device: d.id, page: true, quiet: false, sound: d.sound, alert: null });
    return out;
  }
  const present = devices.some((d) => d.looking);
  const out: Delivery[] = [];
  for (const d of devices) {
    if (present) {
      // The learner is here: a page that shows the session shows the event itself; another page
      // of the app they are looking at gets a quiet overlay; nothing else anywhere.
      if (d.looking && !d.showsSession) out.push({ device: d.id, page: true, quiet: true, sound: false, alert: null });
      continue;
    }
    const alert = firstAlert(d);
    if (d.pages === 0 && alert === null) continue;
    out.push({ device: d.id, page: d.pages > 0, quiet: false, sound: d.sound && urgency !== "calm" && d.pages > 0, alert });
  }
  return out;
}

function allAlerts(d: DeviceState): AlertChannel[] {
  const out: AlertChannel[] = [];
  if (d.system && d.pages > 0) out.push("system");
  if (d.push) out.push("push");
  if (d.ntfy) out.push("ntfy");
  return out;
}

function firstAlert(d: DeviceState): AlertChannel | null {
  return allAlerts(d)[0] ?? null;
}

/** Where to withdraw a notice acted on by `actedBy` (a device id, or null when the source resolved it). */
export function withdrawTargets(deliveries: readonly Delivery[], actedBy: string | null): Delivery[] {
  // ntfy has no withdrawal; a page or push subscription can close what it showed.
  return deliveries.filter((d) => d.device !== actedBy && (d.page || d.alert === "push" || d.alert === "system"));
}

/** The key that lets review reminders through at most once a calendar day (the server's local day). */
export function dailyKey(kind: string, now: Date): string {
  const y = now.getFullYear();
  const m = String(now.getMonth() + 1).padStart(2, "0");
  const d = String(now.getDate()).padStart(2, "0");
  return `${kind}:${y}-${m}-${d}`;
}

/** Whether a page returning now has been away long enough to be shown the digest first. */
export function awayLongEnough(lastSeenAt: Date | null, now: Date, thresholdMs: number): boolean {
  return lastSeenAt !== null && now.getTime() - lastSeenAt.getTime() >= thresholdMs;
}

/** ntfy's priority header (1 min .. 5 max) for an urgency. */
export function ntfyPriority(urgency: Urgency): 2 | 3 | 5 {
  return urgency === "urgent" ? 5 : urgency === "normal" ? 3 : 2;
}

/** Web Push's Urgency header (RFC 8030 §5.3) for an urgency. */
export function pushUrgency(urgency: Urgency): "high" | "normal" | "low" {
  return urgency === "urgent" ? "high" : urgency === "normal" ? "normal" : "low";
}
